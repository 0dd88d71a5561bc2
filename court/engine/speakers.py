"""Who speaks in a stage: a procedure's symbolic seats resolved against a trial's state.

``stage_participants`` is asked for every turn of every seat's view (who hears a stage's
dialogue), so its answers are kept: each depends on the stage, the target's side, the
appellant's and the seats asked whether they appeal, and nothing else.
"""

from __future__ import annotations

from functools import lru_cache

from court.engine.state import TrialState
from court.procedures.civil import APPEAL_DECIDER
from court.procedures.seats import opposite
from court.procedures.structure import Stage


def resolve_seat(state: TrialState, symbol: str) -> str:
    """Map a procedure's symbolic seat (``target_lawyer``, ``appellee_client``) to a seat id."""
    if symbol == APPEAL_DECIDER:
        return state.appeal_deciders[state.round_index]
    return _resolved(symbol, state.target_side, state.appellant_side)


def _resolved(symbol: str, target_side: str, appellant_side: str | None) -> str:
    prefix, _, role = symbol.partition("_")
    if prefix == "target":
        return f"{target_side}_{role}"
    if prefix == "appellant":
        return f"{appellant_side}_{role}"
    if prefix == "appellee":
        return f"{opposite(appellant_side or 'plaintiff')}_{role}"
    return symbol


def stage_participants(state: TrialState, stage: Stage) -> frozenset[str]:
    """The seats that speak in a stage; only they hear its dialogue."""
    return _participants(_Same(stage), state.target_side, state.appellant_side, tuple(state.appeal_deciders))


class _Same:
    """A stage as a cache key, the same only as itself: a frozen dataclass's own hash goes
    through every field of every phase and slot, which costs more than the answer."""

    __slots__ = ("stage",)

    def __init__(self, stage: Stage) -> None:
        self.stage = stage

    def __hash__(self) -> int:
        return id(self.stage)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.stage is self.stage


@lru_cache(maxsize=4096)
def _participants(
    key: _Same, target_side: str, appellant_side: str | None, deciders: tuple[str, ...]
) -> frozenset[str]:
    stage = key.stage
    slots = [slot for phase in stage.phases for slot in phase.slots]
    if stage.closing is not None:
        slots.append(stage.closing)
    return frozenset(
        seat
        for slot in slots
        for seat in (deciders if slot.seat == APPEAL_DECIDER else [_resolved(slot.seat, target_side, appellant_side)])
    )
