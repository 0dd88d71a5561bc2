"""Every route of the project, for every role: who gets the page, who the login page, a 403
or a 404. ROUTES names the ability each route needs; who may pass is computed from
``legalsim.roles.MATRIX``, so this test, the views and the README matrix cannot drift apart.

A route added to the project fails ``test_every_route_has_an_expectation`` until it gets an
entry here. API routes (``api/``) go in the same table through ``api_route``: they refuse
anonymous callers with 401/403 instead of sending them to the login page.
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.files.base import ContentFile
from django.db import connections
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, include, path, reverse
from django.utils import timezone

from annotation.models import Assignment, Job, Rating, Study
from annotation.rubric import pair_key
from annotation.services import trajectories_import
from annotation.studies import assignment_new
from classroom.models import Assignment as CourseAssignment
from classroom.models import TurnComment
from classroom.services import assignment_create, course_create, course_enrol
from legalsim.roles import MATRIX, Ability, Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials import driver
from trials.batches import batch_create
from trials.live import trial_create
from trials.models import Batch, Case, CaseDraft, Trial
from trials.routing import websocket_urlpatterns
from trials.services import cases_import

CASE = "en-civil-traffic-accident"
PUBLIC = "public"
"""Anyone, signed in or not."""
SIGNED_IN = "signed in"
"""Anyone signed in, whatever their roles."""
OK, LOGIN, FORBIDDEN, MISSING = "ok", "login page", "403", "404"
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
    "trials:trial_invite": Route(
        Ability.PLAY, args=trial_id, method="post", data={"seat": "no-such-seat", "username": "x"}, mine=SEATED
    ),
    "trials:trial_invitation": Route(Ability.PLAY, args=lambda world: [world.trial.pk, "forged"], mine=NOBODY),
    "trials:trial_transcript": Route(Ability.PLAY, args=trial_id, mine=SEATED),
    "trials:trial_scorecard": Route(Ability.PLAY, args=trial_id, mine=SEATED),
    "trials:my_scorecards": Route(Ability.PLAY),
    "trials:case_drafts": Route(Ability.TEACH),
    "trials:case_draft_new": Route(Ability.TEACH),
    "trials:case_draft": Route(Ability.TEACH, args=lambda world: [world.draft.pk], mine=AUTHORED),
    "trials:case_upload": Route(Ability.TEACH, method="post"),
    "trials:case_edit": Route(Ability.TEACH, args=lambda world: ["no-such-case"], method="post", mine=NOBODY),
    "trials:model_profile": Route(Ability.TEACH),
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
    "classroom:my_courses": Route(Ability.PLAY),
    "classroom:my_assignments": Route(Ability.PLAY),
    "classroom:assignment_start": Route(
        Ability.PLAY, args=lambda world: [world.assignment_of_course.pk], method="post", mine=ENROLLED
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

WHO: dict[str, tuple[Role, ...] | None] = {
    "anonymous": None,
    "no role": (),
    "student": (Role.STUDENT,),
    "unseated student": (Role.STUDENT,),
    "rater": (Role.RATER,),
    "instructor": (Role.INSTRUCTOR,),
    "course instructor": (Role.INSTRUCTOR,),
    "admin": (Role.ADMIN,),
}
OVERSEERS = ("course instructor", "admin")
"""Who reads every private trial of the world: its course's instructor and admins."""


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


def expected(route: Route, who: str) -> str:
    """What ``who`` must get, from the ability the route needs and MATRIX alone."""
    roles = WHO[who]
    if route.needs == PUBLIC:
        return OK
    if roles is None:
        return LOGIN
    if route.needs == SIGNED_IN:
        return OK
    abilities = frozenset().union(*(MATRIX[role] for role in roles))
    if route.needs not in abilities:
        return FORBIDDEN
    if route.mine == SEATED and who != "student" and who not in OVERSEERS:
        return MISSING
    if route.mine == NOBODY:
        return MISSING
    if route.mine == PARTICIPANT and who != "student":
        return MISSING
    if route.mine in (TAUGHT, AUTHORED) and who not in OVERSEERS:
        return MISSING
    if route.mine == ENROLLED and who != "student":
        return MISSING
    if route.mine == OWN_ASSIGNMENT and who != "rater":
        return MISSING
    return OK


def outcome(route: Route, response) -> str:
    status, location = response.status_code, response.get("Location", "")
    if status in (301, 302) and "/login/?next=" in location:
        return LOGIN
    if route.api and status == 401:
        return LOGIN
    if status == 403:
        return LOGIN if route.api and response.wsgi_request.user.is_anonymous else FORBIDDEN
    if status == 404:
        return MISSING
    if route.method == "get":
        return OK if status == route.ok else f"status {status}"
    return OK if status < 500 and status != 405 else f"status {status}"


@pytest.fixture
def world(settings, tmp_path, tasks_in_process) -> World:
    settings.MEDIA_ROOT = tmp_path
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    users = {who: person(who.replace(" ", "-"), *roles) for who, roles in WHO.items() if roles is not None}
    case = Case.objects.get(pk=CASE)
    course = course_create(slug="civ", title="Civil", instructor=users["course instructor"])
    course_enrol(course=course, usernames=["student"])
    trial = trial_create(case=case, humans={"plaintiff_lawyer": users["student"]}, stages=["LC"], course=course)
    turn = {"seq": 1, "phase": "p", "role": "judge", "side": "court", "speaker": "J", "author": "agent", "text": "t"}
    units = [{"id": f"traj-{n}", "case_id": CASE, "procedure": "civil", "language": "en", "title": "T"} for n in (1, 2)]
    trajectories = tmp_path / "trajectories.json"
    trajectories.write_text(json.dumps([{**unit, "stages": [{"stage": "FIT", "turns": [turn]}]} for unit in units]))
    trajectories_import(paths=[trajectories])
    study = Study.objects.create(name="s", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=["traj-1"])
    pairs = Study.objects.create(
        name="p", rubric_id="simcourt30", raters_per_trajectory=1, trajectory_ids=[pair_key("traj-1", "traj-2")]
    )
    for each in (study, pairs):
        each.raters.set([users["rater"]])
    job = Job.objects.create(
        kind=Job.Kind.RATINGS_EXPORT, rubric_id="legalworld16", study=study, status=Job.Status.DONE
    )
    job.file.save("ratings.csv", ContentFile(b"trajectory_id\n"))
    Rating.objects.bulk_create(
        Rating(rubric_id="legalworld16", trajectory_id="traj-1", item="FIT.process_coherence", score=score, **by)
        for score, by in ((6, {"rater": "someone", "source": "human"}), (7, {"rater": "judge-m", "source": "llm"}))
    )
    return World(
        users=users,
        case=case,
        trial=trial,
        study=study,
        assignment=assignment_new(study=study, unit="traj-1", rater=users["rater"]),
        pair_assignment=assignment_new(study=pairs, unit=pairs.trajectory_ids[0], rater=users["rater"]),
        job=job,
        batch=batch_create(cases=[case], split="full", concurrency=1, backend="scripted"),
        assignment_of_course=assignment_create(
            course=course, case=case, seats=["plaintiff_lawyer"], opens_at=timezone.now() + timedelta(days=1)
        ),
        comment=TurnComment.objects.create(trial=trial, seq=1, author=users["course instructor"], text="c"),
        draft=CaseDraft.objects.create(author=users["course instructor"], fields={"title": "A draft"}),
    )


def test_every_route_has_an_expectation():
    routes = project_routes()
    unknown_api = sorted(name for name, pattern in routes.items() if pattern.startswith("api/") and name not in ROUTES)
    assert not unknown_api, f"API routes with no declared ability in ROUTES (add an api_route entry): {unknown_api}"
    unknown = sorted(name for name in routes if name not in ROUTES and not name.startswith(f"{ADMIN_NAMESPACE}:"))
    assert not unknown, f"routes with no expectation in ROUTES: {unknown}"
    assert not set(ROUTES) - set(routes), (
        f"ROUTES names routes that no longer exist: {sorted(set(ROUTES) - set(routes))}"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("who", list(WHO))
def test_each_route_lets_in_exactly_whom_the_matrix_allows(who, world):
    client = Client()
    if WHO[who] is not None:
        client.force_login(world.users[who])
    table = {name: ROUTES[name] for name in project_routes() if name in ROUTES}
    table |= {name: Route(Ability.ADMINISTER) for name in ADMIN_SAMPLES}
    # GETs first: the POSTs below change nothing they read, but the logout ends the session.
    order = sorted(table, key=lambda name: (table[name].method != "get", name == "logout"))
    wrong = []
    for name in order:
        route = table[name]
        url = reverse(name, args=route.args(world))
        response = getattr(client, route.method)(url, route.data)
        want = expected(route, who)
        if name.startswith(f"{ADMIN_NAMESPACE}:") and want == FORBIDDEN:
            want = LOGIN
        got = outcome(route, response)
        if got != want:
            wrong.append(f"{route.method.upper()} {url} ({name}): expected {want}, got {got}")
    assert not wrong, f"{who}:\n" + "\n".join(wrong)


SOCKET: dict[str, tuple[str | None, int] | None] = {
    "anonymous": ("not_authenticated", 4401),
    "student": None,
    "unseated student": (None, 4404),
    "instructor": (None, 4404),
    "course instructor": None,
    "admin": None,
}
"""The room's socket of a private trial: who is refused with which error code and close code
(None: accepted; an error code None: closed without a word, as for a trial that does not
exist); an instructor of another course is refused like any non-participant."""


@pytest.fixture
async def stop_drivers(settings):
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 0
    yield
    await driver.stop_all()
    await database_sync_to_async(connections.close_all)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", list(SOCKET))
async def test_the_room_socket_admits_the_seated_and_the_overseers_only(who, stop_drivers):
    def setup() -> tuple[Trial, AbstractBaseUser | AnonymousUser]:
        cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
        student = person("student", Role.STUDENT)
        course = course_create(slug="civ", title="Civil", instructor=person("course-instructor", Role.INSTRUCTOR))
        trial = trial_create(
            case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": student}, stages=["LC"], course=course
        )
        roles = WHO[who]
        return trial, AnonymousUser() if roles is None else person(who.replace(" ", "-"), *roles)

    trial, user = await database_sync_to_async(setup)()
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/trials/{trial.pk}/")
    communicator.scope["user"] = user
    await communicator.connect()
    if SOCKET[who] is None:
        frame = await communicator.receive_json_from(timeout=10)
        assert frame["type"] != "error", frame
    else:
        code, close_code = SOCKET[who]
        if code is not None:
            frame = await communicator.receive_json_from(timeout=10)
            assert frame == {"type": "error", "code": code, "message": frame["message"]}
        assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": close_code}
    await communicator.disconnect()


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["trials:trial_join", "trials:trial_leave"])
def test_a_seat_form_for_a_missing_trial_is_a_404_not_a_server_error(client, name):
    client.force_login(person("student", Role.STUDENT))
    assert client.post(reverse(name, args=[999_999]), {"seat": "judge"}).status_code == 404


def test_an_api_route_without_a_declared_ability_fails_the_walk_by_name(settings, monkeypatch):
    urlconf = types.ModuleType("api_urlconf_example")
    urlconf.urlpatterns = [
        *get_resolver().url_patterns,
        path("api/", include(([path("novel/", lambda request: None, name="novel_resource")], "api"))),
    ]
    monkeypatch.setitem(sys.modules, urlconf.__name__, urlconf)
    settings.ROOT_URLCONF = urlconf.__name__
    with pytest.raises(AssertionError, match=r"API routes with no declared ability.*'api:novel_resource'"):
        test_every_route_has_an_expectation()
