"""Property: no sequence of client messages, well- or ill-formed, from any of a trial's seats
breaks the room (hardening issue). Whatever arrives: no uncaught exception in the consumer,
no close with 1011, no ``server_error`` frame, no driver death; and once the people seated
play on, the trial ends finished."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from classroom.models import Course
from classroom.services import course_create
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials import driver
from trials.models import Case, Trial, Turn
from trials.protocol import BadMessage, client_message_parse
from trials.routing import websocket_urlpatterns
from trials.services import cases_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
CASE = "en-civil-traffic-accident"
PEOPLE = {"plaintiff_lawyer": "pia", "defendant_lawyer": "dan", "judge": "jude"}
FATAL = {"server_error", "trial_paused", "agent_failed"}

FORBIDDEN = st.sampled_from(["\x00", "\ud800", "\udfff"]) | st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
poisoned_text = st.builds(
    lambda before, bad, after: before + bad + after, st.text(max_size=8), FORBIDDEN, st.text(max_size=8)
)
"""Text holding NUL or an unpaired surrogate (legalsim.text_input's rule): always ``bad_message``."""
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20) | poisoned_text,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=8,
)
well_formed = st.one_of(
    st.builds(
        lambda text, cid, decision: {"type": "say", "text": text, "client_id": cid, "decision": decision},
        st.text(max_size=60),
        st.text(max_size=10),
        st.sampled_from(["accept", "decline"]),
    ),
    st.builds(lambda seq: {"type": "resume", "after_seq": seq}, st.integers(min_value=0, max_value=200)),
    st.builds(
        lambda action, seat, text: {"type": "control", "action": action, "seat": seat, "text": text},
        st.sampled_from(["pause", "resume", "advance", "mediation", "pronounce", "question", "fly"]),
        st.sampled_from(["plaintiff_lawyer", "defendant_client", "judge", "stenographer", "None_client", ""]),
        st.text(max_size=30),
    ),
    st.builds(lambda ground: {"type": "objection", "ground": ground}, st.text(max_size=30)),
)
ill_formed = st.one_of(
    st.dictionaries(
        st.sampled_from(["type", "text", "after_seq", "action", "seat", "sections", "client_id", "decision"]),
        json_values,
        max_size=4,
    ),
    st.builds(
        lambda kind, extra: {"type": kind, **extra},
        st.sampled_from(["say", "resume", "control"]),
        st.dictionaries(
            st.sampled_from(["text", "after_seq", "action", "sections", "decision", "client_id"]),
            json_values,
            max_size=3,
        ),
    ),
    json_values,
)
poisoned = st.one_of(
    st.builds(lambda text: {"type": "say", "text": text, "client_id": "p"}, poisoned_text),
    st.builds(lambda cid: {"type": "say", "text": "fine", "client_id": cid}, poisoned_text),
    st.builds(
        lambda key, value: {"type": "say", "text": "", "sections": {key: value}}, poisoned_text, st.text(max_size=5)
    ),
    st.builds(lambda text: {"type": "control", "action": "question", "seat": "judge", "text": text}, poisoned_text),
    st.builds(lambda ground: {"type": "objection", "ground": "other", "text": ground}, poisoned_text),
    st.builds(lambda key: {"type": "resume", "after_seq": 0, key: 1}, poisoned_text),
)
"""Every message type with the poison in a value, a section id or an extra key."""
raw_frames = st.one_of(
    st.text(min_size=1, max_size=40).map(lambda text: ("text", text)),
    st.binary(min_size=1, max_size=20).map(lambda data: ("bytes", data)),
)
message = st.one_of(
    well_formed.map(lambda m: ("json", m)),
    ill_formed.map(lambda m: ("json", m)),
    poisoned.map(lambda m: ("json", m)),
    raw_frames,
)
script = st.lists(st.tuples(st.sampled_from([*PEOPLE, "instructor"]), message), min_size=1, max_size=12)


@database_sync_to_async
def trial_for_people() -> Trial:
    users = {seat: person(name, Role.STUDENT) for seat, name in PEOPLE.items()}
    course = Course.objects.filter(slug="room").first() or course_create(
        slug="room", title="Room", instructor=person("teacher", Role.INSTRUCTOR)
    )
    return prepared_trial(case=Case.objects.get(pk=CASE), humans=users, stages=["FIT"], course=course)


async def socket_of(trial_id: int, username: str, role: Role) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/trials/{trial_id}/")
    communicator.scope["user"] = await database_sync_to_async(person)(username, role)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def drain(socket: WebsocketCommunicator, frames: list[dict], timeout: float = 0.05) -> None:
    """Everything the server has sent so far; a close must not be 1011."""
    while not await socket.receive_nothing(timeout=timeout):
        output = await socket.receive_output()
        if output["type"] == "websocket.close":
            assert output.get("code") != 1011, "the socket closed with an internal error"
            frames.append({"type": "closed", "code": output.get("code")})
            return
        frames.append(json.loads(output["text"]))


async def send(socket: WebsocketCommunicator, kind: str, payload) -> None:
    if kind == "json":
        await socket.send_to(text_data=json.dumps(payload))
    elif kind == "text":
        await socket.send_to(text_data=payload)
    else:
        await socket.send_to(bytes_data=payload)


async def scenario(steps: list[tuple[str, tuple[str, object]]]) -> None:
    trial = await trial_for_people()
    sockets = {seat: await socket_of(trial.pk, name, Role.STUDENT) for seat, name in PEOPLE.items()}
    sockets["instructor"] = await socket_of(trial.pk, "teacher", Role.INSTRUCTOR)
    frames: dict[str, list[dict]] = {who: [] for who in sockets}
    try:
        for who, (kind, payload) in steps:
            await send(sockets[who], kind, payload)
            for other, socket in sockets.items():
                await drain(socket, frames[other], timeout=0.01)
        await play_to_the_end(trial.pk, sockets, frames)
    finally:
        for socket in sockets.values():
            await socket.disconnect()
        await driver.stop_all()
        await database_sync_to_async(connections.close_all)()
    fatal = [frame for seen in frames.values() for frame in seen if frame.get("code") in FATAL]
    assert not fatal, fatal
    row = await database_sync_to_async(Trial.objects.get)(pk=trial.pk)
    assert row.status == Trial.Status.FINISHED, (row.status, row.pause_reason)


async def play_to_the_end(trial_id: int, sockets: dict, frames: dict, budget_s: float = 60.0) -> None:
    """The people seated play on: the judge resumes the trial if the script paused it, and
    every seat answers what it is asked until the end frame."""
    judge = sockets["judge"]
    await judge.send_json_to({"type": "control", "action": "resume"})
    loop = asyncio.get_running_loop()
    deadline, answered = loop.time() + budget_s, set()
    while loop.time() < deadline:
        for who, socket in sockets.items():
            seen = len(frames[who])
            await drain(socket, frames[who])
            for frame in frames[who][seen:]:
                if frame["type"] == "end":
                    return
                if frame["type"] == "await" and frame["seat"] == who and frame["seq"] not in answered:
                    answered.add(frame["seq"])
                    await socket.send_json_to(
                        {
                            "type": "say",
                            "text": f"{who} answers.",
                            "client_id": f"end-{frame['seq']}",
                            "decision": "decline",
                        }
                    )
        await asyncio.sleep(0.05)
    raise AssertionError("the trial did not end")


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: a failure prints its script as found
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(steps=script)
def test_no_sequence_of_client_messages_breaks_a_trial(steps, transactional_db, settings_pace):
    asyncio.run(scenario(steps))


@pytest.fixture
def settings_pace(settings):
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 0
    settings.LEGALSIM_OBJECTION_GRACE_S = 0
    if not Case.objects.filter(pk=CASE).exists():
        cases_import(paths=[DEMO_CASES / f"{CASE}.json"])


@given(content=poisoned)
def test_any_message_carrying_nul_or_a_lone_surrogate_is_a_bad_message(content):
    with pytest.raises(BadMessage, match=r"NUL|surrogate"):
        client_message_parse(json.dumps(content))


async def poisoned_says() -> list[dict]:
    trial = await trial_for_people()
    socket = await socket_of(trial.pk, "pia", Role.STUDENT)
    frames: list[dict] = []
    try:
        await drain(socket, frames, timeout=0.5)
        seen = len(frames)
        for text in ("\ud800", "a\u0000b"):
            await socket.send_to(text_data=json.dumps({"type": "say", "text": text, "client_id": text}))
            await drain(socket, frames, timeout=0.5)
    finally:
        await socket.disconnect()
        await driver.stop_all()
        await database_sync_to_async(connections.close_all)()
    return [frame for frame in frames[seen:] if frame["type"] == "error"]


def test_a_say_holding_a_lone_surrogate_or_nul_is_refused_as_bad_message(transactional_db, settings_pace):
    errors = asyncio.run(poisoned_says())
    assert [frame["code"] for frame in errors] == ["bad_message", "bad_message"], errors
    texts = Turn.objects.values_list("text", flat=True)
    assert not any("\x00" in text or "\ud800" in text for text in texts)
