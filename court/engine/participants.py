"""The one interface every seat implements, agent or human (docs/design.md, "One interface for
every seat")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

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
    """A seat held by a person: replies arrive from the browser, queued by the transport."""

    def __init__(self) -> None:
        self._replies: list[Reply] = []
        self._memory: list[MemoryUpdate] = []

    def submit(self, reply: Reply) -> None:
        self._replies.append(reply)

    def submit_memory(self, update: MemoryUpdate) -> None:
        self._memory.append(update)

    def respond(self, request: TurnRequest, *, on_delta: DeltaSink | None = None) -> Reply | None:
        return self._replies.pop(0) if self._replies else None

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate | None:
        return self._memory.pop(0) if self._memory else None

    def drain_calls(self) -> list[dict]:
        return []


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: one token per CJK character, 4/3 per other word."""
    cjk = sum(1 for char in text if "\u3400" <= char <= "\u9fff")
    words = len("".join(" " if "\u3400" <= char <= "\u9fff" else char for char in text).split())
    return cjk + (words * 4 + 2) // 3
