"""A seat taken or handed back over HTTP (the room's page, the API) does what a session's
``say`` does after its write (issue #34): the trial's sockets are told, each showing its
person out if they hold no seat any more, and the driver waits no longer for the seat."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.test import APIClient

from legalsim.roles import Role
from tests.trials.test_room import (
    connect,
    make_trial,
    stop_drivers,  # noqa: F401  (autouse: no driver outlives a test)
)
from tests.users import person
from trials.live import session

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def long_poll(monkeypatch):
    """A driver that asked a seat sleeps a minute unless woken: a turn that comes within
    the test's timeout came because something woke it."""
    monkeypatch.setattr(session, "POLL_S", 60.0)


async def shown_out(communicator: WebsocketCommunicator) -> tuple[dict, int]:
    """The last frame a socket was sent before it closed, and its close code."""
    last: dict = {}
    while True:
        output = await communicator.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return last, output["code"]
        last = {"text": output.get("text", "")}


async def frame_where(communicator: WebsocketCommunicator, wanted) -> dict:
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        if wanted(frame):
            return frame


@sync_to_async
def hand_back_on_the_page(trial_id: int, username: str, seat: str) -> int:
    client = Client()
    client.force_login(person(username, Role.STUDENT))
    return client.post(f"/trials/{trial_id}/leave/", {"seat": seat, "confirm": "yes"}).status_code


@sync_to_async
def take_over_by_api(trial_id: int, username: str, seat: str) -> int:
    client = APIClient()
    client.force_authenticate(person(username, Role.ADMIN))
    return client.post(f"/api/trials/{trial_id}/seats/", {"seat": seat}, format="json").status_code


async def test_a_seat_handed_back_on_the_page_is_played_by_an_agent_at_once():
    trial = await make_trial({"plaintiff_lawyer": "alice", "defendant_lawyer": "bob"})
    alice, bob = await connect(trial, "alice"), await connect(trial, "bob")
    asked = await frame_where(alice, lambda frame: frame["type"] == "await")
    assert asked["seat"] == "plaintiff_lawyer"

    assert await hand_back_on_the_page(trial.pk, "alice", "plaintiff_lawyer") == 302
    last, code = await shown_out(alice)
    assert code == 4403 and "not_your_seat" in last["text"]
    said = await frame_where(bob, lambda frame: frame["type"] == "turn.end" and frame["seq"] == asked["seq"])
    assert said["seat"] == "plaintiff_lawyer" and said["author"] == "agent"
    await bob.disconnect()


async def test_a_seat_taken_over_by_api_shows_its_holder_out_of_the_room():
    trial = await make_trial({"plaintiff_lawyer": "alice"})
    alice = await connect(trial, "alice")
    await frame_where(alice, lambda frame: frame["type"] == "await")

    assert await take_over_by_api(trial.pk, "root", "plaintiff_lawyer") == 200
    last, code = await shown_out(alice)
    assert code == 4403 and "not_your_seat" in last["text"]
