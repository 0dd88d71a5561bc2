"""What the engine asks for next. The runner turns each step into a call or an event."""

from __future__ import annotations

from dataclasses import dataclass, field

from court.engine.memory import MemoryOp


@dataclass(frozen=True)
class StageStart:
    stage: str


@dataclass(frozen=True)
class StageEnd:
    stage: str


@dataclass(frozen=True)
class Speak:
    """A seat must speak: an agent generates, a human seat is awaited."""

    seq: int
    stage: str
    phase: str
    seat: str
    role: str
    side: str
    speaker: str
    act: str
    artifact: str | None = None
    """The artifact kind this utterance writes (pronouncement, drafting, record)."""


@dataclass(frozen=True)
class UpdateMemory:
    stage: str
    seat: str


@dataclass(frozen=True)
class End:
    pass


Step = StageStart | StageEnd | Speak | UpdateMemory | End


@dataclass(frozen=True)
class ArtifactDraft:
    title: str
    text: str


@dataclass(frozen=True)
class Reply:
    """What a participant (agent or human) answers to a ``Speak`` step."""

    text: str
    artifact: ArtifactDraft | None = None
    decision: str | None = None
    """``accept`` or ``decline`` in a decision phase (mediation)."""
    decision_source: str = ""
    """How a model's decision was reached (``agents.decisions.SOURCES``): its ``DECISION:``
    line, its words, or the conservative default; blank for a person's buttons."""
    ends_phase: bool = False
    """The speaker closes the current phase early: the lawyer who has no more questions for
    the client (the consultation's follow-ups)."""
    tokens: int = 0
    author: str = "agent"
    client_id: str = ""
    """The browser's id of a human message, so a retried ``say`` is recorded once."""


@dataclass(frozen=True)
class MemoryUpdate:
    ops: tuple[MemoryOp, ...] = field(default_factory=tuple)
