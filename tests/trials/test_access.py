"""Private trials (``trials.access``): who reads a trial, in one rule that the single-trial
check and every list of trials share; invitations are for one person, one seat, a week."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from classroom.services import course_create
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials import access
from trials.access import (
    BadInvitation,
    NotSeated,
    invitation_read,
    reader_seats,
    seat_invite,
    trial_overseer,
    trials_readable,
)
from trials.models import Case, Trial
from trials.services import cases_import, trial_create, trial_simulate

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


@pytest.fixture
def world():
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    case = Case.objects.get(pk=CASE)
    people = {
        "ann": person("ann", Role.STUDENT),
        "bob": person("bob", Role.STUDENT),
        "prof": person("prof", Role.INSTRUCTOR),
        "other prof": person("other-prof", Role.INSTRUCTOR),
        "admin": person("admin", Role.ADMIN),
        "rater": person("rater", Role.RATER),
    }
    course = course_create(slug="civ", title="Civil", instructor=people["prof"])
    trials = {
        "ann's course attempt": trial_create(
            live=True, case=case, humans={"plaintiff_lawyer": people["ann"]}, stages=["LC"], course=course
        ),
        "bob's own trial": trial_create(
            live=True, case=case, humans={"defendant_lawyer": people["bob"]}, stages=["LC"], created_by=people["bob"]
        ),
        "other prof's demo": trial_create(
            live=True, case=case, humans={"judge": people["ann"]}, stages=["LC"], created_by=people["other prof"]
        ),
        "research run": trial_simulate(case=case, backend="scripted", until="LC"),
    }
    return people, trials


READS = {
    "ann": {"ann's course attempt", "other prof's demo"},
    "bob": {"bob's own trial"},
    "prof": {"ann's course attempt", "research run"},
    "other prof": {"other prof's demo", "research run"},
    "admin": {"ann's course attempt", "bob's own trial", "other prof's demo", "research run"},
    "rater": set(),
}


def readable(trial: Trial, user) -> bool:
    try:
        reader_seats(trial, user)
    except NotSeated:
        return False
    return True


@pytest.mark.parametrize("who", list(READS))
def test_each_person_reads_exactly_their_trials_in_lists_and_one_by_one(world, who):
    people, trials = world
    user = people[who]
    listed = set(trials_readable(user=user).values_list("pk", flat=True))
    assert {name for name, trial in trials.items() if trial.pk in listed} == READS[who]
    assert {name for name, trial in trials.items() if readable(trial, user)} == READS[who]


def test_overseers_read_everything_participants_through_their_seats(world):
    people, trials = world
    attempt = trials["ann's course attempt"]
    assert reader_seats(attempt, people["ann"]) == ["plaintiff_lawyer"]
    assert reader_seats(attempt, people["prof"]) is None
    assert trial_overseer(attempt, people["admin"])
    assert not trial_overseer(attempt, people["other prof"])
    assert not trial_overseer(trials["bob's own trial"], people["bob"]), "a student creator reads through seats"


def test_the_case_page_lists_no_classmates_trial_and_no_other_courses(world, client):
    people, trials = world
    client.force_login(people["other prof"])
    page = client.get(reverse("trials:case_detail", args=[CASE])).content.decode()
    shown = {name for name, trial in trials.items() if reverse("trials:trial_room", args=[trial.pk]) in page}
    assert shown == {"other prof's demo", "research run"}
    client.force_login(people["bob"])
    page = client.get(reverse("trials:case_detail", args=[CASE])).content.decode()
    assert reverse("trials:trial_room", args=[trials["ann's course attempt"].pk]) not in page


@pytest.mark.parametrize("route", ["trials:trial_room", "trials:trial_transcript", "scoring:trial_scorecard"])
def test_another_instructor_gets_the_same_404_as_for_no_trial(world, client, route):
    people, trials = world
    client.force_login(people["other prof"])
    hidden = client.get(reverse(route, args=[trials["ann's course attempt"].pk]))
    missing = client.get(reverse(route, args=[999_999]))
    assert hidden.status_code == missing.status_code == 404
    client.force_login(people["prof"])
    assert client.get(reverse(route, args=[trials["ann's course attempt"].pk])).status_code == 200


def test_an_invitation_names_one_person_one_seat_and_expires(world, monkeypatch):
    people, trials = world
    trial = trials["bob's own trial"]
    token = seat_invite(trial=trial, seat="plaintiff_lawyer", username="ann", by=people["bob"])
    assert invitation_read(token, trial_id=trial.pk, user=people["ann"]).seat == "plaintiff_lawyer"
    with pytest.raises(BadInvitation, match="someone else"):
        invitation_read(token, trial_id=trial.pk, user=people["rater"])
    with pytest.raises(BadInvitation, match="someone else"):
        invitation_read(token, trial_id=trials["research run"].pk, user=people["ann"])
    with pytest.raises(BadInvitation, match="not a valid"):
        invitation_read(token.replace(":", ";", 1), trial_id=trial.pk, user=people["ann"])
    monkeypatch.setattr(access, "INVITATION_MAX_AGE", timedelta(seconds=-1))
    with pytest.raises(BadInvitation, match="expired"):
        invitation_read(token, trial_id=trial.pk, user=people["ann"])
    with pytest.raises(BadInvitation, match="Only the people seated"):
        seat_invite(trial=trial, seat="plaintiff_lawyer", username="ann", by=people["other prof"])
