"""Hardening #4: an invitation seats its invitee once. Taking the seat uses it up, and an
overseer removing the invitee from the trial withdraws every invitation of theirs still open,
so a removed student cannot walk back in with a link they kept."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from classroom.services import course_create
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case, Invitation, Trial
from trials.services import cases_import, trial_create

pytestmark = pytest.mark.django_db
CASE = "en-civil-commercial-lease"
USED = "This invitation has already been used."
WITHDRAWN = "This invitation was withdrawn when you were removed from the trial."


@pytest.fixture
def trial() -> Trial:
    """Ann's attempt in a course Prof teaches: Ann plays the plaintiff's counsel."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    course = course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    ann = person("ann", Role.STUDENT)
    person("bob", Role.STUDENT)
    return trial_create(
        live=True, case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": ann}, stages=["FIT"], course=course
    )


def invite(client: Client, trial: Trial, seat: str, username: str) -> str:
    """The link the room shows Ann for inviting ``username`` to ``seat``."""
    client.force_login(person("ann"))
    page = client.post(reverse("trials:trial_invite", args=[trial.pk]), {"seat": seat, "username": username})
    assert page.status_code == 200, page.content
    return re.search(r'value="http://testserver(\S+)"', page.content.decode()).group(1)


def remove(client: Client, trial: Trial, seat: str) -> None:
    """Prof, an overseer, hands the seat back to an agent."""
    client.force_login(person("prof"))
    response = client.post(reverse("trials:trial_leave", args=[trial.pk]), {"seat": seat, "confirm": "yes"})
    assert response.status_code == 302


def holder(trial: Trial, seat: str) -> str:
    return trial.seats.get(seat=seat).holder


def test_a_student_an_instructor_removed_cannot_take_the_seat_again_with_the_same_link(client, trial):
    link = invite(client, trial, "defendant_lawyer", "bob")
    client.force_login(person("bob"))
    assert client.post(link).status_code == 302 and holder(trial, "defendant_lawyer") == "human:bob"
    remove(client, trial, "defendant_lawyer")
    client.force_login(person("bob"))
    again = client.post(link)
    assert again.status_code == 410 and USED in again.content.decode()
    assert holder(trial, "defendant_lawyer") == "agent:scripted"
    assert "defendant_lawyer" not in Trial.objects.get(pk=trial.pk).engine_state.human_seats
    page = client.get(link)
    assert page.status_code == 410 and USED in page.content.decode() and "Take the seat" not in page.content.decode()


def test_an_open_invitation_is_withdrawn_when_an_overseer_removes_its_invitee(client, trial):
    taken = invite(client, trial, "defendant_lawyer", "bob")
    kept = invite(client, trial, "judge", "bob")
    client.force_login(person("bob"))
    client.post(taken)
    remove(client, trial, "defendant_lawyer")
    client.force_login(person("bob"))
    response = client.post(kept)
    assert response.status_code == 410 and WITHDRAWN in response.content.decode()
    assert holder(trial, "judge") == "agent:scripted"
    assert Invitation.objects.get(seat="judge").revoked_at is not None


def test_an_overseer_taking_over_a_students_seat_withdraws_their_open_invitations(client, trial):
    taken = invite(client, trial, "defendant_lawyer", "bob")
    kept = invite(client, trial, "judge", "bob")
    client.force_login(person("bob"))
    client.post(taken)
    client.force_login(person("prof"))
    client.post(reverse("trials:trial_join", args=[trial.pk]), {"seat": "defendant_lawyer"})
    assert holder(trial, "defendant_lawyer") == "human:prof"
    client.force_login(person("bob"))
    response = client.post(kept)
    assert response.status_code == 410 and WITHDRAWN in response.content.decode()
    assert holder(trial, "judge") == "agent:scripted"


def test_a_student_who_hands_the_seat_back_cannot_retake_it_with_the_used_link(client, trial):
    link = invite(client, trial, "defendant_lawyer", "bob")
    client.force_login(person("bob"))
    client.post(link)
    client.post(reverse("trials:trial_leave", args=[trial.pk]), {"seat": "defendant_lawyer", "confirm": "yes"})
    again = client.post(link)
    assert again.status_code == 410 and USED in again.content.decode()
    assert holder(trial, "defendant_lawyer") == "agent:scripted"
    invitation = Invitation.objects.get()
    assert (invitation.invitee.username, invitation.inviter.username, invitation.seat) == (
        "bob",
        "ann",
        "defendant_lawyer",
    )
    assert invitation.used_at is not None and invitation.revoked_at is None
