"""A websocket message over daphne's 1 MiB limit, over a real socket to a real daphne process
(issue #44 item 15): the server closes with 1009 "message too big" and says the limit, where it
used to drop the connection without a close code (1006); the trial and the next socket go on."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from websockets.frames import Close

from tests.conftest import DEMO_CASES
from tests.servers import daphne
from tests.trials.test_consumers import CASE, Socket, live_trial, open_socket
from trials.services import cases_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]
LIMIT = 1024 * 1024
"""daphne's --websocket-max-message-size and --websocket-max-frame-size, as shipped."""


@pytest.fixture
def server(django_db_setup, transactional_db, tmp_path):
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    with daphne(tmp_path / "daphne.log") as port:
        yield port


def say_of(size: int) -> str:
    """A ``say`` whose JSON is exactly ``size`` bytes."""
    frame = json.dumps({"type": "say", "text": ""})
    return json.dumps({"type": "say", "text": "x" * (size - len(frame))})


async def close_frame_of(ws) -> Close | None:
    """The close frame the server sent (None: the connection was dropped without one)."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), timeout=20)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd


async def test_a_message_over_the_limit_is_closed_with_1009_and_the_limit(server):
    trial, keys = await live_trial({"plaintiff_lawyer": "pat"})
    async with open_socket(server, trial.pk, keys["pat"]) as raw:
        await raw.send(say_of(LIMIT + 1))
        close = await close_frame_of(raw)
    assert close is not None, "dropped without a close frame"
    assert close.code == 1009
    assert str(LIMIT) in close.reason and "exceeds" in close.reason

    async with open_socket(server, trial.pk, keys["pat"]) as raw:
        student = Socket(raw)
        await student.next(lambda frame: frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer")


async def test_a_message_at_the_limit_is_read_and_refused_as_too_long(server):
    trial, keys = await live_trial({"plaintiff_lawyer": "pat"})
    async with open_socket(server, trial.pk, keys["pat"]) as raw:
        student = Socket(raw)
        await student.send(say_of(LIMIT))
        refused = await student.error("bad_message")
        assert "text" in refused["message"]
