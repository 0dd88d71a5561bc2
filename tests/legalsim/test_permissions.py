"""Every route of the project, for every role: who gets the page, who the login page, a 403
or a 404. ROUTES (``permission_routes.py``) names the ability each route needs; who may pass
is computed from ``legalsim.roles.MATRIX``, so this test, the views and the matrix in docs/roles.md
cannot drift apart.

A route added to the project fails ``test_every_route_has_an_expectation`` until it gets an
entry in ROUTES.
"""

from __future__ import annotations

import json
import sys
import types
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.files.base import ContentFile
from django.db import connections
from django.test import Client
from django.urls import get_resolver, include, path, reverse
from django.utils import timezone

from annotation.models import Job, Rating, Study
from annotation.rubric_kind import Pair
from annotation.services import trajectories_import
from annotation.studies import assignment_new
from arena.models import Comparison
from classroom.assignments import assignment_create
from classroom.models import RosterJob, TurnComment
from classroom.services import course_create, course_enrol
from legalsim.roles import MATRIX, Ability, Role
from tests.conftest import DEMO_CASES
from tests.legalsim.permission_routes import (
    ADMIN_NAMESPACE,
    ADMIN_SAMPLES,
    AUTHORED,
    ENROLLED,
    NOBODY,
    OWN_ASSIGNMENT,
    PARTICIPANT,
    PUBLIC,
    ROUTES,
    SEATED,
    SIGNED_IN,
    TAUGHT,
    Route,
    World,
    project_routes,
)
from tests.users import person
from trials.batches import batch_create
from trials.live import driver
from trials.models import Case, CaseDraft, Trial
from trials.routing import websocket_urlpatterns
from trials.services import cases_import, trial_create

CASE = "en-civil-traffic-accident"
OK, LOGIN, FORBIDDEN, MISSING = "ok", "login page", "403", "404"
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
    trial = trial_create(
        live=True, case=case, humans={"plaintiff_lawyer": users["student"]}, stages=["LC"], course=course
    )
    turn = {"seq": 1, "phase": "p", "role": "judge", "side": "court", "speaker": "J", "author": "agent", "text": "t"}
    units = [{"id": f"traj-{n}", "case_id": CASE, "procedure": "civil", "language": "en", "title": "T"} for n in (1, 2)]
    trajectories = tmp_path / "trajectories.json"
    trajectories.write_text(json.dumps([{**unit, "stages": [{"stage": "FIT", "turns": [turn]}]} for unit in units]))
    trajectories_import(paths=[trajectories])
    study = Study.objects.create(name="s", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=["traj-1"])
    pairs = Study.objects.create(
        name="p", rubric_id="simcourt30", raters_per_trajectory=1, trajectory_ids=[str(Pair("traj-1", "traj-2"))]
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
    comparison = Comparison.objects.create(name="c", rubric_id="simcourt30", owner=users["course instructor"])
    comparison.raters.set([users["rater"]])
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
        roster_job=RosterJob.objects.create(
            course=course, created_by=users["course instructor"], label="r.csv", status=RosterJob.Status.DONE
        ),
        comparison=comparison,
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
            live=True,
            case=Case.objects.get(pk=CASE),
            humans={"plaintiff_lawyer": student},
            stages=["LC"],
            course=course,
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
