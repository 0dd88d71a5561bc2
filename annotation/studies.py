"""Studies: who rates what, drafts and final submissions. Every rule is enforced here, on the
server, under row locks; the browser only displays the outcome."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from annotation.calibration import calibration_assign, calibration_claim
from annotation.models import Assignment, Rating, Study, Trajectory
from annotation.numbers import ACTIVE_MS_MAX, whole_number
from annotation.stages import trajectory_not_applicable
from annotation.trajectory_access import units_refused

REASON_MAX = 2000


class StudyError(ValueError):
    """A study rule refused the request; the message says which, to the person who asked.

    The transports answer it with 409 Conflict and the message (``api.exceptions``,
    ``annotation.middleware``), unless a view maps it to something more specific.
    """


SUBMITTED_IS_FINAL = gettext_noop("this questionnaire was submitted; it can no longer change")
"""In English; raised translated into the active language."""


def study_plan(*, study: Study) -> int:
    """Give every trajectory k raters, always to the least-loaded raters, never one twice.

    Returns the number of assignments created. Re-planning tops up without moving any.
    """
    created = 0
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=study.pk)
        raters = sorted(study.raters.all(), key=lambda user: user.pk)
        if len(raters) < study.raters_per_trajectory:
            raise StudyError(
                _("k=%(k)d needs at least that many raters; the study has %(raters)d")
                % {"k": study.raters_per_trajectory, "raters": len(raters)}
            )
        load = {user.pk: 0 for user in raters}
        for row in study.assignments.filter(kind=Assignment.Kind.STUDY).values("rater").annotate(n=Count("id")):
            load[row["rater"]] = row["n"]
        refused = units_refused(study.trajectory_ids)
        for trajectory_id in study.trajectory_ids:
            if trajectory_id in refused:  # a private trial's, its course's permission withdrawn
                continue
            have = set(study.assignments.filter(trajectory_id=trajectory_id).values_list("rater", flat=True))
            for user in sorted(
                (user for user in raters if user.pk not in have), key=lambda user: (load[user.pk], user.pk)
            ):
                if len(have) >= study.raters_per_trajectory:
                    break
                assignment_new(study=study, unit=trajectory_id, rater=user)
                have.add(user.pk)
                load[user.pk] += 1
                created += 1
        created += calibration_assign(study=study)
    return created


def assignment_claim(*, study_id: int, rater: AbstractBaseUser) -> Assignment | None:
    """Self-service: the next trajectory that still needs raters and this rater has not had;
    before it, the rater's open training questionnaires, and now and then one of their gold
    ones (``annotation.calibration.calibration_claim``).

    The study row lock makes concurrent claims queue, so no trajectory ever gets more than k.
    """
    with transaction.atomic():
        study = Study.objects.select_for_update().get(pk=study_id)
        if not study.raters.filter(pk=rater.pk).exists():
            raise StudyError(_("you are not a rater of this study"))
        counts = dict(study.assignments.values_list("trajectory_id").annotate(n=Count("id")))
        mine = set(study.assignments.filter(rater=rater).values_list("trajectory_id", flat=True))
        mine |= units_refused(study.trajectory_ids)
        open_ones = [
            tid for tid in study.trajectory_ids if tid not in mine and counts.get(tid, 0) < study.raters_per_trajectory
        ]
        calibration = calibration_claim(study=study, rater=rater, open_units=len(open_ones))
        if calibration is not None:
            return calibration
        if not open_ones:
            return None
        chosen = min(open_ones, key=lambda tid: (counts.get(tid, 0), study.trajectory_ids.index(tid)))
        return assignment_new(study=study, unit=chosen, rater=rater)


def assignment_new(*, study: Study, unit: str, rater: AbstractBaseUser) -> Assignment:
    """For a pairwise rubric the unit is two trajectories; which one this rater sees as A is
    drawn here, at random, and recorded (SimCourt shuffles the order per annotator)."""
    kind = study.rubric.definition.kind
    if kind.unit(unit) is None:
        raise StudyError(_("%(unit)r is not a pair of trajectories FIRST|SECOND") % {"unit": unit})
    shown_first = kind.shown_first_drawn(unit)
    return Assignment.objects.create(study=study, trajectory_id=unit, rater=rater, shown_first=shown_first)


def _locked(assignment_id: int, rater: AbstractBaseUser) -> Assignment:
    """The rater's assignment, row-locked until the transaction ends: read its status only
    after this, so concurrent requests for one questionnaire take turns (on SQLite, which
    ignores FOR UPDATE, the immediate transactions of the settings serialise them)."""
    assignment = (
        Assignment.objects.select_for_update(of=("self",))
        .select_related("study__rubric")
        .filter(pk=assignment_id, rater=rater)
        .first()
    )
    if assignment is None:
        raise Assignment.DoesNotExist("no such assignment of yours")
    return assignment


def draft_save(*, assignment_id: int, rater: AbstractBaseUser, answers: dict[str, dict]) -> Assignment:
    """Autosave: merge the given items into the draft; a submitted questionnaire is final."""
    with transaction.atomic():
        assignment = _locked(assignment_id, rater)
        if assignment.status == Assignment.Status.SUBMITTED:
            raise StudyError(_(SUBMITTED_IS_FINAL))
        _draft_store(assignment, answers)
    return assignment


def items_not_applicable_to(assignment: Assignment) -> dict[str, str]:
    """Item -> the stage unit the assignment's trajectory lacks, for the items the rater sees
    as N/A (``annotation.stages``); none for a pair or a trajectory known only by its id."""
    if assignment.shown_first:
        return {}
    trajectory = Trajectory.objects.filter(pk=assignment.trajectory_id).only("procedure", "stage_ids").first()
    return trajectory_not_applicable(assignment.study.rubric.definition, trajectory)


def _draft_store(assignment: Assignment, answers: dict[str, dict]) -> None:
    """Merge answers to the rubric's items into the locked assignment's draft and save it;
    an answer to an item that is N/A for this trajectory is dropped. Nothing is saved until
    the rater has submitted the study's training round (``annotation.calibration``)."""
    if assignment.waits_for_training:
        raise StudyError(_("finish the training round of this study first; it is at the top of your queue"))
    items = set(assignment.study.rubric.definition.item_ids) - set(items_not_applicable_to(assignment))
    for item, answer in answers.items():
        if item in items:
            assignment.draft[item] = {**assignment.draft.get(item, {}), **answer}
    assignment.status = Assignment.Status.DRAFT
    assignment.save(update_fields=["draft", "status"])


@dataclass(frozen=True)
class SubmitResult:
    assignment: Assignment
    problems: dict[str, str]
    already: bool = False


def questionnaire_problems(assignment: Assignment, not_applicable: Collection[str] = ()) -> dict[str, str]:
    """What is wrong with each item's answer, in the active language; the items in
    ``not_applicable`` take no answer."""
    definition = assignment.study.rubric.definition
    problems = {}
    no_reason = _("a reason of 1 to %(max)d characters is required") % {"max": REASON_MAX}
    for item in definition.item_ids:
        if item in not_applicable:
            continue
        answer = assignment.draft.get(item) or {}
        problem = definition.kind.answer_problem(
            answer.get("score"), low=definition.scale_min, high=definition.scale_max
        )
        if problem is None and not 1 <= len(str(answer.get("reason", "")).strip()) <= REASON_MAX:
            problem = no_reason
        if problem is not None:
            problems[item] = problem
    return problems


def assignment_submit(
    *, assignment_id: int, rater: AbstractBaseUser, answers: dict[str, dict] | None = None
) -> SubmitResult:
    """Save ``answers`` into the draft and submit it, in one transaction under the
    assignment's row lock. Final and idempotent: the first complete submission stores the
    ratings; any later one, concurrent ones included, changes nothing (not the draft either)
    and reports ``already``. An incomplete one keeps the answers as a draft and reports the
    problems."""
    try:
        return _submit(assignment_id, rater, answers or {})
    except IntegrityError:
        # The ratings' key (study, trajectory, item, rater) is taken. Under the lock a second
        # submission of this assignment never gets here, so either it was submitted after all
        # (the idempotent answer) or the rater's ratings of this trajectory in this study came
        # from a ratings file imported into the study. Other studies never clash.
        assignment = Assignment.objects.select_related("study").get(pk=assignment_id, rater=rater)
        if assignment.status == Assignment.Status.SUBMITTED:
            return SubmitResult(assignment, {}, already=True)
        raise StudyError(
            _(
                "ratings by you of %(unit)s in the study %(study)s are already stored (from an imported file); "
                "this questionnaire cannot add them again"
            )
            % {"unit": assignment.label, "study": assignment.study.name}
        ) from None


def _submit(assignment_id: int, rater: AbstractBaseUser, answers: dict[str, dict]) -> SubmitResult:
    with transaction.atomic():
        assignment = _locked(assignment_id, rater)
        if assignment.status == Assignment.Status.SUBMITTED:
            return SubmitResult(assignment, {}, already=True)
        _draft_store(assignment, answers)
        not_applicable = items_not_applicable_to(assignment)
        problems = questionnaire_problems(assignment, not_applicable)
        if problems:
            return SubmitResult(assignment, problems)
        if assignment.kind == Assignment.Kind.STUDY:  # training and gold answers are checked, never ratings
            Rating.objects.bulk_create(_ratings_of(assignment, rater, not_applicable))
        assignment.status, assignment.submitted_at = Assignment.Status.SUBMITTED, timezone.now()
        assignment.save(update_fields=["status", "submitted_at"])
    return SubmitResult(assignment, {})


def _ratings_of(assignment: Assignment, rater: AbstractBaseUser, not_applicable: Collection[str]) -> list[Rating]:
    """The complete questionnaire's ratings, in its study: a score per item, and N/A (no
    score) for the items of the stages the trajectory lacks."""
    definition = assignment.study.rubric.definition
    ratings = []
    for item in definition.item_ids:
        rating = Rating(
            rubric=assignment.study.rubric,
            study=assignment.study,
            trajectory_id=assignment.trajectory_id,
            item=item,
            rater=rater.get_username(),
            source=Rating.Source.HUMAN,
        )
        if item not in not_applicable:
            answer = assignment.draft[item]
            rating.score = definition.kind.stored_score(
                answer["score"], unit=assignment.trajectory_id, shown_first=assignment.shown_first
            )
            rating.reason = str(answer["reason"]).strip()
            # a time the view would refuse (a draft saved before it did, say) counts as none
            rating.active_seconds = (whole_number(answer.get("active_ms"), low=0, high=ACTIVE_MS_MAX) or 0) / 1000
        ratings.append(rating)
    return ratings
