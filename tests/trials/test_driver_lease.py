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
from tests.conftest import DEMO_CASES
from tests.servers import REDIS_SERVER, daphne, free_port, redis_start, session_key_for
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import

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
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    student, teacher = person("dana", Role.STUDENT), person("teacher", Role.INSTRUCTOR)
    trial = prepared_trial(
        case=Case.objects.get(pk=CASE),
        humans={"defendant_lawyer": student},
        stages=["FIT"],
        course=course_create(slug="room", title="Room", instructor=teacher),
    )
    keys = {"dana": session_key_for(student), "teacher": session_key_for(teacher)}
    redis_port, processes = free_port(), []
    redis = redis_start(redis_port)
    env = {
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "LEGALSIM_DRIVER_LEASE_S": str(LEASE_S),
        "LEGALSIM_SCRIPTED_TOKENS_PER_S": "30",
    }
    try:
        with (
            daphne(tmp_path / "first.log", processes, **env) as first,
            daphne(tmp_path / "second.log", processes, **env) as second,
        ):
            driver_before_kill = asyncio.run(
                two_processes(trial.pk, first, second, keys, kill_first=processes[0], trial_driver=driver_of)
            )
    finally:
        redis.kill()
        redis.wait()
    played = Trial.objects.get(pk=trial.pk)
    seqs = list(played.turns.order_by("seq").values_list("seq", flat=True))
    assert played.status == Trial.Status.FINISHED
    assert seqs == list(range(1, len(seqs) + 1)), "no turn recorded twice, none lost"
    assert played.turns.filter(act="object", seat="defendant_lawyer").count() == 1
    assert played.driver != driver_before_kill, "the second process finished what the first began"


def driver_of(trial_id: int) -> str:
    return Trial.objects.get(pk=trial_id).driver


async def two_processes(trial_id: int, first: int, second: int, keys: dict, *, kill_first, trial_driver) -> str:
    from tests.trials.test_consumers import Socket, open_socket

    async with open_socket(first, trial_id, keys["teacher"]) as teacher_raw:
        teacher = Socket(teacher_raw)
        await teacher.next(lambda frame: frame["type"] == "turn.start")
        async with open_socket(second, trial_id, keys["dana"]) as student_raw:
            student = Socket(student_raw)
            await student.next(lambda frame: frame["type"] == "turn.start" and frame["side"] == "plaintiff")
            await student.send({"type": "objection", "ground": "leading question"})
            objection = await student.next(
                lambda frame: frame["type"] == "turn.end" and frame["text"] == "Objection: leading question"
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
