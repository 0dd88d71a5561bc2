"""Issue 44 item 1: a seat handed back to the agents could not be taken again, and the room
sent its former holder to the bare printable transcript (no navigation, nothing live, no
debrief). Now the room shows them the trial through their seat, the way to take it back while
the trial is played, and the debrief once it has ended."""

from __future__ import annotations

import pytest
from django.urls import reverse

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.trials.test_debrief import simulated
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import, trial_create

pytestmark = pytest.mark.django_db

CASE = "en-civil-commercial-lease"


@pytest.fixture
def handed_back(client) -> Trial:
    """A trial whose plaintiff's counsel the signed-in student played and handed back."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    student = person("student", Role.STUDENT)
    client.force_login(student)
    trial = trial_create(live=True, case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": student})
    leave = reverse("trials:trial_leave", args=[trial.pk])
    client.post(leave, {"seat": "plaintiff_lawyer", "confirm": "yes"})
    assert trial.seats.get(seat="plaintiff_lawyer").user is None
    return trial


def test_the_room_of_a_seat_handed_back_offers_it_back_with_the_site_around_it(client, handed_back):
    room = client.get(reverse("trials:trial_room", args=[handed_back.pk]))
    page = room.content.decode()
    assert room.status_code == 200, "not sent to the printable transcript"
    assert 'class="site-nav"' in page, "with the navigation"
    assert "Take Counsel for the plaintiff back" in page
    assert 'id="composer"' not in page and 'data-ws-path=""' in page, "no composer or socket without a seat"
    assert reverse("trials:trial_transcript", args=[handed_back.pk]) in page


def test_a_seat_handed_back_is_taken_again_while_the_trial_is_played(client, handed_back):
    retake = client.post(reverse("trials:trial_retake", args=[handed_back.pk]), {"seat": "plaintiff_lawyer"})
    assert retake.status_code == 302 and retake["Location"] == reverse("trials:trial_room", args=[handed_back.pk])
    handed_back.refresh_from_db()
    assert handed_back.seats.get(seat="plaintiff_lawyer").user.username == "student"
    assert handed_back.engine_state.human_seats == {"plaintiff_lawyer": "student"}
    page = client.get(retake["Location"]).content.decode()
    assert 'id="composer"' in page and f'data-ws-path="/ws/trials/{handed_back.pk}/"' in page, "seated and live"
    assert "You play Counsel for the plaintiff again." in page


def test_only_the_person_who_handed_a_seat_back_takes_it_and_only_an_agents_seat(client, handed_back):
    url = reverse("trials:trial_retake", args=[handed_back.pk])
    refused = client.post(url, {"seat": "defendant_lawyer"})
    assert refused.status_code == 400 and "you did not hand it back" in refused.content.decode()
    client.force_login(person("classmate", Role.STUDENT))
    assert client.post(url, {"seat": "plaintiff_lawyer"}).status_code == 404, "a classmate sees no such trial"
    assert handed_back.seats.get(seat="plaintiff_lawyer").user is None


def test_a_seat_an_instructor_removed_someone_from_is_not_theirs_to_take_back(client):
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    student, teacher = person("student", Role.STUDENT), person("teacher", Role.INSTRUCTOR)
    trial = trial_create(live=True, case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": student})
    Trial.objects.filter(pk=trial.pk).update(created_by=teacher)
    client.force_login(teacher)
    client.post(reverse("trials:trial_leave", args=[trial.pk]), {"seat": "plaintiff_lawyer", "confirm": "yes"})
    client.force_login(student)
    assert client.post(reverse("trials:trial_retake", args=[trial.pk]), {"seat": "plaintiff_lawyer"}).status_code == 404
    assert trial.seats.get(seat="plaintiff_lawyer").user is None


def test_a_finished_trial_shows_the_debrief_to_the_person_who_handed_their_seat_back(client):
    trial = simulated("en-criminal-telecom-fraud")
    student = person("student", Role.STUDENT)
    trial.seats.filter(seat="attorney").update(handed_back_by=student)
    Trial.objects.filter(pk=trial.pk).update(live=True)
    client.force_login(student)
    room = client.get(reverse("trials:trial_room", args=[trial.pk]))
    page = room.content.decode()
    assert room.status_code == 200 and 'id="debrief"' in page and 'class="site-nav"' in page
    assert "You handed Defence counsel back to an agent." in page and "Take " not in page
    refused = client.post(reverse("trials:trial_retake", args=[trial.pk]), {"seat": "attorney"})
    assert refused.status_code == 400 and "The trial has ended" in refused.content.decode()
