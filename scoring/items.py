"""A scorecard's scored items, and what its subject was responsible for: the seat under
evaluation, its own turns and the links from an item to the transcript."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from court.engine.state import ArtifactRecord, TrialState, TurnRecord
from court.procedures.seats import seat_info, target_seat
from scoring.grounding import NO_CONTENT, substance
from scoring.references import own_points, point_key
from scoring.scorers import Criterion, Rating, Scorer, points_raised


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


def rated_items(entries: list[Pending], state: TrialState, scorer: Scorer) -> list[Item]:
    """The entries rated by ``scorer``, each counted as far as its candidate is about this
    case (``grounding.substance``): a candidate with no legal content of the case scores 0
    without being rated, the others have their rating multiplied by its substance."""
    grounds = {id(entry): substance(entry.criterion.candidate, state.case, state.language) for entry in entries}
    rateable = [entry for entry in entries if entry.criterion.candidate.strip() and grounds[id(entry)].case_terms]
    ratings = scorer.rate([entry.criterion for entry in rateable], state.language)
    rated = {id(entry) for entry in rateable}
    items = []
    for entry in entries:
        ground = grounds[id(entry)]
        if id(entry) not in rated:
            reason = NO_CONTENT if entry.criterion.candidate.strip() else NOTHING_WRITTEN
            items.append(
                Item(
                    entry.stage,
                    entry.capability,
                    entry.criterion.id,
                    "semantic",
                    0.0,
                    reason,
                    entry.links,
                    entry.missing,
                )
            )
            continue
        item = rated_item(entry, ratings[entry.criterion.id])
        if ground.value < 1:
            item.score = round(item.score * ground.value, 6)
            item.reason = f"{item.reason}; {ground.note()}"
        items.append(item)
    return items


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


def side_record(state: TrialState, side: str) -> str:
    """Everything the seats of ``side`` said and filed in the trial."""
    said = [turn.text for turn in state.turns if _side_of(state, turn.seat) == side]
    filed = [artifact.text for artifact in state.artifacts if _side_of(state, artifact.author_seat) == side]
    return "\n".join(said + filed)


def _side_of(state: TrialState, seat: str) -> str | None:
    try:
        return seat_info(state.procedure, seat).side
    except (KeyError, ValueError):
        return None


def not_raised(state: TrialState, points: list[str]) -> list[str]:
    """The reference points the target side made nowhere in the trial, in anything its seats
    said or filed: what a scorecard lists as not raised. Only the side's own points
    (``references.own_points``) are listed: a reference may hold the court's findings, its
    orders and the articles it applied, which a side is measured against but never failed to
    make."""
    own = own_points(state)
    mine = [point for point in points if point_key(point) in own]
    return points_raised(mine, side_record(state, state.target_side), state.language)[1]


def turn_links(turns: list[TurnRecord]) -> list[dict[str, Any]]:
    return [{"turn": turn.seq, "stage": turn.stage, "phase": turn.phase} for turn in turns]


def doc_link(artifact: ArtifactRecord, section: str | None = None) -> dict[str, Any]:
    return {"artifact": artifact.kind, "stage": artifact.stage, "section": section}
