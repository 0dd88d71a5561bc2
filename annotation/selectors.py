"""Reads for the annotation app: the ratings in scope of a report, and what a report shows."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet

from annotation.adjudication import Disagreement, adjudicated_rows, disagreements_find
from annotation.agreement import AgreementResult, RatingsFrame, agreement_compute
from annotation.bootstrap import REPLICATES, bootstrap_attach
from annotation.calibration import flagged_raters
from annotation.models import Assignment, Job, Rating, Rubric, Study, Trajectory
from annotation.retest import RetestPairs, retest_report
from annotation.rubric import RubricDefinition
from annotation.rubric_kind import Pair
from annotation.trajectory_access import units_refused
from legalsim.roles import Ability, User, can

REASON_EXAMPLES = 8


class UnitName(NamedTuple):
    title: str
    language: str


def ratings_in_scope(*, rubric_id: str, study: Study | None = None) -> QuerySet[Rating]:
    """A rubric's ratings; for a study, its questionnaires' ratings, and on its trajectories
    the LLM judges' and those imported for its raters outside any study."""
    ratings = Rating.objects.filter(rubric_id=rubric_id)
    if study is not None:
        usernames = [user.get_username() for user in study.raters.all()]
        outside = Q(study__isnull=True, trajectory_id__in=study.trajectory_ids) & (
            Q(source=Rating.Source.LLM) | Q(rater__in=usernames)
        )
        ratings = ratings.filter(Q(study=study) | outside)
    return ratings


def ratings_frame(
    *,
    rubric_id: str,
    study: Study | None = None,
    leave_out: Collection[str] = (),
    resolved: dict[tuple[str, str], float] | None = None,
) -> RatingsFrame:
    """The ratings in scope as a frame; a rater's repeated rating of an item on a trajectory
    (two studies) comes last when it is the latest, so it is the one that counts. The people
    named in ``leave_out`` are left out (flagged raters); each (trajectory, item) of
    ``resolved`` counts once, at its adjudicated score, in place of the people's scores."""
    ratings = ratings_in_scope(rubric_id=rubric_id, study=study)
    if leave_out:
        ratings = ratings.exclude(source=Rating.Source.HUMAN, rater__in=list(leave_out))
    rows = ratings.order_by("trajectory_id", "item", "rater", "id").values_list(
        "trajectory_id", "item", "rater", "source", "score"
    )
    stream = rows.iterator(chunk_size=20000)
    return RatingsFrame.from_rows(adjudicated_rows(stream, resolved) if resolved else stream).last_per_rater()


def retest_pairs(*, rubric_id: str, study: Study | None = None) -> RetestPairs:
    """People's scores of one item of one trajectory in two studies, earlier and later; for a
    study, the pairs one of whose scores it gave."""
    ratings = Rating.objects.filter(
        rubric_id=rubric_id, source=Rating.Source.HUMAN, study__isnull=False, score__isnull=False
    )
    if study is not None:
        usernames = [user.get_username() for user in study.raters.all()]
        ratings = ratings.filter(rater__in=usernames, trajectory_id__in=study.trajectory_ids)
    rows = ratings.order_by("rater", "trajectory_id", "item", "study__created_at", "study_id").values_list(
        "rater", "trajectory_id", "item", "study_id", "score"
    )
    return RetestPairs.from_rows(rows.iterator(chunk_size=20000), study_id=study.pk if study else None)


def judges_in_scope(*, rubric_id: str, study: Study | None = None) -> list[str]:
    ratings = ratings_in_scope(rubric_id=rubric_id, study=study).filter(source=Rating.Source.LLM)
    return list(ratings.order_by("rater").values_list("rater", flat=True).distinct())


def agreement_build(
    *, rubric: Rubric, judge: str | None, study: Study | None = None, replicates: int = REPLICATES
) -> AgreementResult:
    """The agreement report with its test-retest figures and bootstrap intervals
    (``replicates=0``: without). Without any judge's scores it has the people's figures only
    (``judge`` null); raises ``AgreementError`` for a judge who scored nothing here, or when
    several did and none is named."""
    definition = rubric.definition
    frame = ratings_frame(rubric_id=rubric.pk, study=study)
    result = agreement_compute(rubric=definition, frame=frame, judge=judge)
    pairs = retest_pairs(rubric_id=rubric.pk, study=study)
    result.report["test_retest"] = retest_report(pairs, definition, result.report["notes"])
    result.report |= _quality_figures(rubric=rubric, study=study, judge=result.report["judge"])
    if replicates:
        bootstrap_attach(result, rubric=definition, frame=frame, replicates=replicates)
    return result


def _quality_figures(*, rubric: Rubric, study: Study | None, judge: str) -> dict[str, Any]:
    """A study's report again without its flagged raters (``annotation.calibration``) and
    with its adjudicated items at their resolved scores (``annotation.adjudication``), each
    ``None`` when there is nothing to leave out or resolve; the adjudications themselves with
    the raw scores beside them. A report over a whole rubric leaves them empty: flags and
    resolutions belong to a study."""
    flagged = flagged_raters(study) if study is not None else []
    adjudications = study_adjudications(study) if study is not None else []
    resolved = {(entry["trajectory_id"], entry["item"]): entry["adjudicated_score"] for entry in adjudications}
    definition = rubric.definition

    def figures(frame: RatingsFrame) -> dict[str, Any]:
        report = agreement_compute(rubric=definition, frame=frame, judge=judge).report
        return {key: report[key] for key in ("groups", "overall", "items")}

    return {
        "flagged_raters": flagged,
        "without_flagged": figures(ratings_frame(rubric_id=rubric.pk, study=study, leave_out=flagged))
        if flagged
        else None,
        "adjudications": adjudications,
        "adjudicated": figures(ratings_frame(rubric_id=rubric.pk, study=study, resolved=resolved))
        if resolved
        else None,
    }


def _human_scores(study: Study, trajectory_ids: Collection[str] | None = None) -> QuerySet:
    """(trajectory_id, item, rater, score, reason) of the people's scores in the study's scope
    (N/A left out), in the order they were stored."""
    ratings = ratings_in_scope(rubric_id=study.rubric_id, study=study).filter(
        source=Rating.Source.HUMAN, score__isnull=False
    )
    if trajectory_ids is not None:
        ratings = ratings.filter(trajectory_id__in=list(trajectory_ids))
    return ratings.order_by("id").values_list("trajectory_id", "item", "rater", "score", "reason")


def study_disagreements(study: Study) -> list[Disagreement]:
    """The study's adjudication queue: items on which its raters differ by more than its
    threshold, those still to resolve first (none for a pairwise study)."""
    if not study.rubric.definition.kind.scores_points:
        return []
    adjudications = {(entry.trajectory_id, entry.item): entry for entry in study.adjudications.all()}
    return disagreements_find(
        _human_scores(study).iterator(), threshold=study.adjudication_threshold, adjudications=adjudications
    )


def unit_scores(study: Study, trajectory_id: str, item: str) -> Disagreement:
    """Every rater's score and reason of one item of one trajectory of the study, side by side,
    and its adjudication if it has one."""
    rows = _human_scores(study, [trajectory_id]).filter(item=item)
    adjudication = study.adjudications.filter(trajectory_id=trajectory_id, item=item).first()
    found = disagreements_find(rows, threshold=-1, adjudications={(trajectory_id, item): adjudication})
    return found[0] if found else Disagreement(trajectory_id, item, (), adjudication)


def study_adjudications(study: Study) -> list[dict[str, Any]]:
    """Each adjudicated item of the study: the raters' raw scores and the resolved one, with
    its reason and who gave it."""
    stored = {
        (entry.trajectory_id, entry.item): entry
        for entry in study.adjudications.select_related("adjudicator").order_by("trajectory_id", "item")
    }
    if not stored:
        return []
    rows = _human_scores(study, {trajectory_id for trajectory_id, _item in stored})
    raw = {
        (entry.trajectory_id, entry.item): entry for entry in disagreements_find(rows, threshold=-1, adjudications={})
    }
    return [
        {
            "trajectory_id": trajectory_id,
            "item": item,
            "scores": {entry.rater: entry.score for entry in raw[trajectory_id, item].scores}
            if (trajectory_id, item) in raw
            else {},
            "adjudicated_score": entry.score,
            "reason": entry.reason,
            "adjudicator": entry.adjudicator.get_username() if entry.adjudicator else "",
        }
        for (trajectory_id, item), entry in stored.items()
    ]


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
    human = ratings_in_scope(rubric_id=rubric.pk, study=study).filter(source=Rating.Source.HUMAN, score__isnull=False)
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
    refused = units_refused(study.trajectory_ids)
    kind = study.rubric.definition.kind
    parts = {unit: kind.trajectory_ids(unit) for unit in study.trajectory_ids}
    wanted = {tid for tids in parts.values() for tid in tids}
    stored = set(Trajectory.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    return [unit for unit, tids in parts.items() if tids and set(tids) <= stored and unit not in refused]


def studies_of(*, user: User) -> QuerySet[Study]:
    """The studies ``user`` runs and reads (dashboard, report, quality, adjudication, judge
    runs, exports and their jobs): an admin every study; an instructor those they own, those
    shared with them, and those no one owns (made by a command). For anyone else a study is
    not there (404)."""
    if can(user, Ability.ADMINISTER):
        return Study.objects.all()
    if not can(user, Ability.TEACH):
        return Study.objects.none()
    mine = (
        Q(owner=user)
        | Q(owner__isnull=True)
        | Q(pk__in=Study.shared_with.through.objects.filter(user=user).values("study_id"))
    )
    return Study.objects.filter(mine)


def jobs_of(*, user: User) -> QuerySet[Job]:
    """The jobs ``user`` follows and downloads: those of the studies they read
    (``studies_of``), and a job of no study when they started it (or are an admin)."""
    jobs = Job.objects.all()
    if can(user, Ability.ADMINISTER):
        return jobs
    return jobs.filter(Q(study__in=studies_of(user=user)) | Q(study__isnull=True, created_by=user))


def studies_counted(*, user: User | None = None) -> QuerySet[Study]:
    """Studies (``user``'s, ``studies_of``; every one when None) with their numbers of raters,
    assignments and submitted assignments (of their own units: training and gold
    questionnaires are not counted)."""
    own = Q(assignments__kind=Assignment.Kind.STUDY)
    studies = Study.objects if user is None else studies_of(user=user)
    return studies.select_related("rubric").annotate(
        n_raters=Count("raters", distinct=True),
        n_assignments=Count("assignments", filter=own, distinct=True),
        n_submitted=Count(
            "assignments", filter=own & Q(assignments__status=Assignment.Status.SUBMITTED), distinct=True
        ),
    )


def rater_queue(*, rater: AbstractBaseUser) -> list[Assignment]:
    """The rater's assignments as their queue lists them: the training questionnaires still
    open first, then the other open ones, then the submitted ones, each part in the order they
    were assigned (saving a draft moves nothing), each gold questionnaire at a place drawn
    from its id among the others of its part, so that nothing tells it apart.
    ``queue_training`` marks a training questionnaire, ``queue_waits`` one that waits for its
    study's training round."""
    assignments = list(Assignment.objects.filter(rater=rater).select_related("study").order_by("created_at", "pk"))
    refused = units_refused({entry.trajectory_id for entry in assignments})
    assignments = [entry for entry in assignments if entry.trajectory_id not in refused]
    waiting = {
        entry.study_id
        for entry in assignments
        if entry.kind == Assignment.Kind.TRAINING and entry.status != Assignment.Status.SUBMITTED
    }
    others: dict[bool, int] = {}
    place: dict[int, float] = {}
    for entry in assignments:
        entry.queue_training = entry.kind == Assignment.Kind.TRAINING
        entry.queue_waits = not entry.queue_training and entry.study_id in waiting
        if entry.kind == Assignment.Kind.STUDY:
            place[entry.pk] = others[_submitted(entry)] = others.get(_submitted(entry), -1) + 1
    for entry in assignments:
        if entry.kind == Assignment.Kind.GOLD:
            place[entry.pk] = _drawn(entry.pk) * (others.get(_submitted(entry), -1) + 2) - 0.5

    def order(entry: Assignment) -> tuple:
        open_training = entry.queue_training and not _submitted(entry)
        return (not open_training, _submitted(entry), place.get(entry.pk, -1.0))

    named = units_named(entry.trajectory_id for entry in assignments)
    for entry in assignments:
        entry.queue_name = named.get(entry.trajectory_id)
    return sorted(assignments, key=order)


def _submitted(assignment: Assignment) -> bool:
    return assignment.status == Assignment.Status.SUBMITTED


def open_questionnaires(*, study_id: int, rater: AbstractBaseUser) -> list[Assignment]:
    """The rater's questionnaires of the study not yet submitted, in their queue's order:
    what they still have to finish when the study has nothing new for them."""
    queue = rater_queue(rater=rater)
    return [entry for entry in queue if entry.study_id == study_id and not _submitted(entry) and not entry.queue_waits]


def units_named(units: Iterable[str]) -> dict[str, UnitName]:
    """The case title and language of each unit (a trajectory id, or a pair ``A|B`` named by
    its first trajectory, both being of one case), so that a list of units of several cases
    says which case each one is; a unit whose trajectory is not stored has no entry."""
    first_of = {unit: Pair.trajectories_named(unit)[0] for unit in units}
    stored = Trajectory.objects.filter(pk__in=set(first_of.values())).values_list("pk", "title", "language")
    names = {pk: UnitName(title=title, language=language) for pk, title, language in stored}
    return {unit: names[first] for unit, first in first_of.items() if first in names}


def _drawn(pk: int) -> float:
    """A number in [0, 1) fixed by an assignment's id: where a gold questionnaire goes."""
    return int(hashlib.sha256(f"gold-{pk}".encode()).hexdigest()[:12], 16) / 16**12


def study_progress(study: Study) -> list[dict]:
    """Per rater: assignments of the study's units in total, submitted and in draft (training
    and gold questionnaires are counted by ``calibration.rater_quality``)."""
    rows = (
        study.assignments.filter(kind=Assignment.Kind.STUDY)
        .values("rater__username")
        .annotate(
            total=Count("id"),
            submitted=Count("id", filter=Q(status=Assignment.Status.SUBMITTED)),
            drafts=Count("id", filter=Q(status=Assignment.Status.DRAFT)),
        )
    )
    return sorted(rows, key=lambda row: row["rater__username"])


def assignment_shown(assignment: Assignment) -> dict[str, str]:
    """What the rater reads: the trajectory, or for a pairwise rubric the two trajectories
    as A and B in the order drawn for this rater (their ids never reach the page)."""
    pair = assignment.pair
    if pair is None:
        return {"": assignment.trajectory_id}
    shown_a, shown_b = pair.shown(assignment.shown_first)
    return {"A": shown_a, "B": shown_b}


def assignment_panels(assignment: Assignment) -> list[dict[str, Any]]:
    """The trajectories a rater reads, stage by stage, without human/agent markers (raters
    read blind); a pairwise assignment shows them as A and B without ids, as the
    questionnaire page does."""
    shown = assignment_shown(assignment)
    stored = Trajectory.objects.in_bulk(list(shown.values()))
    if units_refused([assignment.trajectory_id]):  # a private trial's: its words reach no rater
        stored = {}
    panels = []
    for side, trajectory_id in shown.items():
        trajectory = stored.get(trajectory_id)
        stages = [
            {**stage, "turns": [{k: v for k, v in turn.items() if k != "author"} for turn in stage["turns"]]}
            for stage in (trajectory.stages if trajectory else [])
        ]
        panels.append({"side": side, "title": trajectory.title if trajectory else "", "stages": stages})
    return panels
