"""Hardening #4: one link, two takes at the same moment (two tabs, a double click, a shared
link): exactly one seats its invitee and uses the invitation up; the other is refused."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.access import seat_invite
from trials.live.services import LiveError, seat_take
from trials.models import Case, Invitation, Trial
from trials.services import cases_import, trial_create

CASE = "en-civil-commercial-lease"


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_takes_with_one_link_seat_the_invitee_exactly_once():
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    ann, bob = person("ann", Role.STUDENT), person("bob", Role.STUDENT)
    trial = trial_create(live=True, case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": ann}, stages=["FIT"])
    token = seat_invite(trial=trial, seat="defendant_lawyer", username="bob", by=ann)
    start, outcomes = threading.Barrier(2), []

    def take() -> None:
        start.wait()
        try:
            seat_take(trial_id=trial.pk, seat="defendant_lawyer", user=bob, invitation=token)
            outcomes.append("seated")
        except LiveError as error:
            outcomes.append(str(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=take) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes) == ["This invitation has already been used.", "seated"]
    assert Trial.objects.get(pk=trial.pk).seats.get(seat="defendant_lawyer").user == bob
    assert Invitation.objects.get().used_at is not None
