"""Reads for the annotation app: the ratings in scope of a report, and what a report shows."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet

from annotation.agreement import AgreementResult, RatingsFrame, agreement_compute
from annotation.bootstrap import REPLICATES, bootstrap_attach
from annotation.models import Assignment, Rating, Rubric, Study, Trajectory
from annotation.rubric import RubricDefinition, pair_split

REASON_EXAMPLES = 8


def ratings_in_scope(*, rubric_id: str, study: Study | None = None) -> QuerySet[Rating]:
    """A rubric's ratings; for a study, only its trajectories, its raters and the LLM judges."""
    ratings = Rating.objects.filter(rubric_id=rubric_id)
    if study is not None:
        usernames = [user.get_username() for user in study.raters.all()]
        ratings = ratings.filter(trajectory_id__in=study.trajectory_ids).filter(
            Q(source=Rating.Source.LLM) | Q(rater__in=usernames)
        )
    return ratings


def ratings_frame(*, rubric_id: str, study: Study | None = None) -> RatingsFrame:
    rows = ratings_in_scope(rubric_id=rubric_id, study=study).values_list(
        "trajectory_id", "item", "rater", "source", "score"
    )
    return RatingsFrame.from_rows(rows.iterator(chunk_size=20000))


def judges_in_scope(*, rubric_id: str, study: Study | None = None) -> list[str]:
    ratings = ratings_in_scope(rubric_id=rubric_id, study=study).filter(source=Rating.Source.LLM)
    return list(ratings.order_by("rater").values_list("rater", flat=True).distinct())


def agreement_build(
    *, rubric: Rubric, judge: str | None, study: Study | None = None, replicates: int = REPLICATES
) -> AgreementResult:
    """The agreement report with bootstrap intervals (``replicates=0``: without); raises
    ``AgreementError`` when there is no judge to compare with."""
    definition = rubric.definition
    frame = ratings_frame(rubric_id=rubric.pk, study=study)
    result = agreement_compute(rubric=definition, frame=frame, judge=judge)
    if replicates:
        bootstrap_attach(result, rubric=definition, frame=frame, replicates=replicates)
    return result


def score_bands(rubric: RubricDefinition) -> tuple[float, float]:
    """(high, low) thresholds of the reason analysis: legalworld's >= 9 and <= 6 on 0-10,
    the same proportions on other scales unless the rubric names its own ``reason_bands``."""
    named = rubric.data.get("reason_bands") or {}
    span = rubric.scale_max - rubric.scale_min
    return (
        named.get("high", rubric.scale_max - span / 10),
        named.get("low", rubric.scale_min + span * 6 / 10),
    )


def reason_bands(
    *, rubric: Rubric, study: Study | None = None, examples: int = REASON_EXAMPLES
) -> list[dict[str, Any]]:
    """Human reasons in the high and low score bands: counts overall and per item, and the
    first few reasons of each item (by trajectory and rater) to read."""
    definition = rubric.definition
    human = ratings_in_scope(rubric_id=rubric.pk, study=study).filter(source=Rating.Source.HUMAN)
    total = human.count()
    high, low = score_bands(definition)
    bands = []
    for label, condition in ((f"≥ {high:g}", Q(score__gte=high)), (f"≤ {low:g}", Q(score__lte=low))):
        in_band = human.filter(condition)
        per_item = dict(in_band.values_list("item").annotate(n=Count("id")))
        items = [
            {
                "item": item,
                "count": per_item[item],
                "reasons": list(
                    in_band.filter(item=item)
                    .exclude(reason="")
                    .order_by("trajectory_id", "rater")
                    .values("trajectory_id", "rater", "score", "reason")[:examples]
                ),
            }
            for item in definition.item_ids
            if per_item.get(item)
        ]
        count = sum(per_item.values())
        bands.append({"label": label, "count": count, "share": 100 * count / total if total else None, "items": items})
    return bands


def study_units_stored(study: Study) -> list[str]:
    """The study's units whose trajectories are stored here (imported studies may name
    trajectories only by id): trajectories, or for a pairwise rubric pairs of them."""
    if not study.rubric.definition.pairwise:
        return list(Trajectory.objects.filter(pk__in=study.trajectory_ids).values_list("pk", flat=True))
    pairs = {unit: pair_split(unit) for unit in study.trajectory_ids}
    wanted = {tid for pair in pairs.values() if pair for tid in pair}
    stored = set(Trajectory.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    return [unit for unit, pair in pairs.items() if pair and set(pair) <= stored]


def studies_counted() -> QuerySet[Study]:
    """Studies with their numbers of raters, assignments and submitted assignments."""
    return Study.objects.select_related("rubric").annotate(
        n_raters=Count("raters", distinct=True),
        n_assignments=Count("assignments", distinct=True),
        n_submitted=Count("assignments", filter=Q(assignments__status=Assignment.Status.SUBMITTED), distinct=True),
    )


def study_progress(study: Study) -> list[dict]:
    """Per rater: assignments in total, submitted and in draft."""
    rows = study.assignments.values("rater__username").annotate(
        total=Count("id"),
        submitted=Count("id", filter=Q(status=Assignment.Status.SUBMITTED)),
        drafts=Count("id", filter=Q(status=Assignment.Status.DRAFT)),
    )
    return sorted(rows, key=lambda row: row["rater__username"])


def assignment_shown(assignment: Assignment) -> dict[str, str]:
    """What the rater reads: the trajectory, or for a pairwise rubric the two trajectories
    as A and B in the order drawn for this rater (their ids never reach the page)."""
    if not assignment.shown_first:
        return {"": assignment.trajectory_id}
    first, second = pair_split(assignment.trajectory_id)
    return {"A": assignment.shown_first, "B": second if assignment.shown_first == first else first}


def assignment_panels(assignment: Assignment) -> list[dict[str, Any]]:
    """The trajectories a rater reads, stage by stage. A pairwise assignment shows them as A
    and B without ids or human/agent markers, as the questionnaire page does."""
    shown = assignment_shown(assignment)
    stored = Trajectory.objects.in_bulk(list(shown.values()))
    panels = []
    for side, trajectory_id in shown.items():
        trajectory = stored.get(trajectory_id)
        stages = trajectory.stages if trajectory else []
        if side:
            stages = [
                {**stage, "turns": [{k: v for k, v in turn.items() if k != "author"} for turn in stage["turns"]]}
                for stage in stages
            ]
        panels.append({"side": side, "title": trajectory.title if trajectory else "", "stages": stages})
    return panels
