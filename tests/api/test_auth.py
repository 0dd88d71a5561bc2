"""Tokens: obtaining one, using it over HTTP, and on the trial room's websocket."""

from __future__ import annotations

import io

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import call_command
from django.db import connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.live import driver
from trials.models import Case, Trial
from trials.services import cases_import

CASE = "en-civil-traffic-accident"


@pytest.mark.django_db
def test_a_user_exchanges_their_password_for_a_token_that_authenticates_requests():
    person("student", Role.STUDENT, password="a-long-password-1")
    client = APIClient()
    refused = client.post("/api/token/", {"username": "student", "password": "wrong"}, format="json")
    assert refused.status_code == 400 and "token" not in refused.json()
    response = client.post("/api/token/", {"username": "student", "password": "a-long-password-1"}, format="json")
    assert response.status_code == 200
    key = response.json()["token"]
    assert client.get("/api/cases/").status_code == 401
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert client.get("/api/cases/").status_code == 200
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
    assert client.get("/api/cases/").status_code == 401


@pytest.mark.django_db
def test_guessing_passwords_is_throttled(settings):
    person("student", Role.STUDENT, password="a-long-password-1")
    client = APIClient()
    codes = [
        client.post("/api/token/", {"username": "student", "password": f"guess{n}"}, format="json").status_code
        for n in range(12)
    ]
    assert codes[:10] == [400] * 10
    assert codes[10:] == [429, 429]


@pytest.mark.django_db
def test_the_api_token_command_prints_a_working_token_and_reset_revokes_it():
    person("student", Role.STUDENT)
    out = io.StringIO()
    call_command("api_token", "student", stdout=out)
    first = out.getvalue().strip()
    assert Token.objects.get(user__username="student").key == first
    out = io.StringIO()
    call_command("api_token", "student", "--reset", stdout=out)
    assert out.getvalue().strip() != first
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    assert client.get("/api/cases/").status_code == 401


@pytest.mark.django_db
def test_the_browsable_api_accepts_a_session_login(client):
    person("student", Role.STUDENT, password="a-long-password-1")
    client.login(username="student", password="a-long-password-1")
    assert client.get("/api/cases/", HTTP_ACCEPT="text/html").status_code == 200


@pytest.mark.django_db
def test_the_schema_and_docs_are_served():
    client = APIClient()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    assert "/api/trials/{trial_id}/transcript/" in schema.json()["paths"]
    assert client.get("/api/docs/").status_code == 200
    assert client.get("/api/redoc/").status_code == 200


# The websocket, through the real ASGI application (origin check and auth stack included).


@pytest.fixture
async def trial(settings, transactional_db):
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 0

    def make() -> tuple[Trial, str, str]:
        cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
        student = person("student", Role.STUDENT, password="a-long-password-1")
        created = prepared_trial(case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": student}, stages=["FIT"])
        stranger = person("stranger", Role.STUDENT)
        return created, Token.objects.create(user=student).key, Token.objects.create(user=stranger).key

    made = await database_sync_to_async(make)()
    yield made
    await driver.stop_all()
    await database_sync_to_async(connections.close_all)()


async def open_socket(path: str, headers: list[tuple[bytes, bytes]]) -> tuple[WebsocketCommunicator, bool]:
    from legalsim.asgi import application

    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


async def first_frames_until_await(communicator: WebsocketCommunicator) -> dict:
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        if frame["type"] in ("await", "error"):
            return frame


@pytest.mark.django_db(transaction=True)
async def test_a_token_in_the_header_opens_the_socket_without_an_origin(trial):
    created, key, _ = trial
    communicator, connected = await open_socket(
        f"/ws/trials/{created.pk}/", [(b"authorization", f"Token {key}".encode())]
    )
    assert connected
    frame = await first_frames_until_await(communicator)
    assert frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer"
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_token_in_the_query_string_opens_the_socket(trial):
    created, key, _ = trial
    communicator, connected = await open_socket(f"/ws/trials/{created.pk}/?token={key}&after_seq=0", [])
    assert connected
    assert (await first_frames_until_await(communicator))["seat"] == "plaintiff_lawyer"
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_token_speaks_for_its_own_user_only(trial):
    created, _, stranger_key = trial
    communicator, connected = await open_socket(f"/ws/trials/{created.pk}/?token={stranger_key}", [])
    assert connected
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4404}


@pytest.mark.django_db(transaction=True)
async def test_a_bad_token_is_anonymous_even_with_a_valid_session_cookie(trial, client):
    created, _, _ = trial
    await database_sync_to_async(client.login)(username="student", password="a-long-password-1")
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator, connected = await open_socket(
        f"/ws/trials/{created.pk}/?token=forged", [(b"cookie", cookie), (b"origin", b"http://evil.example")]
    )
    assert connected
    assert (await communicator.receive_json_from(timeout=5))["code"] == "not_authenticated"
    assert (await communicator.receive_output(timeout=5))["code"] == 4401


@pytest.mark.django_db(transaction=True)
async def test_cookie_connections_stay_origin_checked(trial, client):
    created, _, _ = trial
    await database_sync_to_async(client.login)(username="student", password="a-long-password-1")
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    for headers in ([cookie], [cookie, (b"origin", b"http://evil.example")]):
        communicator, connected = await open_socket(f"/ws/trials/{created.pk}/", headers)
        assert not connected, headers
    communicator, connected = await open_socket(
        f"/ws/trials/{created.pk}/", [cookie, (b"origin", b"http://127.0.0.1:8000")]
    )
    assert connected
    assert (await first_frames_until_await(communicator))["seat"] == "plaintiff_lawyer"
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path, headers",
    [
        ("?token=a%00b", []),
        ("?token=a%ED%A0%80b", []),
        ("", [(b"authorization", b"Token a\x00b")]),
        ("", [(b"cookie", b'sessionid="abcdefgh\\000ijkl"'), (b"origin", b"http://127.0.0.1:8000")]),
    ],
    ids=["nul-query-token", "broken-utf8-query-token", "nul-header-token", "nul-session-cookie"],
)
async def test_a_handshake_carrying_nul_is_anonymous_not_an_error(trial, path, headers):
    """The site's text rule (legalsim/text_input.py) on the socket's credentials: a token or
    session key holding NUL never reaches the database (PostgreSQL would raise)."""
    created, _, _ = trial
    communicator, connected = await open_socket(f"/ws/trials/{created.pk}/{path}", headers)
    assert connected
    assert (await communicator.receive_json_from(timeout=5))["code"] == "not_authenticated"
    assert (await communicator.receive_output(timeout=5))["code"] == 4401


def test_the_http_api_treats_a_token_holding_nul_as_no_token(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token a\x00b")
    assert client.get("/api/cases/").status_code == 401
