"""Objections in a live trial, as the driver keeps them: raised by a socket (of any process)
while the other side's statement streams or within the grace period after it ends, then
stored with the engine's rules (``trials.engine.objections``) checked again under the row lock.

A statement cut by an objection keeps on the record only what was shown, then the objection;
an objection in the grace period leaves the statement whole. Either way the judge's ruling
is the trial's next step.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from trials.engine.machine import apply_reply, next_step
from trials.engine.objections import apply_objection, objection_refusal
from trials.engine.state import TurnRecord
from trials.engine.steps import Reply, Speak
from trials.models import Trial
from trials.pool import in_pool
from trials.store import progress_store


@dataclass(frozen=True)
class Raised:
    seat: str
    ground: str
    detail: str = ""


raised: dict[int, Raised] = {}
"""trial id -> the objection waiting for the driver."""
windows: dict[int, int] = {}
"""trial id -> seq of the statement that may still be objected to, its grace period running."""


def objection_raise(trial_id: int, objection: Raised, *, streaming: bool) -> str | None:
    """Queue an objection against the statement streaming now (``streaming``) or just ended;
    the reason it is refused, or None. The engine's rules were checked by the socket and are
    checked again when it is stored."""
    if not streaming and trial_id not in windows:
        return "there is no statement to object to now: the moment has passed"
    raised[trial_id] = objection
    return None


@in_pool
def objection_store_cut(trial_id: int, step: Speak, *, shown: str, objection: Raised) -> tuple | None:
    """The cut statement and the objection, in one transaction, if the engine allows it."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        state = trial.engine_state
        if next_step(state) != step or objection_refusal(state, seat=objection.seat, speaker_seat=step.seat):
            return None
        cut = apply_reply(state, step, Reply(text=f"{shown.rstrip()} —", tokens=0))
        recorded = apply_objection(
            state, seat=objection.seat, ground=objection.ground, detail=objection.detail, speaker_seat=step.seat
        )
        progress_store(trial, state)
        return cut, recorded


@in_pool
def objection_store_after(trial_id: int, seq: int, objection: Raised) -> TurnRecord | None:
    """The objection to turn ``seq``, which ended within the grace period, if it is still the
    last turn and the engine allows it."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        state = trial.engine_state
        last = state.turns[-1] if state.turns else None
        if last is None or last.seq != seq or objection_refusal(state, seat=objection.seat, speaker_seat=last.seat):
            return None
        recorded = apply_objection(
            state, seat=objection.seat, ground=objection.ground, detail=objection.detail, speaker_seat=last.seat
        )
        progress_store(trial, state)
        return recorded
