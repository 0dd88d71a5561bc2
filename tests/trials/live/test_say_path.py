"""A student's ``say`` goes from their socket to the other seats' screens through each module
of the room once (issue #34), traced call by call (``tracing``) from the sending socket's
``receive`` to the other socket's ``send``, in the event loop and in the worker thread that
writes.

What is counted: the room's modules, the stations a message passes through: the socket's
receiving half (``trials.consumers``), the live package (the session, its write, the fan-out,
the socket's sending half ``trials.live.feed``) and the channel layer. The modules a station
consults and that return to it (the protocol's parser and frame constructors, the engine and
procedures the write applies, the models and store, the access rules, the sign-in check) are
recorded too, but a visit to them is work done inside the station that called them: the engine
is called a dozen times by one write. What matters is that the message never goes back to a
station it passed: a write that calls back into the session, a socket that asks the room's
rules who hears a frame, a fan-out through the consumer.

The sending and the receiving socket are one consumer class, but its two halves are two modules:
the path starts in ``trials.consumers`` (``receive``) and ends in ``trials.live.feed`` (the
other socket's ``dispatch``, which hands the frame to its client), so a path that re-entered the
consumer on its way (as it did while the consumer also sent frames) would be counted twice.
"""

from __future__ import annotations

import asyncio
import textwrap
from types import FrameType, SimpleNamespace

import pytest

from tests.trials.live.tracing import traced
from tests.trials.test_room import (
    connect,
    make_trial,
    stop_drivers,  # noqa: F401  (autouse: no driver outlives a test)
)

pytestmark = pytest.mark.django_db(transaction=True)
SAID = "Your Honour, the defendant ran the red light: the plaintiff's submission."
ROOM = ("trials.consumers", "trials.live", "legalsim.channel_layers")
"""The room's stations."""


def in_room(module: str) -> bool:
    return any(module == station or module.startswith(f"{station}.") for station in ROOM)


def said_by_alice_heard_by_bob(frame: FrameType) -> bool:
    """The roots: alice's socket receiving the say, bob's socket given the frame that tells it."""
    name, local = frame.f_code.co_name, frame.f_locals
    if name == "receive" and frame.f_globals["__name__"] == "trials.consumers":
        return SAID in (local.get("text_data") or "")
    if name == "dispatch" and frame.f_globals["__name__"] == "trials.live.feed":
        message = local.get("message") or {}
        return SAID in str(message.get("frame", {}).get("text")) and local["self"].user.get_username() == "bob"
    return False


async def frame_where(communicator, wanted) -> dict:
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        if wanted(frame):
            return frame


async def test_a_say_reaches_the_other_seat_through_each_module_of_the_room_once():
    with traced(said_by_alice_heard_by_bob) as trace:
        trial = await make_trial({"plaintiff_lawyer": "alice", "defendant_lawyer": "bob"})
        alice, bob = await connect(trial, "alice"), await connect(trial, "bob")
        asked = await frame_where(alice, lambda frame: frame["type"] == "await")
        assert asked["seat"] == "plaintiff_lawyer"
        await alice.send_json_to({"type": "say", "text": SAID, "client_id": "alice-1"})
        heard = await frame_where(bob, lambda frame: frame["type"] == "turn.end" and frame["seq"] == asked["seq"])
    await alice.disconnect()
    await bob.disconnect()

    assert heard["text"] == SAID and heard["seat"] == "plaintiff_lawyer"
    assert trace.visits(in_room) == [
        "trials.consumers",
        "trials.live.session",
        "trials.live.services",
        "trials.live.fanout",
        "legalsim.channel_layers",
        "trials.live.feed",
    ]
    assert trace.entered_twice(in_room) == []
    modules = trace.visits()
    fanned_out = modules.index("trials.live.fanout")
    assert set(modules[fanned_out:]) <= {*trace.visits(in_room)[-3:], "trials.protocol"}, (
        "the other socket hears by the audience its sender computed: it consults neither the rules nor the store"
    )
    written = modules.index("trials.live.services")
    assert all(written < index < fanned_out for index, module in enumerate(modules) if module.startswith("court.")), (
        "the engine is applied by the write alone"
    )


def probe_module(name: str, source: str, **names: object) -> SimpleNamespace:
    """A module of the project's as a profiler sees one: code whose globals are named ``name``."""
    namespace: dict = {"__name__": name, **names}
    exec(compile(textwrap.dedent(source), f"<{name}>", "exec"), namespace)
    return SimpleNamespace(**namespace)


def probe_room(write_calls_back: bool) -> SimpleNamespace:
    """socket -> session -> store (in a worker thread) -> fanout, the write calling back into
    the session when ``write_calls_back``; a driver task does session work meanwhile."""
    session = probe_module(
        "trials.probe_session",
        """
        import asyncio

        def remember():
            return 1

        async def say(store, fanout):
            await asyncio.to_thread(store.write)
            await asyncio.sleep(0.01)
            return fanout.send()
        """,
    )
    fanout = probe_module("trials.probe_fanout", "def send():\n    return 2\n")
    store = probe_module(
        "trials.probe_store",
        f"def write():\n    return session.remember() if {write_calls_back} else 3\n",
        session=session,
    )
    driver = probe_module(
        "trials.probe_driver",
        """
        import asyncio

        async def drive(session):
            for _ in range(5):
                session.remember()
                await asyncio.sleep(0.002)
        """,
    )
    socket = probe_module(
        "trials.probe_socket",
        "async def handle(session, store, fanout):\n    return await session.say(store, fanout)\n",
    )
    return SimpleNamespace(socket=socket, session=session, store=store, fanout=fanout, driver=driver)


def probe_root(frame: FrameType) -> bool:
    return frame.f_code.co_name == "handle"


@pytest.mark.parametrize("write_calls_back", [False, True])
async def test_the_trace_counts_a_module_entered_again_across_a_thread_and_only_the_roots_work(write_calls_back):
    """Not vacuous: a write that calls back into the session, in the worker thread the session
    handed it to, enters the session twice; a coroutine that resumes after waiting enters
    nothing, and the driver's session calls at the same time are not the traced path's."""
    room = probe_room(write_calls_back)
    with traced(probe_root) as trace:
        driving = asyncio.create_task(room.driver.drive(room.session))
        assert await room.socket.handle(room.session, room.store, room.fanout) == 2
        await driving
    store_visit = ["trials.probe_store", "trials.probe_session"] if write_calls_back else ["trials.probe_store"]
    assert trace.visits() == ["trials.probe_socket", "trials.probe_session", *store_visit, "trials.probe_fanout"]
    assert trace.entered_twice() == (["trials.probe_session"] if write_calls_back else [])
