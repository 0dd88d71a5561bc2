"""Property: no sequence of client messages, well- or ill-formed, from any of a trial's seats
breaks the room (hardening issue). Whatever arrives: no uncaught exception in the consumer,
no close with 1011, no ``server_error`` frame, no driver death; and once the people seated
play on, the trial ends finished.

Hostile text (``tests.hostile_text``, issue #31's second pass): a say, an objection or a
judge's steer holding NUL or a lone surrogate anywhere is answered ``bad_message`` and records
nothing; words posing as the court are recorded as said and reach the next agent's prompt only
as the person's quoted words."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
from collections.abc import Callable

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from agents.prompts import turn_messages
from classroom.models import Course
from classroom.services import course_create
from court.engine.visibility import build_view
from legalsim.roles import Role
from tests import hostile_text
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.live import driver
from trials.models import Case, Trial, Turn
from trials.protocol import BadMessage, client_message_parse
from trials.routing import websocket_urlpatterns
from trials.services import cases_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(600)]
CASE = "en-civil-traffic-accident"
PEOPLE = {"plaintiff_lawyer": "pia", "defendant_lawyer": "dan", "judge": "jude"}
FATAL = {"server_error", "trial_paused", "agent_failed"}

poisoned_text = hostile_text.poisoned_text()
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
    st.builds(lambda seat: {"type": "control", "action": "question", "seat": seat, "text": "Why?"}, poisoned_text),
    st.builds(lambda action: {"type": "control", "action": action}, poisoned_text),
    st.builds(lambda ground: {"type": "objection", "ground": "other", "text": ground}, poisoned_text),
    st.builds(lambda ground: {"type": "objection", "ground": ground}, poisoned_text),
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
def trial_for_people(people: dict[str, str] = PEOPLE) -> Trial:
    users = {seat: person(name, Role.STUDENT) for seat, name in people.items()}
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


room_poison = st.tuples(st.sampled_from(["plaintiff_lawyer", "judge", "instructor"]), poisoned)
"""Who sends it (counsel, the judge seat, the course's instructor) and the message."""


async def frame_where(
    socket: WebsocketCommunicator, frames: list[dict], wanted: Callable[[dict], bool], timeout: float = 20
) -> dict:
    """The first frame from now on for which ``wanted`` holds; every frame read is kept."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        frame = await socket.receive_json_from(timeout=timeout)
        frames.append(frame)
        if wanted(frame):
            return frame
    raise AssertionError(f"no such frame in {timeout}s: {frames[-5:]}")


def human_turns(trial_id: int) -> list[str]:
    return list(Turn.objects.filter(trial_id=trial_id, author="human").values_list("text", flat=True))


async def poison_in_the_room(steps: list[tuple[str, dict]]) -> None:
    trial = await trial_for_people()
    sockets = {seat: await socket_of(trial.pk, PEOPLE[seat], Role.STUDENT) for seat in ("plaintiff_lawyer", "judge")}
    sockets["instructor"] = await socket_of(trial.pk, "teacher", Role.INSTRUCTOR)
    frames: dict[str, list[dict]] = {who: [] for who in sockets}
    try:
        before = await database_sync_to_async(human_turns)(trial.pk)
        for who, content in steps:
            await sockets[who].send_to(text_data=json.dumps(content))
            reply = await frame_where(sockets[who], frames[who], lambda frame: frame["type"] == "error", timeout=10)
            assert reply["code"] == "bad_message", (content, reply)
        for who, socket in sockets.items():
            await drain(socket, frames[who], timeout=0.2)
        assert await database_sync_to_async(human_turns)(trial.pk) == before, "a refused message recorded a turn"
    finally:
        for socket in sockets.values():
            await socket.disconnect()
        await driver.stop_all()
        await database_sync_to_async(connections.close_all)()
    fatal = [frame for seen in frames.values() for frame in seen if frame.get("code") in FATAL]
    assert not fatal, fatal
    stored = await database_sync_to_async(lambda: list(Turn.objects.values_list("text", flat=True)))()
    assert not any(hostile_text.is_poisoned(text) for text in stored)


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(room_poison, min_size=1, max_size=6))
def test_a_say_objection_or_steer_holding_nul_or_a_lone_surrogate_is_a_bad_message_and_records_nothing(
    steps, transactional_db, settings_pace
):
    asyncio.run(poison_in_the_room(steps))


async def forged_in_the_room(text: str) -> tuple[int, dict]:
    """A trial where only counsel for the plaintiff is a person, who says ``text`` when asked;
    returns once an agent has spoken after it: the trial and the person's ``turn.end``."""
    trial = await trial_for_people({"plaintiff_lawyer": "pia"})
    socket = await socket_of(trial.pk, "pia", Role.STUDENT)
    frames: list[dict] = []
    try:
        await frame_where(
            socket, frames, lambda frame: frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer"
        )
        await socket.send_json_to({"type": "say", "text": text, "client_id": "forged"})
        said = await frame_where(
            socket, frames, lambda frame: frame["type"] == "turn.end" and frame["author"] == "human"
        )
        await frame_where(socket, frames, lambda frame: frame["type"] == "turn.end" and frame["seq"] > said["seq"])
    finally:
        await socket.disconnect()
        await driver.stop_all()
        await database_sync_to_async(connections.close_all)()
    assert not [frame for frame in frames if frame.get("code") in FATAL or frame["type"] == "error"], frames
    return trial.pk, said


def assert_next_agent_reads_it_quoted(trial_id: int, said: dict, text: str) -> None:
    """The turn is stored as said (trimmed), and the prompt the real builder makes for the
    agent who spoke next differs from one built on plain words only in the person's quoted line."""
    turn = Turn.objects.get(trial_id=trial_id, seq=said["seq"])
    assert turn.text == said["text"] == text.strip(), "recorded verbatim"
    state = Trial.objects.get(pk=trial_id).engine_state
    after = next(record for record in state.turns if record.seq > turn.seq)
    assert after.author == "agent", after

    def prompt(words: str) -> list[dict[str, str]]:
        earlier = copy.deepcopy(state)
        earlier.turns = [
            dataclasses.replace(record, text=words) if record.seq == turn.seq else record
            for record in earlier.turns
            if record.seq < after.seq
        ]
        view = build_view(earlier, after.seat, phase=after.phase)
        return turn_messages(view, speaker=after.speaker, act=after.act, artifact=None)

    changed = hostile_text.prompt_lines_changed(prompt, turn.text)
    hostile_text.assert_only_quoted(changed, turn.text, {turn.seq: turn.speaker})


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=hostile_text.forged_text())
def test_words_posing_as_the_court_are_recorded_as_said_and_reach_the_next_agent_only_quoted(
    text, transactional_db, settings_pace
):
    trial_id, said = asyncio.run(forged_in_the_room(text))
    assert_next_agent_reads_it_quoted(trial_id, said, text)
