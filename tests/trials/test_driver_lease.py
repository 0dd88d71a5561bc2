"""Drivers that survive their process (architecture issue): a live trial's driver holds a
lease; when its process dies the next process that looks takes the trial over, with nobody
reconnecting, and a lease held elsewhere keeps a second driver from starting."""

from __future__ import annotations

import asyncio
import signal
import time
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone

from classroom.services import course_create
from legalsim.roles import Role
from tests.celery_mode import celery_eager
from tests.conftest import DEMO_CASES
from tests.servers import REDIS_SERVER, daphne, session_key_for, two_daphnes_on_private_redis
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import, trial_create

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180)]
CASE = "en-civil-traffic-accident"
LEASE_S = 2.0


def live_trial(**lease) -> Trial:
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    trial = prepared_trial(
        case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": person("paul", Role.STUDENT)}, stages=["FIT"]
    )
    Trial.objects.filter(pk=trial.pk).update(**lease)
    return Trial.objects.get(pk=trial.pk)


def wait_for(condition, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return False


def any_request(port: int) -> None:
    """A request that has nothing to do with the trial (a health check would do)."""
    urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=10).read()


def test_a_trial_whose_driver_died_is_taken_over_without_anyone_reconnecting(tmp_path):
    dead = timezone.now() - timedelta(seconds=60)
    orphan = live_trial(driver="host:4242:dead", driver_until=dead)
    unjoined = live_trial()
    turns_before = orphan.turns.count()
    with daphne(tmp_path / "daphne.log", LEGALSIM_DRIVER_LEASE_S=str(LEASE_S)) as port:
        any_request(port)
        assert wait_for(lambda: Trial.objects.get(pk=orphan.pk).status == Trial.Status.WAITING)
        taken = Trial.objects.get(pk=orphan.pk)
        assert taken.turns.count() > turns_before, "the new driver went on from where the dead one stopped"
        assert taken.driver not in ("", "host:4242:dead") and taken.driver_until > timezone.now()
        time.sleep(LEASE_S)
        assert Trial.objects.get(pk=unjoined.pk).turns.count() == unjoined.turns.count(), (
            "a trial nobody has joined yet waits for its first participant"
        )


def test_a_trial_whose_process_died_while_preparing_it_is_prepared_by_the_next(tmp_path):
    """On the embedded defaults the room's driver plays the earlier stages: a process that
    died while doing so leaves the trial preparing with a lease that runs out, and the next
    process takes it over, plays the stages not yet stored and opens the hearing."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    with celery_eager(True):
        trial = trial_create(
            live=True,
            case=Case.objects.get(pk=CASE),
            humans={"plaintiff_lawyer": person("paula", Role.STUDENT)},
            stages=["FIT"],
        )
    assert Trial.objects.get(pk=trial.pk).status == Trial.Status.PREPARING, "nothing is played inside the request"
    Trial.objects.filter(pk=trial.pk).update(
        driver="host:4242:dead", driver_until=timezone.now() - timedelta(seconds=60)
    )
    with daphne(tmp_path / "daphne.log", LEGALSIM_DRIVER_LEASE_S=str(LEASE_S), REDIS_URL="") as port:
        any_request(port)
        assert wait_for(lambda: Trial.objects.get(pk=trial.pk).status == Trial.Status.WAITING)
    state = Trial.objects.get(pk=trial.pk).engine_state
    assert state.stage_history == ["LC", "CD", "FIT"], "each earlier stage played once, then the hearing"
    assert {"LC", "CD"} <= {turn.stage for turn in state.turns}


def test_a_lease_held_by_a_live_process_keeps_a_second_driver_from_starting(tmp_path):
    held = live_trial()
    turns_before = held.turns.count()
    with daphne(tmp_path / "daphne.log", LEGALSIM_DRIVER_LEASE_S=str(LEASE_S)) as port:
        Trial.objects.filter(pk=held.pk).update(
            driver="host:1:alive", driver_until=timezone.now() + timedelta(seconds=5)
        )
        any_request(port)
        time.sleep(2.5)
        assert Trial.objects.get(pk=held.pk).turns.count() == turns_before, "the other process drives it"
        assert wait_for(lambda: Trial.objects.get(pk=held.pk).turns.count() > turns_before, timeout=20), (
            "once that process stops renewing, this one takes over"
        )


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not on PATH (apt-get install redis-server)")
def test_two_processes_drive_a_trial_once_hear_each_others_objections_and_survive_the_driver(tmp_path):
    """The two sockets of one trial on two daphne processes sharing Redis and the database:
    one driver (the first process); the student on the second process objects and the driver
    hears it; the first process is killed and the second takes the trial over within the
    lease, and the student plays it to the end, nobody reconnecting."""
    trial, keys = watched_trial("dana", "room")
    processes = []
    env = {"LEGALSIM_DRIVER_LEASE_S": str(LEASE_S), "LEGALSIM_SCRIPTED_TOKENS_PER_S": "30"}
    with two_daphnes_on_private_redis(tmp_path, processes, **env) as (first, second, _, _):
        driver_before_kill = asyncio.run(
            two_processes(trial.pk, first, second, keys, kill_first=processes[0], trial_driver=driver_of)
        )
    played = Trial.objects.get(pk=trial.pk)
    seqs = list(played.turns.order_by("seq").values_list("seq", flat=True))
    assert played.status == Trial.Status.FINISHED
    assert seqs == list(range(1, len(seqs) + 1)), "no turn recorded twice, none lost"
    assert played.turns.filter(act="object", seat="defendant_lawyer").count() == 1
    assert played.driver != driver_before_kill, "the second process finished what the first began"


def watched_trial(student_name: str, course_slug: str) -> tuple[Trial, dict[str, str]]:
    """A trial in a course whose student holds the defence seat; the session keys of the
    student and of the course's teacher, who oversees it."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    student, teacher = person(student_name, Role.STUDENT), person("teacher", Role.INSTRUCTOR)
    trial = prepared_trial(
        case=Case.objects.get(pk=CASE),
        humans={"defendant_lawyer": student},
        stages=["FIT"],
        course=course_create(slug=course_slug, title=course_slug.title(), instructor=teacher),
    )
    return trial, {"student": session_key_for(student), "teacher": session_key_for(teacher)}


def driver_of(trial_id: int) -> str:
    return Trial.objects.get(pk=trial_id).driver


async def two_processes(trial_id: int, first: int, second: int, keys: dict, *, kill_first, trial_driver) -> str:
    from tests.trials.test_consumers import Socket, open_socket

    async with open_socket(first, trial_id, keys["teacher"]) as teacher_raw:
        teacher = Socket(teacher_raw)
        await teacher.next(lambda frame: frame["type"] == "turn.start")
        async with open_socket(second, trial_id, keys["student"]) as student_raw:
            student = Socket(student_raw)
            await student.next(lambda frame: frame["type"] == "turn.start" and frame["side"] == "plaintiff")
            await student.send({"type": "objection", "ground": "leading"})
            objection = await student.next(
                lambda frame: frame["type"] == "turn.end" and frame["text"] == "Objection: leading question."
            )
            await teacher.next(lambda frame: frame["type"] == "turn.end" and frame["seq"] == objection["seq"])
            driver_before = await asyncio.to_thread(trial_driver, trial_id)
            kill_first.send_signal(signal.SIGKILL)
            kill_first.wait()
            answered = set()
            while True:
                frame = await student.next(lambda frame: frame["type"] in ("await", "end"), timeout=40)
                if frame["type"] == "end":
                    return driver_before
                if frame["seat"] == "defendant_lawyer" and frame["seq"] not in answered:
                    answered.add(frame["seq"])
                    await student.send({"type": "say", "text": "Counsel submits.", "client_id": f"d{frame['seq']}"})


@pytest.mark.skipif(REDIS_SERVER is None, reason="redis-server is not on PATH (apt-get install redis-server)")
def test_a_socket_joining_from_another_process_hears_the_statement_streaming_at_once(tmp_path):
    """The driver publishes a trial's frames to Redis only while a socket of another process
    listens, and asks Redis about that once per heartbeat: a socket that joins between two
    heartbeats (a minute apart here) says so to the driver, and streams from the next words."""
    trial, keys = watched_trial("erin", "join")
    env = {"LEGALSIM_DRIVER_LEASE_S": "180", "LEGALSIM_SCRIPTED_TOKENS_PER_S": "30"}
    with two_daphnes_on_private_redis(tmp_path, **env) as (first, second, _, _):
        heard = asyncio.run(join_from_afar(trial.pk, first, second, keys))
    assert heard["type"] == "turn.delta" and heard["text"]


async def join_from_afar(trial_id: int, first: int, second: int, keys: dict) -> dict:
    """The teacher's socket starts the driver on the first process; once the driver has
    streamed a statement to it alone, the student joins on the second and answers what is
    asked of them until live words reach them."""
    from tests.trials.test_consumers import Socket, open_socket

    async with open_socket(first, trial_id, keys["teacher"]) as teacher_raw:
        teacher = Socket(teacher_raw)
        await teacher.next(lambda frame: frame["type"] == "turn.end" and frame["seat"] != "clerk", timeout=30)
        async with open_socket(second, trial_id, keys["student"]) as student_raw:
            student = Socket(student_raw)
            while True:
                frame = await student.next(lambda frame: frame["type"] in ("await", "turn.delta"), timeout=10)
                if frame["type"] == "turn.delta":
                    return frame
                if frame["seat"] == "defendant_lawyer":
                    await student.send({"type": "say", "text": "Counsel submits.", "client_id": f"e{frame['seq']}"})
