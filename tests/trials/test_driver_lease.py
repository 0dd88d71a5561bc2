"""Drivers that survive their process (architecture issue): a live trial's driver holds a
lease; when its process dies the next process that looks takes the trial over, with nobody
reconnecting, and a lease held elsewhere keeps a second driver from starting."""

from __future__ import annotations

import time
import urllib.request
from datetime import timedelta

import pytest
from django.utils import timezone

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.servers import daphne
from tests.users import person
from trials.live import trial_create
from trials.models import Case, Trial
from trials.services import cases_import

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120)]
CASE = "en-civil-traffic-accident"
LEASE_S = 2.0


def live_trial(**lease) -> Trial:
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    trial = trial_create(
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
