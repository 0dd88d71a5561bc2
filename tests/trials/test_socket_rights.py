"""A socket keeps only the rights its person still holds (issue #44 item 11): an instructor
taken off a course mid-watch, or with every role revoked, stopped being one when the socket
connected, not when the rights went. Rights are re-read on every message and on every change
of a person's roles or courses, and a socket left with neither seat nor oversight closes
(4403). Embedded defaults (the in-memory channel layer); run on PostgreSQL as well."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from api.websocket import websocket_auth_stack
from classroom.models import Course
from classroom.services import course_create
from legalsim.roles import Role, role_revoke
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.trials.test_room import stop_drivers  # noqa: F401  (autouse: no driver outlives a test)
from tests.users import person
from trials.live import feed
from trials.live.fanout import broadcast
from trials.models import Case, Trial
from trials.routing import websocket_urlpatterns
from trials.services import cases_import

pytestmark = pytest.mark.django_db(transaction=True)
CASE = "en-civil-traffic-accident"


def course_trial(slug: str, instructor) -> Trial:
    """A FIT hearing of the course ``slug`` taught by ``instructor``, waiting for a student."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    course = course_create(slug=slug, title=slug.title(), instructor=instructor)
    student = person(f"student-{slug}", Role.STUDENT)
    case = Case.objects.get(pk=CASE)
    return prepared_trial(case=case, humans={"plaintiff_lawyer": student}, stages=["FIT"], course=course)


@database_sync_to_async
def watched(username: str = "prof") -> tuple[Trial, str]:
    """A trial of the course ``torts`` that ``username`` teaches, and their API token."""
    teacher = person(username, Role.INSTRUCTOR)
    return course_trial("torts", teacher), Token.objects.get_or_create(user=teacher)[0].key


async def token_socket(trial: Trial, token: str) -> WebsocketCommunicator:
    """The room's socket as a script opens it, through the site's websocket stack."""
    return WebsocketCommunicator(
        websocket_auth_stack(URLRouter(websocket_urlpatterns)),
        f"/ws/trials/{trial.pk}/",
        headers=[(b"authorization", f"Token {token}".encode())],
    )


async def watching(trial: Trial, token: str) -> WebsocketCommunicator:
    """An overseer's socket that has been sent the trial so far, up to its ``await``."""
    socket = await token_socket(trial, token)
    connected, _ = await socket.connect()
    assert connected
    frame = await socket.receive_json_from(timeout=10)
    while frame["type"] != "await":
        frame = await socket.receive_json_from(timeout=10)
    return socket


async def frames_until_closed(socket: WebsocketCommunicator) -> AsyncIterator[dict]:
    """The outputs the socket sends next without being spoken to, up to its close."""
    while not await socket.receive_nothing(timeout=3):
        output = await socket.receive_output()
        yield output
        if output["type"] == "websocket.close":
            return


async def close_after_notice(socket: WebsocketCommunicator) -> tuple[int | None, list[str]]:
    """The close code the socket ends with (None: it stays open) and the error codes before it."""
    errors: list[str] = []
    async for output in frames_until_closed(socket):
        if output["type"] == "websocket.close":
            return output.get("code"), errors
        if '"type": "error"' in output.get("text", ""):
            errors.append(output["text"])
    return None, errors


@database_sync_to_async
def taken_off_course(username: str, slug: str = "torts") -> None:
    Course.objects.get(slug=slug).instructors.remove(get_user_model().objects.get(username=username))


@database_sync_to_async
def roles_revoked(username: str) -> None:
    user = get_user_model().objects.get(username=username)
    for role in Role:
        role_revoke(user, role)


@database_sync_to_async
def roles_revoked_unnoticed(username: str) -> None:
    """Every role taken by a write no signal reports: only the per-message check can know."""
    get_user_model().groups.through.objects.filter(user__username=username).delete()


@database_sync_to_async
def status_of(trial: Trial) -> str:
    return Trial.objects.get(pk=trial.pk).status


@pytest.mark.parametrize("taken", [taken_off_course, roles_revoked], ids=["off-the-course", "roles-revoked"])
async def test_an_instructor_losing_the_course_mid_watch_is_closed_and_hears_no_more(taken):
    trial, token = await watched()
    socket = await watching(trial, token)
    await taken("prof")
    code, errors = await close_after_notice(socket)
    assert code == 4403
    assert len(errors) == 1 and "no longer oversee" in errors[0]
    await socket.disconnect()


@pytest.mark.parametrize(
    "message",
    [{"type": "control", "action": "pause"}, {"type": "control", "action": "advance"}],
    ids=["pause", "advance"],
)
async def test_a_control_from_an_instructor_whose_roles_went_unnoticed_is_not_carried_out(message):
    trial, token = await watched()
    socket = await watching(trial, token)
    await roles_revoked_unnoticed("prof")
    assert await socket.receive_nothing(timeout=1), "no notice: the socket is still open"
    await socket.send_json_to(message)
    code, _errors = await close_after_notice(socket)
    assert code == 4403
    assert await status_of(trial) == Trial.Status.WAITING
    await socket.disconnect()


async def test_a_change_no_notice_reported_closes_the_socket_while_frames_flow(monkeypatch):
    """Without a notice (a write without signals; on SQLite, a change made in another process)
    the socket still re-reads its rights now and then as frames arrive, not only when its
    client speaks."""
    monkeypatch.setattr(feed, "RIGHTS_RECHECK_S", 0.0)
    trial, token = await watched()
    socket = await watching(trial, token)
    await roles_revoked_unnoticed("prof")
    await broadcast(trial.pk, {"type": "control", "action": "pause", "by": "judge"})
    code, errors = await close_after_notice(socket)
    assert code == 4403
    assert len(errors) == 1 and "no longer oversee" in errors[0]
    await socket.disconnect()


async def test_with_every_role_revoked_a_token_socket_to_another_course_is_refused():
    """The attack: taken off one course and stripped of every role, the person is still listed
    among another course's instructors; a new token socket to that course's trial was accepted
    and its ``pause`` carried out."""
    trial, token = await watched()
    await database_sync_to_async(course_trial)("contracts", await database_sync_to_async(person)("prof"))
    await taken_off_course("prof", "contracts")
    await roles_revoked("prof")
    socket = await token_socket(trial, token)
    connected, _ = await socket.connect()
    assert connected
    code, _errors = await close_after_notice(socket)
    assert code == 4404, "as for a trial that does not exist"
    await socket.send_json_to({"type": "control", "action": "pause"})
    assert await status_of(trial) != Trial.Status.PAUSED
    await socket.disconnect()


async def test_a_student_stripped_of_every_role_no_longer_plays_their_seat():
    """As the room's page (play ability) refuses them, so does the socket of a seat they hold."""
    trial, _ = await watched()

    @database_sync_to_async
    def student_token() -> str:
        return Token.objects.get_or_create(user=person("student-torts"))[0].key

    socket = await watching(trial, await student_token())
    await roles_revoked_unnoticed("student-torts")
    await socket.send_json_to({"type": "say", "text": "Still counsel?", "client_id": "late"})
    code, _errors = await close_after_notice(socket)
    assert code == 4403
    human = await database_sync_to_async(lambda: list(Trial.objects.get(pk=trial.pk).turns.filter(author="human")))()
    assert human == []
    await socket.disconnect()


async def test_an_admin_whose_superuser_flag_is_cleared_is_closed():
    trial, _ = await watched()

    @database_sync_to_async
    def root_token() -> str:
        root = get_user_model().objects.create_superuser("root", password="a-pass-phrase-9")
        return Token.objects.create(user=root).key

    socket = await watching(trial, await root_token())

    @database_sync_to_async
    def flag_cleared() -> None:
        root = get_user_model().objects.get(username="root")
        root.is_superuser = False
        root.save()

    await flag_cleared()
    code, _errors = await close_after_notice(socket)
    assert code == 4403
    await socket.disconnect()


async def test_an_instructor_who_keeps_the_course_keeps_watching():
    """A change that leaves the rights on this trial (another course's instructors) closes nothing."""
    trial, token = await watched()
    socket = await watching(trial, token)

    @database_sync_to_async
    def another_course_loses_a_colleague() -> None:
        colleague = person("colleague", Role.INSTRUCTOR)
        course = course_create(slug="family", title="Family", instructor=colleague)
        course.instructors.add(get_user_model().objects.get(username="prof"))
        course.instructors.remove(colleague)
        course.instructors.clear()

    await another_course_loses_a_colleague()
    code, errors = await close_after_notice(socket)
    assert (code, errors) == (None, [])
    await socket.send_json_to({"type": "control", "action": "pause"})
    assert [output async for output in frames_until_closed(socket) if '"control"' in output.get("text", "")]
    assert await status_of(trial) == Trial.Status.PAUSED
    await socket.disconnect()
