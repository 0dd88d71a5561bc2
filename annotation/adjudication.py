"""Adjudication (issue #21, item 5): an item of a trajectory on which a study's raters differ
by more than the study's ``adjudication_threshold`` (points between the lowest and the
highest score) goes to the study's adjudication queue. An instructor reads the scores and
reasons side by side and records a resolved score with a reason (``Adjudication``).

The raters' ratings stay as they are. Exports carry the adjudicated score beside them, and a
study's agreement report adds figures computed with each adjudicated item counted once, at
its resolved score, in place of the raters' scores (``adjudicated_rows``).

A unit's scores are the people's ratings in the study's scope (``selectors.ratings_in_scope``),
each rater's latest, N/A left out. Pairwise rubrics have no adjudication: their answers are
preferences, not points.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from annotation.models import Adjudication, Study
from annotation.numbers import whole_number

ADJUDICATED = "(adjudicated)"
"""The rater of a resolved score in an adjudicated report's frame (no username has brackets)."""
REASON_MAX = 2000

UnitKey = tuple[str, str]
"""(trajectory id, item)."""


class AdjudicationError(ValueError):
    """A resolution that cannot be recorded; ``problems`` maps a field to what is wrong with it."""

    def __init__(self, problems: dict[str, str]) -> None:
        super().__init__("; ".join(f"{field}: {message}" for field, message in problems.items()))
        self.problems = problems


@dataclass(frozen=True)
class RaterScore:
    rater: str
    score: float
    reason: str


@dataclass(frozen=True)
class Disagreement:
    """The raters' scores of one item of one trajectory, with its resolution if there is one."""

    trajectory_id: str
    item: str
    scores: tuple[RaterScore, ...]
    adjudication: Adjudication | None

    @property
    def spread(self) -> float:
        """Points between the lowest and the highest score."""
        values = [entry.score for entry in self.scores]
        return max(values) - min(values) if values else 0.0


def disagreements_find(
    rows: Iterable[tuple[str, str, str, float, str]], *, threshold: float, adjudications: Mapping[UnitKey, Adjudication]
) -> list[Disagreement]:
    """The units whose scores spread over more than ``threshold`` points, from rows of
    (trajectory_id, item, rater, score, reason) in the order they were stored (a rater's later
    score replaces an earlier one); the ones still to resolve first, then the widest."""
    units: dict[UnitKey, dict[str, RaterScore]] = {}
    for trajectory_id, item, rater, score, reason in rows:
        units.setdefault((trajectory_id, item), {})[rater] = RaterScore(rater, score, reason)
    found = [
        Disagreement(trajectory_id, item, tuple(sorted(scores.values(), key=lambda entry: entry.rater)), None)
        for (trajectory_id, item), scores in units.items()
    ]
    found = [
        Disagreement(
            entry.trajectory_id, entry.item, entry.scores, adjudications.get((entry.trajectory_id, entry.item))
        )
        for entry in found
        if entry.spread > threshold
    ]
    return sorted(
        found, key=lambda entry: (entry.adjudication is not None, -entry.spread, entry.trajectory_id, entry.item)
    )


def adjudication_record(
    *, study: Study, trajectory_id: str, item: str, score: str, reason: str, adjudicator: AbstractBaseUser
) -> Adjudication:
    """Record (or revise) the resolved score of an item of one of the study's trajectories;
    raises ``AdjudicationError`` naming each field that is wrong, in the active language."""
    definition = study.rubric.definition
    if not definition.kind.scores_points:
        raise AdjudicationError({"score": _("a pairwise study has no adjudication")})
    if trajectory_id not in study.trajectory_ids or item not in definition.item_ids:
        raise AdjudicationError({"item": _("no such item of a trajectory of this study")})
    problems = {}
    value = whole_number(score, low=definition.scale_min, high=definition.scale_max)
    if value is None:
        problems["score"] = _("give an integer from %(low)d to %(high)d") % {
            "low": definition.scale_min,
            "high": definition.scale_max,
        }
    if not 1 <= len(reason.strip()) <= REASON_MAX:
        problems["reason"] = _("a reason of 1 to %(max)d characters is required") % {"max": REASON_MAX}
    if problems:
        raise AdjudicationError(problems)
    adjudication, _created = Adjudication.objects.update_or_create(
        study=study,
        trajectory_id=trajectory_id,
        item=item,
        defaults={"score": value, "reason": reason.strip(), "adjudicator": adjudicator},
    )
    return adjudication


def adjudicated_rows(
    rows: Iterable[tuple[str, str, str, str, float | None]], resolved: Mapping[UnitKey, float]
) -> Iterator[tuple[str, str, str, str, float | None]]:
    """Rows of (trajectory_id, item, rater, source, score) with the people's scores of every
    resolved unit replaced by its one resolved score (rated by ``ADJUDICATED``); the judge's
    rows as they are."""
    for row in rows:
        trajectory_id, item, _rater, source, _score = row
        if source == "human" and (trajectory_id, item) in resolved:
            continue
        yield row
    for (trajectory_id, item), score in resolved.items():
        yield trajectory_id, item, ADJUDICATED, "human", score
