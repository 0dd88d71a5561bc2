"""Which stored trajectories may be rated in a study, and by whose choice (issue 32, item 6).

A trajectory of a private trial (people played in it: ``trials.access.trial_private``) holds
students' words. It may be put in a study only when the trial belongs to a course whose
instructors said so (``Course.practice_trials_in_studies``, off by default and shown to the
students), and only by those instructors (or an admin). A practice trial outside any course is
never rated. Imported trajectories and those of all-agent research trials are open to every
instructor, as before.

One rule, asked by every way into a study: the set-up form's picker and typed ids, the
``study_create`` command, the reference trajectories of ``study_gold``, planning and claiming
assignments, the rater's queue and questionnaire, and the LLM judge's runs. A trajectory
whose course withdraws its permission later leaves every queue and every run at once.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q, QuerySet

from annotation.models import Trajectory
from annotation.rubric_kind import Pair
from legalsim.roles import Ability, User, can
from trials.models import Seat


def _open() -> Q:
    """Imported trajectories, and those of trials nobody played in (research runs)."""
    played = Seat.objects.filter(user__isnull=False).values("trial_id")
    return Q(trial__isnull=True) | (Q(trial__live=False) & ~Q(trial_id__in=played))


def trajectories_for_studies(*, user: User | None = None) -> QuerySet[Trajectory]:
    """The trajectories that may be rated in a study; given ``user``, those that user may
    put in one. Without a user (a command run by the site's operator, a queue) a private
    trial's trajectory is allowed whenever its course allows it."""
    course_allows = Q(trial__course__practice_trials_in_studies=True)
    if user is not None:
        if not user.is_authenticated or not user.is_active or not can(user, Ability.TEACH):
            return Trajectory.objects.none()
        if not can(user, Ability.ADMINISTER):
            course_allows &= Q(trial__course__instructors=user)
    allowed = Trajectory.objects.filter(_open() | course_allows).values("pk")
    return Trajectory.objects.filter(pk__in=allowed)


def trajectories_refused(trajectory_ids: Iterable[str], *, user: User | None = None) -> set[str]:
    """The stored trajectories among ``trajectory_ids`` that may not be rated (by ``user``'s
    choice, given one); ids that are not stored are not among them."""
    wanted = set(trajectory_ids)
    if not wanted:
        return set()
    stored = set(Trajectory.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    allowed = set(trajectories_for_studies(user=user).filter(pk__in=stored).values_list("pk", flat=True))
    return stored - allowed


def units_refused(units: Iterable[str], *, user: User | None = None) -> set[str]:
    """The study units (trajectories, or pairs ``FIRST|SECOND``) with a trajectory that may not
    be rated."""
    units = list(units)
    parts = {unit: Pair.trajectories_named(unit) for unit in units}
    refused = trajectories_refused({tid for tids in parts.values() for tid in tids}, user=user)
    return {unit for unit, tids in parts.items() if refused.intersection(tids)}
