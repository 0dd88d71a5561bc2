"""Every route of the project and what it takes to pass it: ``ROUTES`` names the ability
each route needs, the objects of the ``World`` its URL is built from, the data a POST carries
and, for a private object, whose it is (``mine``). The permission walk
(``test_permissions.py``) checks it against ``legalsim.roles.MATRIX``; the language and
text-input walks visit the same routes.

A route added to the project needs an entry here (``test_every_route_has_an_expectation``).
API routes (``api/``) go in the same table through ``api_route``: they refuse anonymous
callers with 401/403 instead of sending them to the login page.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.urls import URLPattern, URLResolver, get_resolver

from annotation.models import Assignment, Job, Study
from arena.models import Comparison
from classroom.models import Assignment as CourseAssignment
from classroom.models import RosterJob, TurnComment
from legalsim.roles import Ability
from trials.models import Batch, Case, CaseDraft, Trial

PUBLIC = "public"
"""Anyone, signed in or not."""
SIGNED_IN = "signed in"
"""Anyone signed in, whatever their roles."""
SEATED = "seated"
"""A private trial (``trials.access``): 404 for all but its seated student, its course's instructor and admins."""
TAUGHT = "taught"
"""404 for anyone but the course's instructor and admins."""
ENROLLED = "enrolled"
"""404 for anyone not enrolled in the course (the student is)."""
PARTICIPANT = "participant"
"""404 for anyone not seated in the trial, its overseers included (a student's reply)."""
NOBODY = "nobody"
"""404 for everyone: a forged invitation link."""
AUTHORED = "authored"
"""404 for anyone but the draft's author (the course's instructor) and admins."""
OWN_ASSIGNMENT = "own assignment"
"""404 for anyone but the rater the assignment (and study) belong to."""


@dataclass(frozen=True)
class World:
    """The objects the routes act on: a trial where the student holds a seat, a study where
    the rater has an assignment (and one of a pairwise study), a finished export job."""

    users: dict[str, AbstractBaseUser]
    case: Case
    trial: Trial
    study: Study
    assignment: Assignment
    pair_assignment: Assignment
    job: Job
    batch: Batch
    assignment_of_course: CourseAssignment
    """Not open yet: starting it is refused (400) for the student enrolled."""
    comment: TurnComment
    """The course instructor's comment on the trial (replying with no text is refused, 400)."""
    draft: CaseDraft
    """A case the course instructor is writing."""
    roster_job: RosterJob
    """A roster the course instructor uploaded (its links not downloaded yet)."""
    comparison: Comparison
    """An arena comparison the course instructor owns, the rater its rater (no pairs yet)."""


@dataclass(frozen=True)
class Route:
    needs: Ability | str
    args: Callable[[World], list[Any]] = lambda world: []
    method: str = "get"
    data: dict[str, Any] = field(default_factory=dict)
    mine: str | None = None
    ok: int = 200
    """The status a GET that passes answers; a POST that passes only has to be neither refused nor an error."""
    api: bool = False


def api_route(ability: Ability, **kwargs: Any) -> Route:
    """An API view's expectation: anonymous callers are refused (401/403), not redirected."""
    return Route(ability, api=True, **kwargs)


def trial_id(world: World) -> list[Any]:
    return [world.trial.pk]


def study_id(world: World) -> list[Any]:
    return [world.study.pk]


def assignment_id(world: World) -> list[Any]:
    return [world.assignment.pk]


def batch_id(world: World) -> list[Any]:
    return [world.batch.pk]


def comparison_id(world: World) -> list[Any]:
    return [world.comparison.pk]


def course_slug(world: World) -> list[Any]:
    return [world.trial.course.slug]


def grade_cell(world: World) -> list[Any]:
    """The gradebook cell of the enrolled student on the course's assignment."""
    return [world.trial.course.slug, world.assignment_of_course.pk, world.users["student"].pk]


# POSTs carry data that is refused as a bad request or changes nothing another check reads.
ROUTES: dict[str, Route] = {
    "login": Route(PUBLIC),
    "logout": Route(PUBLIC, method="post"),
    "accounts:language_choose": Route(PUBLIC, method="post", data={"language": "no-such-language"}),
    "password_change": Route(SIGNED_IN),
    "password_change_done": Route(SIGNED_IN),
    "password_reset": Route(PUBLIC),
    "password_reset_done": Route(PUBLIC),
    "password_reset_confirm": Route(PUBLIC, args=lambda world: ["MQ", "not-a-token"]),
    "password_reset_complete": Route(PUBLIC),
    "trials:home": Route(SIGNED_IN, ok=302),
    "trials:case_library": Route(Ability.PLAY),
    "trials:case_detail": Route(Ability.PLAY, args=lambda world: [world.case.pk]),
    "trials:trial_play": Route(
        Ability.PLAY, args=lambda world: [world.case.pk], method="post", data={"stage": "no-such-stage"}
    ),
    "trials:trial_room": Route(Ability.PLAY, args=trial_id, mine=SEATED),
    "trials:trial_join": Route(Ability.PLAY, args=trial_id, method="post", data={"seat": "no-such-seat"}, mine=SEATED),
    "trials:trial_leave": Route(Ability.PLAY, args=trial_id, method="post", data={"seat": "no-such-seat"}, mine=SEATED),
    "arena:comparison_list": Route(Ability.RATE),
    "arena:comparison_new": Route(Ability.TEACH),
    "arena:comparison": Route(Ability.TEACH, args=comparison_id, mine=TAUGHT),
    "arena:comparison_judge": Route(Ability.TEACH, args=comparison_id, method="post", mine=TAUGHT),
    "arena:comparison_export": Route(Ability.TEACH, args=lambda world: [world.comparison.pk, "csv"], mine=TAUGHT),
    "arena:vote": Route(Ability.RATE, args=comparison_id, mine=OWN_ASSIGNMENT),
    "trials:trial_retake": Route(
        Ability.PLAY, args=trial_id, method="post", data={"seat": "no-such-seat"}, mine=SEATED
    ),
    "trials:trial_invite": Route(
        Ability.PLAY, args=trial_id, method="post", data={"seat": "no-such-seat", "username": "x"}, mine=SEATED
    ),
    "trials:trial_invitation": Route(Ability.PLAY, args=lambda world: [world.trial.pk, "forged"], mine=NOBODY),
    "trials:trial_transcript": Route(Ability.PLAY, args=trial_id, mine=SEATED),
    "scoring:trial_scorecard": Route(Ability.PLAY, args=trial_id, mine=SEATED),
    "scoring:my_scorecards": Route(Ability.PLAY),
    "trials:case_drafts": Route(Ability.TEACH),
    "trials:case_draft_new": Route(Ability.TEACH),
    "trials:case_draft": Route(Ability.TEACH, args=lambda world: [world.draft.pk], mine=AUTHORED),
    "trials:case_upload": Route(Ability.TEACH, method="post"),
    "trials:case_edit": Route(Ability.TEACH, args=lambda world: ["no-such-case"], method="post", mine=NOBODY),
    "scoring:model_profile": Route(Ability.TEACH),
    "trials:skill_notes": Route(Ability.TEACH),
    "trials:skill_note_edit": Route(Ability.TEACH, args=lambda world: [999999], mine=NOBODY),
    "trials:skill_note_delete": Route(Ability.TEACH, args=lambda world: [999999], method="post", mine=NOBODY),
    "trials:batches": Route(Ability.TEACH),
    "trials:batch": Route(Ability.TEACH, args=batch_id),
    "trials:batch_progress": Route(Ability.TEACH, args=batch_id),
    "classroom:courses": Route(Ability.TEACH),
    "classroom:course": Route(Ability.TEACH, args=course_slug, mine=TAUGHT),
    "classroom:course_enrol": Route(
        Ability.TEACH, args=course_slug, method="post", data={"usernames": "nobody-here"}, mine=TAUGHT
    ),
    "classroom:course_roster": Route(Ability.TEACH, args=course_slug, method="post", mine=TAUGHT),
    "classroom:roster_job": Route(Ability.TEACH, args=lambda w: [w.trial.course.slug, w.roster_job.pk], mine=TAUGHT),
    "classroom:roster_links": Route(
        Ability.TEACH, args=lambda w: [w.trial.course.slug, w.roster_job.pk], method="post", mine=TAUGHT
    ),
    "classroom:course_invite_code": Route(Ability.TEACH, args=course_slug, method="post", mine=TAUGHT),
    "classroom:course_instructor_add": Route(
        Ability.TEACH, args=course_slug, method="post", data={"username": "nobody-here"}, mine=TAUGHT
    ),
    "classroom:assignment_create": Route(
        Ability.TEACH, args=course_slug, method="post", data={"case": "no-such-case"}, mine=TAUGHT
    ),
    "classroom:assignment_pairs": Route(
        Ability.TEACH,
        args=lambda world: [world.assignment_of_course.course.slug, world.assignment_of_course.pk],
        method="post",
        data={"first": "nobody-here", "second": "nobody-either"},
        mine=TAUGHT,
    ),
    "classroom:class_view": Route(
        Ability.TEACH,
        args=lambda world: [world.assignment_of_course.course.slug, world.assignment_of_course.pk],
        mine=TAUGHT,
    ),
    "classroom:gradebook": Route(Ability.TEACH, args=course_slug, mine=TAUGHT),
    "classroom:gradebook_attempt": Route(
        Ability.TEACH, args=course_slug, method="post", data={"attempt": "no-such-choice"}, mine=TAUGHT
    ),
    "classroom:grade_save": Route(
        Ability.TEACH, args=grade_cell, method="post", data={"grade": "not-a-number"}, mine=TAUGHT
    ),
    "classroom:gradebook_download": Route(Ability.TEACH, args=lambda w: [w.trial.course.slug, "csv"], mine=TAUGHT),
    "classroom:comment_add": Route(
        Ability.TEACH, args=trial_id, method="post", data={"seq": "not-a-turn", "text": "x"}, mine=SEATED
    ),
    "classroom:feedback": Route(Ability.PLAY),
    "classroom:comment_reply": Route(
        Ability.PLAY, args=lambda world: [world.comment.pk], method="post", data={"text": ""}, mine=PARTICIPANT
    ),
    "classroom:course_unenrol": Route(
        Ability.TEACH, args=lambda world: [world.trial.course.slug, world.users["student"].pk], mine=TAUGHT
    ),
    "classroom:assignment_edit": Route(
        Ability.TEACH,
        args=lambda world: [world.assignment_of_course.course.slug, world.assignment_of_course.pk],
        mine=TAUGHT,
    ),
    "classroom:assignment_delete": Route(
        Ability.TEACH,
        args=lambda world: [world.assignment_of_course.course.slug, world.assignment_of_course.pk],
        mine=TAUGHT,
    ),
    "classroom:assignment_extension": Route(
        Ability.TEACH,
        args=lambda world: [world.assignment_of_course.course.slug, world.assignment_of_course.pk],
        method="post",
        data={"student": ""},
        mine=TAUGHT,
    ),
    "classroom:grades_release": Route(
        Ability.TEACH,
        args=lambda world: [world.assignment_of_course.course.slug, world.assignment_of_course.pk],
        method="post",
        mine=TAUGHT,
    ),
    "classroom:my_assignment": Route(Ability.PLAY, args=lambda world: [world.assignment_of_course.pk], mine=ENROLLED),
    "classroom:my_courses": Route(Ability.PLAY),
    "classroom:my_assignments": Route(Ability.PLAY),
    "classroom:assignment_start": Route(
        Ability.PLAY, args=lambda world: [world.assignment_of_course.pk], method="post", mine=ENROLLED
    ),
    "annotation:course_practice_trials": Route(
        Ability.TEACH, args=lambda world: [world.trial.course.slug], method="post", data={"allowed": "0"}, mine=TAUGHT
    ),
    "annotation:rater_queue": Route(Ability.RATE),
    "annotation:assignment_next": Route(Ability.RATE, args=study_id, method="post", mine=OWN_ASSIGNMENT),
    "annotation:assignment": Route(Ability.RATE, args=assignment_id, mine=OWN_ASSIGNMENT),
    "annotation:assignment_stage": Route(Ability.RATE, args=lambda w: [w.assignment.pk, 0], mine=OWN_ASSIGNMENT),
    "annotation:assignment_pair_stage": Route(
        Ability.RATE, args=lambda world: [world.pair_assignment.pk, "A", 0], mine=OWN_ASSIGNMENT
    ),
    "annotation:assignment_draft": Route(Ability.RATE, args=assignment_id, method="post", mine=OWN_ASSIGNMENT),
    "annotation:assignment_submit": Route(Ability.RATE, args=assignment_id, method="post", mine=OWN_ASSIGNMENT),
    "annotation:training_feedback": Route(Ability.RATE, args=assignment_id, mine=NOBODY),  # not a training one
    "annotation:study_list": Route(Ability.TEACH),
    "annotation:study_dashboard": Route(Ability.TEACH, args=study_id),
    "annotation:study_jobs": Route(Ability.TEACH, args=study_id),
    "annotation:study_report": Route(Ability.TEACH, args=study_id),
    "annotation:study_judge": Route(Ability.TEACH, args=study_id, method="post", data={"model": "m"}),
    "annotation:study_quality": Route(Ability.TEACH, args=study_id, method="post"),
    "annotation:adjudication_queue": Route(Ability.TEACH, args=study_id),
    "annotation:adjudication_item": Route(Ability.TEACH, args=lambda w: [w.study.pk, "LC.process_coherence", "traj-1"]),
    "annotation:study_export": Route(
        Ability.TEACH, args=study_id, method="post", data={"kind": "ratings_export", "layout": "long"}
    ),
    "annotation:study_new": Route(Ability.TEACH),
    "annotation:study_instructions": Route(Ability.RATE, args=study_id),  # its raters and whoever teaches
    "annotation:job": Route(Ability.TEACH, args=lambda w: [w.job.pk]),
    "annotation:job_progress": Route(Ability.TEACH, args=lambda w: [w.job.pk]),
    "annotation:job_download": Route(Ability.TEACH, args=lambda w: [w.job.pk]),
    "api:token": api_route(PUBLIC, method="post", data={"username": "nobody", "password": "wrong"}),
    "api:schema": api_route(PUBLIC),
    "api:docs": api_route(PUBLIC),
    "api:redoc": api_route(PUBLIC),
    "api:case_list": api_route(Ability.PLAY),
    "api:case_detail": api_route(Ability.PLAY, args=lambda world: [world.case.pk]),
    "api:case_import": api_route(Ability.TEACH, method="post"),
    "api:trial_list": api_route(Ability.PLAY),
    "api:trial_detail": api_route(Ability.PLAY, args=trial_id, mine=SEATED),
    "api:trial_seats": api_route(
        Ability.PLAY, args=trial_id, method="post", data={"seat": "no-such-seat"}, mine=SEATED
    ),
    "api:trial_seat": api_route(
        Ability.PLAY, args=lambda world: [world.trial.pk, "no_such_seat"], method="delete", mine=SEATED
    ),
    "api:trial_transcript": api_route(Ability.PLAY, args=trial_id, mine=SEATED),
    "api:trajectory_list": api_route(Ability.TEACH),
    "api:trajectory_detail": api_route(Ability.TEACH, args=lambda world: ["traj-1"]),
    "api:study_list": api_route(Ability.TEACH),
    "api:study_detail": api_route(Ability.TEACH, args=study_id),
    "api:rater_study_list": api_route(Ability.RATE),
    "api:study_claim": api_route(Ability.RATE, args=study_id, method="post", mine=OWN_ASSIGNMENT),
    "api:assignment_list": api_route(Ability.RATE),
    "api:assignment_detail": api_route(Ability.RATE, args=assignment_id, mine=OWN_ASSIGNMENT),
    "api:assignment_draft": api_route(Ability.RATE, args=assignment_id, method="put", mine=OWN_ASSIGNMENT),
    "api:rating_submit": api_route(Ability.RATE, method="post", data={"assignment": 0, "answers": {}}),
    "api:agreement_report": api_route(Ability.TEACH, data={"rubric": "legalworld16"}),
    "api:arena_comparisons": api_route(Ability.TEACH),
    "api:arena_leaderboard": api_route(Ability.TEACH, args=comparison_id, mine=TAUGHT),
    "api:arena_next": api_route(Ability.RATE, args=comparison_id, mine=OWN_ASSIGNMENT, ok=204),
    "api:arena_votes": api_route(Ability.RATE, args=comparison_id, method="post", data={}, mine=OWN_ASSIGNMENT),
}

ADMIN_NAMESPACE = "admin"
"""Every route of Django's admin needs ``administer``; its site sends everyone else to its own
login page. Checked on the index and some changelists (users, studies, cases, trials)."""
ADMIN_SAMPLES = (
    "admin:index",
    "admin:auth_user_changelist",
    "admin:annotation_study_changelist",
    "admin:trials_case_changelist",
    "admin:trials_trial_changelist",
)


def project_routes(patterns: list | None = None, namespace: str = "", prefix: str = "") -> dict[str, str]:
    """Every named route of the project (namespaced name -> path pattern), walked recursively."""
    routes: dict[str, str] = {}
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(filter(None, [namespace, pattern.namespace]))
            routes |= project_routes(pattern.url_patterns, inner, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            name = pattern.name or prefix + str(pattern.pattern)
            routes[f"{namespace}:{name}" if namespace else name] = prefix + str(pattern.pattern)
    return routes
