"""The one interface every seat implements, agent or human (docs/design.md, "One interface for
every seat")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from court.engine.state import TrialState
from court.engine.steps import MemoryUpdate, Reply, Speak, UpdateMemory
from court.engine.visibility import SeatView


@dataclass(frozen=True)
class TurnRequest:
    step: Speak
    view: SeatView


@dataclass(frozen=True)
class MemoryRequest:
    step: UpdateMemory
    view: SeatView


class ParticipantFailed(RuntimeError):
    """A participant could not act (its model server failed after retries); the trial pauses
    at this step and can be resumed, with nothing lost."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


DeltaSink = Callable[[str], None]
"""Told each piece of a reply as it is written (a streaming model's tokens); it raises
``GenerationCancelled`` to stop the generation."""


class GenerationCancelled(Exception):
    """Raised by a ``DeltaSink`` when nobody wants the rest of the reply (an objection cut the
    statement): the participant stops generating and gives no reply."""


class Participant(Protocol):
    """What every seat answers, person or agent: the driver and the runner ask nothing else."""

    def respond(self, request: TurnRequest, *, on_delta: DeltaSink | None = None) -> Reply | None:
        """The seat's reply, or ``None`` while it has not answered yet (a human typing). A
        participant that writes its reply piece by piece tells ``on_delta`` each piece."""

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate | None:
        """The seat's stage-end memory operations, or ``None`` while it has not written them."""

    def drain_calls(self) -> list[dict]:
        """The model calls made since the last drain (``LLMCallRecord`` fields), then forget them."""


class HumanParticipant:
    """A seat held by a person: replies arrive from the browser, queued by the transport.
    ``remembers=False``: the person writes no stage-end memory (the live room has no form for
    it), so their memory step is taken at once, empty."""

    def __init__(self, *, remembers: bool = True) -> None:
        self._replies: list[Reply] = []
        self._memory: list[MemoryUpdate] = []
        self.remembers = remembers

    def submit(self, reply: Reply) -> None:
        self._replies.append(reply)

    def submit_memory(self, update: MemoryUpdate) -> None:
        self._memory.append(update)

    def respond(self, request: TurnRequest, *, on_delta: DeltaSink | None = None) -> Reply | None:
        return self._replies.pop(0) if self._replies else None

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate | None:
        if self._memory:
            return self._memory.pop(0)
        return None if self.remembers else MemoryUpdate()

    def drain_calls(self) -> list[dict]:
        return []


def seats_held(state: TrialState, agents: Mapping[str, Participant]) -> dict[str, Participant]:
    """Who answers each seat of a live trial on ``state``: a seat a person holds
    (``state.human_seats``, which changes as seats are taken and handed back) is a
    ``HumanParticipant`` with nothing to give, since a person's words are recorded as they
    are said; every other seat is its agent."""
    return {
        seat: HumanParticipant(remembers=False) if seat in state.human_seats else agent
        for seat, agent in agents.items()
    }
