"""The room's socket under hostile input (hardening issue), over a real socket to a real
daphne process: nothing a client sends may wedge a trial, close the socket with 1011, or keep
rights the person no longer has."""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from http.cookiejar import CookieJar

import pytest
import websockets
from asgiref.sync import sync_to_async
from django.contrib.sessions.models import Session
from rest_framework.authtoken.models import Token

from classroom.models import Course
from classroom.services import course_create
from court.engine.state import TrialState
from legalsim.roles import Role
from tests.browser import CHROMIUM, chromium_start, page_logged_in
from tests.celery_mode import celery_eager
from tests.conftest import DEMO_CASES
from tests.servers import daphne, session_key_for
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.models import Case, Trial
from trials.preparation import trial_prepare
from trials.services import cases_import, trial_create, trial_simulate

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]
CASE = "en-civil-traffic-accident"
WAIT_S = 20.0


@pytest.fixture(scope="module")
def daphne_port(django_db_setup, django_db_blocker, tmp_path_factory):
    """One daphne for the module, its scripted agents speaking at 30 tokens a second so that
    statements stream."""
    with daphne(tmp_path_factory.mktemp("daphne") / "daphne.log", LEGALSIM_SCRIPTED_TOKENS_PER_S="30") as port:
        yield port


@pytest.fixture
def server(daphne_port, transactional_db):
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    return daphne_port


class Socket:
    """A person's socket to the room: frames as they come, and what closed it."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.frames: list[dict] = []

    async def next(self, wanted: Callable[[dict], bool], timeout: float = WAIT_S) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout=max(0.1, deadline - time.monotonic())))
            self.frames.append(frame)
            if wanted(frame):
                return frame

    async def error(self, code: str = "bad_message") -> dict:
        frame = await self.next(lambda frame: frame["type"] == "error")
        assert frame["code"] == code, frame
        return frame

    async def send(self, message) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def closed_with(self, timeout: float = WAIT_S) -> int:
        try:
            await self.next(lambda frame: False, timeout=timeout)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code
        raise AssertionError("the socket stayed open")


def open_socket(port: int, trial_id: int, session_key: str, query: str = ""):
    url = f"ws://127.0.0.1:{port}/ws/trials/{trial_id}/{query}"
    headers = {"Cookie": f"sessionid={session_key}", "Origin": f"http://127.0.0.1:{port}"}
    return websockets.connect(url, additional_headers=headers, open_timeout=10, close_timeout=1, max_size=2**22)


@sync_to_async
def live_trial(
    humans: dict[str, str], stages: list[str] | None = None, target_side: str | None = None
) -> tuple[Trial, dict[str, str]]:
    """A trial with ``humans`` (seat -> username, students) and the session key of each person."""
    users = {seat: person(name, Role.STUDENT) for seat, name in humans.items()}
    trial = prepared_trial(
        case=Case.objects.get(pk=CASE), humans=users, stages=stages, course=teachers_course(), target_side=target_side
    )
    return trial, {name: session_key_for(users[seat]) for seat, name in humans.items()}


def teachers_course() -> Course:
    """The course "teacher" (``instructor_session``) teaches: its trials are theirs to oversee."""
    course = Course.objects.filter(slug="room").first()
    return course or course_create(slug="room", title="Room", instructor=person("teacher", Role.INSTRUCTOR))


@sync_to_async
def instructor_session() -> str:
    return session_key_for(person("teacher", Role.INSTRUCTOR))


@sync_to_async
def trial_row(trial_id: int) -> Trial:
    return Trial.objects.get(pk=trial_id)


async def test_an_objection_outside_a_hearing_is_refused_and_the_trial_goes_on(server):
    """Hardening #1: the defendant's counsel objected during the plaintiff's consultation (LC),
    which they cannot even hear; the driver died and every later connection got 1011."""
    trial, keys = await live_trial({"defendant_lawyer": "dana"}, target_side="plaintiff")
    async with open_socket(server, trial.pk, await instructor_session()) as raw:
        teacher = Socket(raw)
        start = await teacher.next(lambda frame: frame["type"] == "turn.start" and frame["stage"] == "LC")
        async with open_socket(server, trial.pk, keys["dana"]) as student_raw:
            student = Socket(student_raw)
            await student.send({"type": "objection", "ground": "x"})
            refused = await student.error("not_your_turn")
            assert "hearing" in refused["message"]
        after = await teacher.next(lambda frame: frame["type"] == "turn.end" and frame["seq"] > start["seq"])
        assert "Objection" not in after["text"]
    async with open_socket(server, trial.pk, await instructor_session()) as raw:
        again = Socket(raw)
        await again.next(lambda frame: frame["type"] == "turn.end")
    row = await trial_row(trial.pk)
    assert row.status != Trial.Status.PAUSED and not any(turn.act == "object" for turn in row.engine_state.turns)


async def test_the_other_side_hears_nothing_of_a_consultation_its_lawyer_can_watch(server):
    """Each frame carries the seats that hear it, decided once by its sender: the plaintiff's
    consultation streams to the plaintiff's lawyer and the instructor, and the defendant's
    lawyer, in the room at the same time, receives none of its words (live or replayed)."""
    trial, keys = await live_trial({"plaintiff_lawyer": "pat", "defendant_lawyer": "dana"}, target_side="plaintiff")
    async with (
        open_socket(server, trial.pk, keys["pat"]) as pat_raw,
        open_socket(server, trial.pk, keys["dana"]) as dana_raw,
    ):
        pat, dana = Socket(pat_raw), Socket(dana_raw)
        told = await pat.next(lambda frame: frame["type"] == "turn.end" and frame["stage"] == "LC")
        await pat.next(lambda frame: frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer")
        await dana.next(lambda frame: frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer")
        assert any(frame["type"] == "turn.delta" for frame in pat.frames)
        assert not [frame for frame in dana.frames if frame["type"].startswith("turn.")]
    async with open_socket(server, trial.pk, keys["dana"]) as dana_raw:
        again = Socket(dana_raw)
        await again.next(lambda frame: frame["type"] == "await")
        assert not [frame for frame in again.frames if frame["type"].startswith("turn.")]
    async with open_socket(server, trial.pk, await instructor_session()) as raw:
        teacher = Socket(raw)
        assert (await teacher.next(lambda frame: frame["type"] == "turn.end"))["text"] == told["text"]


async def test_counsel_objects_during_the_other_sides_statement_in_a_hearing(server):
    trial, keys = await live_trial({"defendant_lawyer": "dana"}, stages=["FIT"])
    async with open_socket(server, trial.pk, keys["dana"]) as raw:
        student = Socket(raw)
        await student.next(lambda frame: frame["type"] == "turn.start" and frame["side"] == "plaintiff")
        await student.send({"type": "objection", "ground": "leading"})
        objection = await student.next(
            lambda frame: frame["type"] == "turn.end" and frame["seat"] == "defendant_lawyer"
        )
        assert objection["text"] == "Objection: leading question."
        ruling = await student.next(lambda frame: frame["type"] == "turn.end" and frame["seat"] == "judge")
        assert ruling["seq"] == objection["seq"] + 1


async def test_a_driver_that_fails_leaves_the_trial_paused_with_its_reason_and_it_resumes(server):
    """Whatever breaks inside a driver (here: the state the objection bug used to leave, a
    ruling pending in a consultation) pauses the trial with a reason; sockets stay usable and
    the trial resumes once the cause is gone."""
    trial, _ = await live_trial({"defendant_lawyer": "dana"})
    state = trial.engine_state
    state.pending.append({"seat": "judge", "act": "rule_objection"})
    await sync_to_async(Trial.objects.filter(pk=trial.pk).update)(state=state.to_dict())
    async with open_socket(server, trial.pk, await instructor_session()) as raw:
        teacher = Socket(raw)
        paused = await teacher.error("trial_paused")
        assert "resume" in paused["message"]
        row = await trial_row(trial.pk)
        assert row.status == Trial.Status.PAUSED and row.pause_reason == paused["message"]
        for _ in range(50):
            if not (await trial_row(trial.pk)).driver:
                break
            await asyncio.sleep(0.1)
        assert (await trial_row(trial.pk)).driver == "", "the stopped driver handed its lease back at once"
    async with open_socket(server, trial.pk, await instructor_session()) as raw:
        teacher = Socket(raw)
        state = TrialState.from_dict(row.state)
        state.pending.clear()
        await sync_to_async(Trial.objects.filter(pk=trial.pk).update)(state=state.to_dict())
        await teacher.send({"type": "control", "action": "resume"})
        await teacher.next(lambda frame: frame["type"] == "turn.start")
        assert (await trial_row(trial.pk)).pause_reason == ""


MALFORMED = [
    ("not json at all", "not valid JSON"),
    (b"\x00\x01binary", "binary"),
    ("[1]", "JSON object"),
    ({"type": "resume", "after_seq": "abc"}, "after_seq"),
    ({"type": "resume", "after_seq": [1]}, "after_seq"),
    ({"type": "resume", "after_seq": {}}, "after_seq"),
    ({"type": "resume", "after_seq": -3}, "after_seq"),
    ({"type": "say", "text": ["a"]}, "text"),
    ({"type": "say", "text": "x" * 950_000, "client_id": "huge"}, "limited to"),
    ({"type": "say", "text": "ok", "client_id": "c" * 5000}, "client_id"),
    ({"type": "control", "action": 7}, "action"),
    ({"type": "dance"}, "expected a say"),
    ("[" * 5000 + "]" * 5000, "JSON"),
]


async def test_malformed_input_gets_bad_message_and_the_socket_stays_open(server):
    """Hardening #5: each of these closed the socket with 1011 (and a 0.95 MB say was stored)."""
    trial, keys = await live_trial({"plaintiff_lawyer": "paul"}, stages=["FIT"])
    async with open_socket(server, trial.pk, keys["paul"]) as raw:
        student = Socket(raw)
        for message, why in MALFORMED:
            await student.send(message)
            error = await student.error()
            assert why in error["message"], (message, error)
        await student.send({"type": "resume", "after_seq": 0})
        await student.next(lambda frame: frame["type"] in ("turn.start", "turn.end", "await"))
    stored = await sync_to_async(lambda: list(Trial.objects.get(pk=trial.pk).turns.values_list("text", flat=True)))()
    assert not any(len(text) > 100_000 for text in stored), "an oversized say is not stored"


async def test_a_bad_after_seq_on_connect_is_answered_and_replays_from_the_start(server):
    trial, keys = await live_trial({"plaintiff_lawyer": "paul"}, stages=["FIT"])
    for query in ("?after_seq=abc", "?after_seq=1.5", "?after_seq=-1"):
        async with open_socket(server, trial.pk, keys["paul"], query) as raw:
            student = Socket(raw)
            assert "after_seq" in (await student.error())["message"]
            await student.next(lambda frame: frame["type"] in ("turn.start", "turn.end", "await"))


async def test_a_finished_trial_cannot_be_paused_or_resumed(server):
    """Hardening #6: pause then resume set a finished trial back to running."""

    @sync_to_async
    def finished() -> Trial:
        trial = trial_simulate(case=Case.objects.get(pk=CASE), backend="scripted")
        trial.seats.filter(seat="judge").update(user=person("jude", Role.STUDENT))
        return trial

    trial = await finished()
    key = await sync_to_async(session_key_for)(await sync_to_async(person)("jude", Role.STUDENT))
    async with open_socket(server, trial.pk, key) as raw:
        judge = Socket(raw)
        await judge.next(lambda frame: frame["type"] == "end")
        for action in ("pause", "resume"):
            await judge.send({"type": "control", "action": action})
            await judge.error("trial_finished")
    assert (await trial_row(trial.pk)).status == Trial.Status.FINISHED


async def test_a_seat_handed_back_takes_its_open_socket_with_it(server):
    """Hardening #8: after handing the seat back (here over the API, on the server), the
    socket still received the seat's frames and could still speak."""
    trial, keys = await live_trial({"defendant_lawyer": "dana"}, stages=["FIT"])
    token = await sync_to_async(lambda: Token.objects.get_or_create(user=person("dana", Role.STUDENT))[0].key)()
    async with open_socket(server, trial.pk, keys["dana"]) as raw:
        student = Socket(raw)
        await student.next(lambda frame: frame["type"] == "turn.start")
        request = urllib.request.Request(
            f"http://127.0.0.1:{server}/api/trials/{trial.pk}/seats/defendant_lawyer/",
            method="DELETE",
            headers={"Authorization": f"Token {token}"},
        )
        assert (await asyncio.to_thread(urllib.request.urlopen, request, timeout=10)).status == 200
        assert await student.closed_with() == 4403
        turns_seen = [frame for frame in student.frames if frame["type"].startswith("turn.")]
        assert student.frames[-1]["code"] == "not_your_seat"
    async with open_socket(server, trial.pk, keys["dana"]) as raw:
        assert await Socket(raw).closed_with() == 4404, "no seat, no room: as if there were no trial"
    assert turns_seen, "the seat's frames arrived while it was held"


async def test_signing_out_closes_the_sockets_of_that_session(server):
    """Hardening #8: after logging out, an open socket still received frames and could say."""
    trial, keys = await live_trial({"plaintiff_lawyer": "paul"}, stages=["FIT"])
    async with open_socket(server, trial.pk, keys["paul"]) as raw:
        student = Socket(raw)
        await student.next(lambda frame: frame["type"] in ("turn.start", "await"))
        await asyncio.to_thread(sign_out, server, keys["paul"])
        assert await student.closed_with() == 4401
        assert student.frames[-1]["code"] == "not_authenticated"


async def test_a_message_on_a_socket_whose_session_is_gone_closes_it(server):
    """The per-message check: a session ended where no notice reaches this process."""
    trial, keys = await live_trial({"plaintiff_lawyer": "paul"}, stages=["FIT"])
    async with open_socket(server, trial.pk, keys["paul"]) as raw:
        student = Socket(raw)
        await student.next(lambda frame: frame["type"] in ("turn.start", "await"))
        await sync_to_async(Session.objects.filter(session_key=keys["paul"]).delete)()
        await student.send({"type": "say", "text": "Still here?", "client_id": "late"})
        assert await student.closed_with() == 4401
    assert not await sync_to_async(lambda: Trial.objects.get(pk=trial.pk).turns.filter(text="Still here?").exists())()


@sync_to_async
def trial_left_preparing(username: str) -> tuple[Trial, str]:
    """A trial of the hearing whose earlier stages no worker has played yet (the task waits
    on the broker: eager execution is off while it is created)."""
    user = person(username, Role.STUDENT)
    with celery_eager(False):
        trial = trial_create(
            live=True, case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": user}, stages=["FIT"]
        )
    return trial, session_key_for(user)


async def test_the_room_shows_the_earlier_stages_being_played_and_opens_the_hearing_after(server):
    """The room opens at once on a trial whose earlier stages are still to be played and shows
    how far the agents are; with workers (Redis) a worker plays them (this test in its place),
    on the embedded defaults the room's own driver does, in a thread of the process."""
    trial, key = await trial_left_preparing("paul")
    async with open_socket(server, trial.pk, key) as raw:
        student = Socket(raw)
        preparing = await student.next(lambda frame: frame["type"] == "preparing")
        assert (preparing["first_stage"], preparing["number"], preparing["count"]) == ("FIT", 0, 2)
        if os.environ.get("REDIS_URL"):
            await student.send({"type": "say", "text": "May I begin?", "client_id": "early"})
            assert "FIT" in (await student.error("not_your_turn"))["message"]
            await sync_to_async(trial_prepare)(trial_id=trial.pk)
        opened = await student.next(lambda frame: frame["type"] == "stage" and frame["stage"] == "FIT")
        assert opened["status"] == "started"
        heard = [frame for frame in student.frames if frame["type"] == "turn.end"]
        assert heard and {frame["stage"] for frame in heard} == {"LC", "CD"}, "the agents' turns reached the room"
        shown = [frame for frame in student.frames if frame["type"] == "preparing"]
        assert [(frame["stage"], frame["number"], frame["count"]) for frame in shown[1:]] == [
            ("LC", 1, 2),
            ("CD", 2, 2),
        ]
        await student.send({"type": "resume", "after_seq": 0})
        replayed = await student.next(lambda frame: frame["type"] == "turn.end" and frame["stage"] == "LC")
        assert replayed["seat"] in ("plaintiff_client", "plaintiff_lawyer")
        await student.next(lambda frame: frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer")


def sign_out(port: int, session_key: str) -> None:
    """POST the logout form on the server, as the browser's Sign out button does."""
    form_post(port, "/accounts/logout/", session_key, {})


def form_post(port: int, path: str, session_key: str, fields: dict[str, str]) -> None:
    """POST a form of the site on the server as the browser of ``session_key`` does."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    base = f"http://127.0.0.1:{port}"
    opener.open(f"{base}/accounts/login/", timeout=10).read()
    csrf = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": csrf, **fields}).encode()
    request = urllib.request.Request(
        f"{base}{path}", data=body, headers={"Cookie": f"sessionid={session_key}; csrftoken={csrf}"}
    )
    opener.open(request, timeout=10).read()


PASSWORD = "an-old-pass-phrase-3"


def password_change(port: int, session_key: str) -> None:
    """Django's password-change form, submitted on the server in the session ``session_key``."""
    new = "a-new-pass-phrase-7"
    fields = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    form_post(port, "/accounts/password_change/", session_key, fields)


@sync_to_async
def sessions_with_password(username: str) -> tuple[str, str]:
    """Two sessions of ``username``, given ``PASSWORD`` first (a new password ends older sessions)."""
    user = person(username)
    user.set_password(PASSWORD)
    user.save(update_fields=["password"])
    return session_key_for(user), session_key_for(user)


async def test_a_password_changed_in_another_session_closes_the_socket(server):
    """Issue #31 item 3: a socket opened in one session stayed open, and replayed on
    ``resume``, after the password was changed in another."""
    trial, _ = await live_trial({"plaintiff_lawyer": "paul"}, stages=["FIT"])
    room_session, other_session = await sessions_with_password("paul")
    async with open_socket(server, trial.pk, room_session) as raw:
        student = Socket(raw)
        await student.next(lambda frame: frame["type"] in ("turn.start", "await"))
        await asyncio.to_thread(password_change, server, other_session)
        assert await student.closed_with() == 4401
        assert student.frames[-1]["code"] == "not_authenticated"


async def test_a_person_made_inactive_elsewhere_cannot_speak_and_is_closed(server):
    """Made inactive by an admin in another process (here: the test's): with Redis the notice
    reaches the server and closes the socket at once; without it (the embedded layer is one
    process's) the next message is refused, unrecorded, with 4401."""
    trial, keys = await live_trial({"plaintiff_lawyer": "paul"}, stages=["FIT"])
    async with open_socket(server, trial.pk, keys["paul"]) as raw:
        student = Socket(raw)
        await student.next(lambda frame: frame["type"] in ("turn.start", "await"))

        @sync_to_async
        def deactivate() -> None:
            user = person("paul")
            user.is_active = False
            user.save()

        await deactivate()
        if not os.environ.get("REDIS_URL"):
            await student.send({"type": "say", "text": "Still here?", "client_id": "late"})
        assert await student.closed_with() == 4401
    assert not await sync_to_async(lambda: Trial.objects.get(pk=trial.pk).turns.filter(text="Still here?").exists())()


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_the_room_tells_a_person_whose_seat_was_handed_back_why_it_closed(tmp_path, monkeypatch):
    """Closed with 4403, the room used to say "reconnecting…" forever; it says why, and the
    trial stays readable for them: its room shows what their seat heard, with the way to take
    the seat back (issue 32 item 1, issue 44 item 1)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API keeps a loop here
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    user = person("hana", Role.STUDENT, password="a-demo-password-1")
    trial = prepared_trial(case=Case.objects.get(pk=CASE), humans={"defendant_lawyer": user}, stages=["FIT"])
    token = Token.objects.get_or_create(user=user)[0].key
    with daphne(tmp_path / "daphne.log", DJANGO_DEBUG="true") as port:
        playwright, browser = chromium_start()
        try:
            page = page_logged_in(browser, f"http://127.0.0.1:{port}", "hana", "a-demo-password-1")
            page.goto(f"http://127.0.0.1:{port}/trials/{trial.pk}/")
            page.wait_for_selector("#connection:has-text('live')")
            handed_back = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/trials/{trial.pk}/seats/defendant_lawyer/",
                method="DELETE",
                headers={"Authorization": f"Token {token}"},
            )
            urllib.request.urlopen(handed_back, timeout=10).read()
            page.wait_for_selector("#connection:has-text('You no longer hold a seat in this trial.')")
            again = page.goto(f"http://127.0.0.1:{port}/trials/{trial.pk}/")
            assert again.status == 200 and again.url.endswith(f"/trials/{trial.pk}/")
            assert page.is_visible(f"form[action='/trials/{trial.pk}/retake/'] button")
        finally:
            browser.close()
            playwright.stop()


async def test_a_pause_says_who_paused_the_trial(server):
    """Issue 32 item 10/12: an instructor's pause was announced as the presiding judge's."""
    trial, keys = await live_trial({"plaintiff_lawyer": "paul", "judge": "jude"}, stages=["FIT"])
    async with open_socket(server, trial.pk, await instructor_session()) as raw:
        teacher = Socket(raw)
        await teacher.send({"type": "control", "action": "pause"})
        paused = await teacher.next(lambda frame: frame["type"] == "control")
        assert (paused["action"], paused["by"]) == ("pause", "instructor")
    async with open_socket(server, trial.pk, keys["jude"]) as raw:
        judge = Socket(raw)
        await judge.send({"type": "control", "action": "resume"})
        resumed = await judge.next(lambda frame: frame["type"] == "control")
        assert (resumed["action"], resumed["by"]) == ("resume", "judge")
