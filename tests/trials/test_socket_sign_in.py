"""A trial socket outlives no sign-in (issue #31 item 3): a password changed in another session
or a person made inactive closes the sockets opened before with 4401, as signing out does,
and a message arriving before the notice is refused the same way. Embedded defaults (the
in-memory channel layer); tests/trials/test_consumers.py and test_socket_sign_in_processes.py
cover daphne and two processes sharing Redis."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.forms import CheckboxInput, MultiWidget, SelectMultiple
from django.test import Client
from django.urls import reverse

from classroom.services import set_password_path
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.servers import session_key_for
from tests.trials.prepared import prepared_trial
from tests.trials.test_room import stop_drivers  # noqa: F401  (autouse: no driver outlives a test)
from tests.users import person
from trials.models import Case, Trial
from trials.routing import websocket_urlpatterns
from trials.services import cases_import

pytestmark = pytest.mark.django_db(transaction=True)
CASE = "en-civil-traffic-accident"
PASSWORD = "an-old-pass-phrase-3"
NEW_PASSWORD = "a-new-pass-phrase-7"


@database_sync_to_async
def seated(username: str = "paula") -> tuple[Trial, str]:
    """A FIT hearing waiting for ``username`` as plaintiff's counsel, and a session of theirs."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    user = person(username, Role.STUDENT, password=PASSWORD)
    trial = prepared_trial(case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": user}, stages=["FIT"])
    return trial, session_key_for(user)


async def socket_of(trial: Trial, session_key: str | None, username: str = "paula") -> WebsocketCommunicator:
    """The room's socket as the session stack opens it: the session's person and the session."""
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/trials/{trial.pk}/")
    communicator.scope["user"] = await database_sync_to_async(get_user_model().objects.get)(username=username)
    communicator.scope["session"] = SessionStore(session_key)
    connected, _ = await communicator.connect()
    assert connected
    frame = await communicator.receive_json_from(timeout=10)
    while frame["type"] != "await":
        frame = await communicator.receive_json_from(timeout=10)
    return communicator


async def close_code(communicator: WebsocketCommunicator) -> int | None:
    """The close code the socket sends next without being spoken to, or None if it stays open."""
    while True:
        if await communicator.receive_nothing(timeout=2):
            return None
        output = await communicator.receive_output()
        if output["type"] == "websocket.close":
            return output.get("code")
        if '"not_authenticated"' in output.get("text", ""):
            assert "sign in again" in output["text"]


@database_sync_to_async
def password_changed_in_another_session(username: str = "paula") -> None:
    browser = Client()
    assert browser.login(username=username, password=PASSWORD)
    change = {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    assert browser.post(reverse("password_change"), change).status_code == 302


async def test_a_password_changed_in_another_session_closes_the_socket():
    trial, key = await seated()
    socket = await socket_of(trial, key)
    await password_changed_in_another_session()
    assert await close_code(socket) == 4401


@database_sync_to_async
def password_set_through_the_link(username: str = "paula") -> None:
    """The set-password link an instructor hands out (``classroom.services.set_password_path``)."""
    browser = Client()
    form = browser.get(set_password_path(get_user_model().objects.get(username=username)), follow=True)
    assert form.status_code == 200
    set_password = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    assert browser.post(form.redirect_chain[-1][0], set_password).status_code == 302


async def test_a_password_set_through_the_set_password_link_closes_the_socket():
    trial, key = await seated()
    socket = await socket_of(trial, key)
    await password_set_through_the_link()
    assert await close_code(socket) == 4401


@database_sync_to_async
def admin_saves(username: str, **changes) -> None:
    """An admin submits the person's page in the Django admin with ``changes`` (``is_active``)."""
    admin = Client()
    admin.force_login(person("root", Role.ADMIN))
    user = get_user_model().objects.get(username=username)
    page = admin.get(reverse("admin:auth_user_change", args=[user.pk]))
    data = {**form_data(page.context["adminform"].form), **changes}
    response = admin.post(reverse("admin:auth_user_change", args=[user.pk]), data)
    assert response.status_code == 302, response.context["adminform"].form.errors


def form_data(form) -> dict:
    """What a browser posts back for ``form`` left as it is."""
    data: dict = {}
    for bound in form:
        value, widget = bound.value(), bound.field.widget
        if bound.field.disabled or value is None:
            continue
        if isinstance(widget, MultiWidget):
            data |= {f"{bound.html_name}_{i}": part or "" for i, part in enumerate(widget.decompress(value))}
        elif isinstance(widget, SelectMultiple):
            data[bound.html_name] = [str(item) for item in value]
        elif isinstance(widget, CheckboxInput):
            if value:
                data[bound.html_name] = "on"
        else:
            data[bound.html_name] = value
    return data


async def test_a_person_made_inactive_in_the_admin_loses_their_sockets():
    trial, key = await seated()
    socket = await socket_of(trial, key)
    await admin_saves("paula", is_active="")
    assert await close_code(socket) == 4401


async def test_the_admin_setting_a_password_closes_the_socket():
    trial, key = await seated()
    socket = await socket_of(trial, key)

    @database_sync_to_async
    def admin_sets_password() -> None:
        admin = Client()
        admin.force_login(person("root", Role.ADMIN))
        user = get_user_model().objects.get(username="paula")
        url = reverse("admin:auth_user_password_change", args=[user.pk])
        response = admin.post(url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"})
        assert response.status_code == 302, response.context and response.context["form"].errors

    await admin_sets_password()
    assert await close_code(socket) == 4401


async def test_saving_a_person_without_touching_their_sign_in_keeps_their_sockets():
    """The check is asked only when the password or the active flag changed, and a sign-in
    that holds keeps its socket: an admin's edit of the name, a sign-in elsewhere."""
    trial, key = await seated()
    socket = await socket_of(trial, key)
    await admin_saves("paula", first_name="Paula")
    await database_sync_to_async(session_key_for)(await database_sync_to_async(person)("paula"))
    assert await close_code(socket) is None
    await socket.send_json_to({"type": "resume", "after_seq": 0})
    assert (await socket.receive_json_from(timeout=10))["type"] in ("turn.start", "turn.end")
    await socket.disconnect()


def unsignalled(username: str, **fields) -> None:
    """A change no signal reports (``QuerySet.update``): the notice is missed."""
    get_user_model().objects.filter(username=username).update(**fields)


def recorded(trial: Trial) -> list[str]:
    return list(Trial.objects.get(pk=trial.pk).turns.filter(author="human").values_list("text", flat=True))


@pytest.mark.parametrize(
    "message",
    [
        {"type": "say", "text": "Still counsel?", "client_id": "late"},
        {"type": "control", "action": "pause"},
        {"type": "objection", "ground": "leading"},
    ],
    ids=["say", "control", "objection"],
)
@pytest.mark.parametrize(
    "change",
    [{"is_active": False}, {"password": "pbkdf2_sha256$1$salt$changed="}],
    ids=["made-inactive", "password-changed"],
)
async def test_a_message_whose_sign_in_ended_unnoticed_is_refused_and_closes(message, change):
    """The per-message check: whatever the notice did not reach, nothing is recorded for a
    person whose sign-in no longer holds."""
    trial, key = await seated()
    socket = await socket_of(trial, key)
    await database_sync_to_async(unsignalled)("paula", **change)
    await socket.send_json_to(message)
    assert await close_code(socket) == 4401
    assert await database_sync_to_async(recorded)(trial) == []
    status = (await database_sync_to_async(Trial.objects.get)(pk=trial.pk)).status
    assert status != Trial.Status.PAUSED


async def test_a_token_socket_of_a_person_made_inactive_closes():
    """A socket without a session of the person's (token auth) holds while they are active."""
    trial, _ = await seated()
    socket = await socket_of(trial, None)
    await admin_saves("paula", is_active="")
    assert await close_code(socket) == 4401
