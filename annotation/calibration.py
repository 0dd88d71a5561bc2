"""Calibration: a study's training round and its gold items (issue #21, item 4).

An instructor gives a study reference scores, per item of a trajectory: the score it
deserves and why (``study_gold``, read by ``annotation.references_file``). Every rater of the
study rates every reference trajectory:

- a **training** trajectory before anything else of the study: until the rater has submitted
  the whole training round, their other questionnaires of the study cannot be saved
  (``Assignment.waits_for_training``, enforced by ``annotation.studies``). Once a training
  questionnaire is submitted the rater reads, per item, their score beside the reference and
  the reference's reason;
- a **gold** trajectory among their other questionnaires, looking like any of them (the queue
  places it by a draw, ``selectors.rater_queue``; a claim draws it with the odds of a gold
  among what is left). How close the rater comes to the references is their accuracy: the
  share of items within ±1 point and the mean absolute error. A rater whose share is below
  the study's ``gold_min_within1_pct`` is **flagged**: their ratings are kept, and the study's
  agreement report is computed with and without them (``selectors.agreement_build``).

Reference trajectories are never units of the study, and the answers given on them stay in
their assignments: they are no ratings and enter no agreement figure.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from annotation.models import Assignment, Reference, Study, Trajectory
from annotation.references_file import StudyFacts, references_read
from annotation.stages import trajectory_not_applicable
from legalsim.json_input import Problem

TRAINING, GOLD = Assignment.Kind.TRAINING, Assignment.Kind.GOLD


class ReferenceFileError(ValueError):
    """The reference file cannot be stored; ``problems`` lists every reason."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = list(problems)


@dataclass(frozen=True)
class ReferencesStored:
    references: int
    training: int
    """Training trajectories in the file."""
    gold: int
    assigned: int
    """Assignments created for the study's raters."""


def references_import(*, study: Study, path: Path) -> ReferencesStored:
    """Store a reference file's scores for the study, all or nothing: the trajectories it names
    get exactly its rows (earlier references of those trajectories are replaced), and every
    rater of the study gets the reference trajectories they lack. Raises ``ReferenceFileError``
    with every problem, having stored nothing."""
    definition = study.rubric.definition
    if not definition.kind.scores_points:
        message = f"study {study.name!r} rates pairs; training and gold items need a rubric with a scale"
        raise ReferenceFileError([Problem(str(path), 1, "study", message)])
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=study.pk)
        facts = StudyFacts(rubric=definition, units=frozenset(study.trajectory_ids), kinds=reference_kinds(study))
        rows, problems = references_read(path, facts)
        if problems:
            raise ReferenceFileError(problems)
        kinds = {row.trajectory_id: row.kind for row in rows}
        study.references.filter(trajectory_id__in=kinds).delete()
        Reference.objects.bulk_create(
            Reference(
                study=study,
                kind=row.kind,
                trajectory_id=row.trajectory_id,
                item=row.item,
                score=row.score,
                reason=row.reason,
                imported_from=str(path),
            )
            for row in rows
        )
        assigned = calibration_assign(study=study)
    kind_counts = list(kinds.values())
    return ReferencesStored(len(rows), kind_counts.count(TRAINING), kind_counts.count(GOLD), assigned)


def reference_kinds(study: Study) -> dict[str, str]:
    """Trajectory id -> training or gold, for the study's reference trajectories."""
    return dict(study.references.values_list("trajectory_id", "kind").distinct())


def calibration_assign(*, study: Study, raters: Iterable[AbstractBaseUser] | None = None) -> int:
    """Give each rater (by default every rater of the study) the reference trajectories of the
    study they have no assignment for; returns how many assignments were created."""
    kinds = reference_kinds(study)
    if not kinds:
        return 0
    raters = list(study.raters.all() if raters is None else raters)
    have = set(
        study.assignments.filter(trajectory_id__in=kinds, rater__in=raters).values_list("rater_id", "trajectory_id")
    )
    new = [
        Assignment(study=study, trajectory_id=trajectory_id, rater=rater, kind=kind)
        for rater in raters
        for trajectory_id, kind in sorted(kinds.items())
        if (rater.pk, trajectory_id) not in have
    ]
    Assignment.objects.bulk_create(new)
    return len(new)


def calibration_claim(*, study: Study, rater: AbstractBaseUser, open_units: int) -> Assignment | None:
    """What a rater who asks for the next trajectory of the study gets before a new unit: the
    next questionnaire of their training round while one is open; otherwise, with the odds of
    a gold among what is left to them (their open gold questionnaires and ``open_units`` units
    still to rate), one of their gold questionnaires; else nothing."""
    calibration_assign(study=study, raters=[rater])
    open_mine = study.assignments.filter(rater=rater).exclude(status=Assignment.Status.SUBMITTED)
    training = open_mine.filter(kind=TRAINING).order_by("trajectory_id").first()
    if training is not None:
        return training
    gold = list(open_mine.filter(kind=GOLD).order_by("trajectory_id"))
    if gold and secrets.randbelow(len(gold) + open_units) < len(gold):
        return gold[0]
    return None


def training_next(*, study_id: int, rater: AbstractBaseUser) -> Assignment | None:
    """The rater's first training questionnaire of the study not submitted yet."""
    training = Assignment.objects.filter(study_id=study_id, rater=rater, kind=TRAINING)
    return training.exclude(status=Assignment.Status.SUBMITTED).order_by("trajectory_id").first()


def answered_score(answer: object) -> int | None:
    """The whole-number score of a submitted questionnaire's answer (``None``: none given)."""
    score = answer.get("score") if isinstance(answer, dict) else None
    try:
        return int(str(score).strip())
    except ValueError:
        return None


@dataclass(frozen=True)
class ItemFeedback:
    """One item of a submitted training questionnaire: the rater's answer and the reference."""

    item: str
    score: int | None
    reason: str
    reference: float | None
    reference_reason: str
    not_applicable: bool

    @property
    def difference(self) -> float | None:
        """The rater's score minus the reference's."""
        if self.score is None or self.reference is None:
            return None
        return self.score - self.reference

    @property
    def distance(self) -> int | None:
        """Whole points between the rater's score and the reference's."""
        return None if self.difference is None else round(abs(self.difference))

    @property
    def within1(self) -> bool:
        return self.distance is not None and self.distance <= 1


def training_feedback(assignment: Assignment) -> list[ItemFeedback]:
    """Per item of the rubric, in its order: what the rater answered on a training trajectory
    beside the reference score and reason (an item the trajectory lacks the stage of is N/A
    for both)."""
    definition = assignment.study.rubric.definition
    references = {ref.item: ref for ref in assignment.study.references.filter(trajectory_id=assignment.trajectory_id)}
    trajectory = Trajectory.objects.filter(pk=assignment.trajectory_id).only("procedure", "stage_ids").first()
    not_applicable = trajectory_not_applicable(definition, trajectory)
    feedback = []
    for item in definition.item_ids:
        answer = assignment.draft.get(item) or {}
        reference = references.get(item)
        feedback.append(
            ItemFeedback(
                item=item,
                score=None if item in not_applicable else answered_score(answer),
                reason=str(answer.get("reason", "")).strip(),
                reference=reference.score if reference else None,
                reference_reason=reference.reason if reference else "",
                not_applicable=item in not_applicable,
            )
        )
    return feedback


@dataclass(frozen=True)
class RaterQuality:
    """A rater's calibration in a study: training round and gold questionnaires submitted, and
    their accuracy on the gold items (``None`` before any gold item is answered)."""

    rater: str
    training_done: int
    training_total: int
    gold_done: int
    gold_total: int
    gold_items: int
    within1_pct: float | None
    mae: float | None
    flagged: bool


def rater_quality(study: Study) -> list[RaterQuality]:
    """Every rater with a training or gold questionnaire in the study, by name."""
    references = {
        (trajectory_id, item): score
        for trajectory_id, item, score in study.references.filter(kind=GOLD, score__isnull=False).values_list(
            "trajectory_id", "item", "score"
        )
    }
    counts: dict[str, dict[str, int]] = {}
    differences: dict[str, list[float]] = {}
    assignments = study.assignments.exclude(kind=Assignment.Kind.STUDY).values_list(
        "rater__username", "kind", "status", "trajectory_id", "draft"
    )
    for rater, kind, status, trajectory_id, draft in assignments:
        tally = counts.setdefault(rater, {"training": 0, "training_done": 0, "gold": 0, "gold_done": 0})
        tally[kind] += 1
        differences.setdefault(rater, [])
        if status != Assignment.Status.SUBMITTED:
            continue
        tally[f"{kind}_done"] += 1
        if kind == GOLD:
            for item, answer in draft.items():
                score, reference = answered_score(answer), references.get((trajectory_id, item))
                if score is not None and reference is not None:
                    differences[rater].append(score - reference)
    return [_quality(rater, counts[rater], differences[rater], study.gold_min_within1_pct) for rater in sorted(counts)]


def _quality(rater: str, tally: dict[str, int], differences: list[float], threshold: float) -> RaterQuality:
    within1 = 100 * sum(abs(value) <= 1 for value in differences) / len(differences) if differences else None
    return RaterQuality(
        rater=rater,
        training_done=tally["training_done"],
        training_total=tally["training"],
        gold_done=tally["gold_done"],
        gold_total=tally["gold"],
        gold_items=len(differences),
        within1_pct=within1,
        mae=sum(abs(value) for value in differences) / len(differences) if differences else None,
        flagged=within1 is not None and within1 < threshold,
    )


def flagged_raters(study: Study) -> list[str]:
    """The raters of the study whose accuracy on gold items is below its threshold."""
    return [quality.rater for quality in rater_quality(study) if quality.flagged]
