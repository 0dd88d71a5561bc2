"""The trial state the engine reads and updates: plain data, JSON round-trippable so a live
trial can be stored between steps and a batch run can checkpoint at stage boundaries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

StageStatus = Literal["pending", "running", "closing", "memory", "done"]


@dataclass
class TurnRecord:
    seq: int
    stage: str
    phase: str
    seat: str
    role: str
    side: str
    speaker: str
    author: str
    act: str
    text: str
    tokens: int = 0
    decision: str | None = None
    client_id: str = ""
    decision_source: str = ""


@dataclass
class ArtifactRecord:
    stage: str
    kind: str
    title: str
    text: str
    author_seat: str
    side: str


@dataclass
class MemoryLogEntry:
    stage: str
    seat: str
    op: str
    key: str
    value: Any


@dataclass
class TrialState:
    case: dict[str, Any]
    procedure: str
    target_side: str
    human_seats: dict[str, str] = field(default_factory=dict)
    """seat -> username; recorded so turns carry ``author: human``."""
    last_stage: str | None = None
    stage_index: int = -1
    stage_status: StageStatus = "done"
    phase_index: int = 0
    round_index: int = 0
    slot_index: int = 0
    stage_turns: int = 0
    decisions: dict[str, str] = field(default_factory=dict)
    memory_done: list[str] = field(default_factory=list)
    appellant_side: str | None = None
    cross_appellant_side: str | None = None
    """The appellee's side when it appealed too (both sides appealed): its appeal is heard at
    the second instance with the appellant's, and the court answers each."""
    appeal_deciders: list[str] = field(default_factory=list)
    """The seats asked at AD-Det whether their side appeals, in order (a trial with a person
    seated: ``engine.transitions``)."""
    judgment_final: bool = False
    """Nobody appealed the first-instance judgment: the case ends there."""
    seated: bool = False
    """People play in this trial: who appeals follows its judgment, also while agents play
    its earlier stages for them (``human_seats`` is empty then)."""
    mediated: bool = False
    finished: bool = False
    turns: list[TurnRecord] = field(default_factory=list)
    artifacts: list[ArtifactRecord] = field(default_factory=list)
    memory: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    memory_log: list[MemoryLogEntry] = field(default_factory=list)
    stage_history: list[str] = field(default_factory=list)
    pending: list[dict[str, str]] = field(default_factory=list)
    """Interjections owed before the procedure goes on, first first: ``{"seat", "act"}`` (the
    judge's ruling on an objection, a party's answer to the judge's question)."""
    strategy_module: bool = False
    """SimCourt's Strategy module is on: model seats plan before their first turn and reflect at
    each stage's end (``agents.strategy``). Off for stored states from before it."""
    strategies: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    """seat -> its strategy and every revision, first first: ``{"stage", "kind": "strategy" |
    "reflection", "text", "warning"}`` (``text`` blank and ``warning`` set when the model gave
    none). Shown to the seat itself and to instructors only."""

    @property
    def language(self) -> str:
        return self.case.get("language", "zh")

    @property
    def next_seq(self) -> int:
        return len(self.turns) + 1

    def artifacts_of(self, kind: str) -> list[ArtifactRecord]:
        return [artifact for artifact in self.artifacts if artifact.kind == kind]

    def filing_turn(self, artifact: ArtifactRecord) -> TurnRecord | None:
        """The turn that filed ``artifact``: its author's last turn in its stage (a document is
        recorded with the closing turn of its author). None when the author said nothing
        there (the court's appeal determination is recorded without a turn)."""
        spoken = [turn for turn in self.turns if turn.stage == artifact.stage and turn.seat == artifact.author_seat]
        return spoken[-1] if spoken else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data. Shallow copies (not ``asdict``'s deep copy): a live trial stores its
        state after every step, so this is on the hot path."""
        data = dict(self.__dict__)
        data["turns"] = [dict(turn.__dict__) for turn in self.turns]
        data["artifacts"] = [dict(artifact.__dict__) for artifact in self.artifacts]
        data["memory_log"] = [dict(entry.__dict__) for entry in self.memory_log]
        data["pending"] = [dict(entry) for entry in self.pending]
        data["strategies"] = {seat: [dict(entry) for entry in entries] for seat, entries in self.strategies.items()}
        data["memory"] = {
            seat: {key: list(entries) for key, entries in memory.items()} for seat, memory in self.memory.items()
        }
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrialState:
        data = dict(data)
        data["turns"] = [TurnRecord(**turn) for turn in data.get("turns", [])]
        data["artifacts"] = [ArtifactRecord(**artifact) for artifact in data.get("artifacts", [])]
        data["memory_log"] = [MemoryLogEntry(**entry) for entry in data.get("memory_log", [])]
        return cls(**data)
