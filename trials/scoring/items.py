"""A scorecard's scored items, and what its subject was responsible for: the seat under
evaluation, its own turns and the links from an item to the transcript."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from trials.engine.state import ArtifactRecord, TrialState, TurnRecord
from trials.procedures.seats import target_seat
from trials.scoring.scorers import Criterion, Rating


@dataclass
class Item:
    stage: str
    capability: str
    id: str
    kind: str
    score: float
    reason: str
    links: list[dict[str, Any]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Reference points the subject did not raise; shown to a student only after the trial."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Pending:
    """A semantic item waiting for its scorer's rating."""

    stage: str
    capability: str
    criterion: Criterion
    links: list[dict[str, Any]]
    missing: list[str]


NOTHING_WRITTEN = "nothing was said or written for this item"


def rated_item(entry: Pending, rating: Rating) -> Item:
    return Item(
        entry.stage,
        entry.capability,
        entry.criterion.id,
        "semantic",
        round(rating.score / 10, 6),
        rating.reason,
        entry.links,
        entry.missing,
    )


def zero_item(entry: Pending) -> Item:
    """A semantic item with nothing to rate: 0, as LegalWorld's formulas score what is missing."""
    return Item(entry.stage, entry.capability, entry.criterion.id, "semantic", 0.0, NOTHING_WRITTEN, [], entry.missing)


def seat_of_subject(state: TrialState) -> str:
    return target_seat(state.procedure, state.target_side)


def own_turns(state: TrialState, stage: str, phase: str | None = None) -> list[TurnRecord]:
    seat = seat_of_subject(state)
    return [
        turn
        for turn in state.turns
        if turn.stage == stage and turn.seat == seat and (phase is None or turn.phase == phase)
    ]


def turn_links(turns: list[TurnRecord]) -> list[dict[str, Any]]:
    return [{"turn": turn.seq, "stage": turn.stage, "phase": turn.phase} for turn in turns]


def doc_link(artifact: ArtifactRecord, section: str | None = None) -> dict[str, Any]:
    return {"artifact": artifact.kind, "stage": artifact.stage, "section": section}
