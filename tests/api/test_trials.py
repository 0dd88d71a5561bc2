"""Trials over the API: the lobby's choices, who sees which trial, seats and transcripts."""

from __future__ import annotations

import pytest

from classroom.services import course_create
from legalsim.roles import Role
from tests.api.conftest import CASE
from tests.cases import case_stored
from tests.conftest import CIVIL_CASE, DEMO_CASES
from tests.court.engine.test_visibility import plant
from tests.users import person
from trials.access import seat_invite
from trials.models import Case, Seat, Trial
from trials.preparation import trial_prepare
from trials.services import cases_import, trial_create, trial_simulate

pytestmark = pytest.mark.django_db


def create(client, **body):
    return client.post("/api/trials/", {"case": CASE, **body}, format="json")


def test_a_student_creates_a_trial_holding_the_seats_they_chose(student, demo_case):
    response = create(student, seats=["plaintiff_lawyer"], stages=["FIT"])
    assert response.status_code == 201, response.content
    trial = response.json()
    assert trial["my_seats"] == ["plaintiff_lawyer"]
    assert trial["seats"]["plaintiff_lawyer"] == "human:student"
    assert trial["seats"]["defendant_lawyer"].startswith("agent:")
    assert trial["ws_path"] == f"/ws/trials/{trial['id']}/"
    assert trial["status"] == "preparing", "the request returns before the earlier stages are played"
    stored = Trial.objects.get(pk=trial["id"])
    assert stored.created_by.username == "student"
    assert stored.engine_state.stage_history == [] and stored.first_stage == "FIT"
    history = trial_prepare(trial_id=trial["id"]).engine_state.stage_history
    assert "LC" in history and "FIT" not in history, "a worker plays the earlier stages; FIT waits for the student"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seats": ["stenographer"]}, "seats"),
        ({"seats": ["prosecutor"]}, "seats"),
        ({"seats": []}, "seats"),
        ({"seats": ["plaintiff_lawyer"], "stages": ["NOPE"]}, "detail"),
        ({"seats": ["plaintiff_lawyer"], "case": "no-such-case"}, "case"),
        ({"seats": ["plaintiff_lawyer"], "target_side": "court"}, "target_side"),
    ],
)
def test_choices_the_lobby_does_not_offer_are_refused(student, demo_case, body, field):
    response = create(student, **body)
    assert response.status_code == 400
    assert field in response.json()
    assert not Trial.objects.exists()


def test_a_student_lists_only_their_trials_an_instructor_only_their_courses_and_research(
    student, other_student, instructor, admin, demo_case
):
    mine = create(student, seats=["plaintiff_lawyer"], stages=["FIT"]).json()["id"]
    theirs = create(other_student, seats=["defendant_lawyer"], stages=["FIT"]).json()["id"]
    research = trial_simulate(case=Case.objects.get(pk=CASE), backend="scripted", until="LC").pk
    course = course_create(slug="civ", title="Civil", instructor=person("instructor"))
    Trial.objects.filter(pk=theirs).update(course=course)
    assert [trial["id"] for trial in student.get("/api/trials/").json()["results"]] == [mine]
    assert {trial["id"] for trial in instructor.get("/api/trials/").json()["results"]} == {theirs, research}
    assert {trial["id"] for trial in admin.get("/api/trials/").json()["results"]} == {mine, theirs, research}
    assert instructor.get(f"/api/trials/{mine}/").status_code == 404, "another course's (or no course's) trial"


def test_someone_without_a_seat_learns_nothing_of_the_trial_but_may_join_when_invited(
    student, other_student, demo_case
):
    trial = create(student, seats=["plaintiff_lawyer"], stages=["FIT"]).json()["id"]
    missing = other_student.get("/api/trials/999999/")
    shown = other_student.get(f"/api/trials/{trial}/")
    assert shown.status_code == missing.status_code == 404
    assert shown.json() == missing.json(), "an unseated person cannot tell a trial from no trial"
    assert other_student.get(f"/api/trials/{trial}/transcript/").status_code == 404
    uninvited = other_student.post(f"/api/trials/{trial}/seats/", {"seat": "defendant_lawyer"}, format="json")
    assert uninvited.status_code == 404, "nobody takes a seat uninvited"
    token = seat_invite(
        trial=Trial.objects.get(pk=trial), seat="defendant_lawyer", username="other", by=person("student")
    )
    forged = other_student.post(
        f"/api/trials/{trial}/seats/", {"seat": "defendant_lawyer", "invitation": token[:-2] + "xx"}, format="json"
    )
    assert forged.status_code == 404
    joined = other_student.post(
        f"/api/trials/{trial}/seats/", {"seat": "defendant_lawyer", "invitation": token}, format="json"
    )
    assert joined.status_code == 200
    assert joined.json()["my_seats"] == ["defendant_lawyer"]
    assert other_student.get(f"/api/trials/{trial}/transcript/").status_code == 200
    taken = other_student.post(f"/api/trials/{trial}/seats/", {"seat": "plaintiff_lawyer"}, format="json")
    assert taken.status_code == 400, "a person's seat is not for the taking"
    left = other_student.delete(f"/api/trials/{trial}/seats/defendant_lawyer/")
    assert left.status_code == 200 and left.json()["my_seats"] == []


def test_the_instructor_of_the_course_takes_over_a_students_seat(student, instructor, demo_case):
    trial = create(student, seats=["plaintiff_lawyer"], stages=["FIT"]).json()["id"]
    assert (
        instructor.post(f"/api/trials/{trial}/seats/", {"seat": "plaintiff_lawyer"}, format="json").status_code == 404
    )
    course = course_create(slug="civ", title="Civil", instructor=person("instructor"))
    Trial.objects.filter(pk=trial).update(course=course)
    response = instructor.post(f"/api/trials/{trial}/seats/", {"seat": "plaintiff_lawyer"}, format="json")
    assert response.status_code == 200
    assert response.json()["seats"]["plaintiff_lawyer"] == "human:instructor"


def finished_trial(seed: dict, seat: str, username: str) -> Trial:
    case_stored(seed)
    trial = trial_simulate(case=Case.objects.get(pk=seed["id"]), backend="scripted")
    Seat.objects.filter(trial=trial, seat=seat).update(user=person(username))
    return trial


def test_a_participant_reads_only_the_stages_their_seat_heard(student, instructor):
    trial = finished_trial(CIVIL_CASE, "defendant_lawyer", "student")
    Trial.objects.filter(pk=trial.pk).update(created_by=person("instructor"))
    own = student.get(f"/api/trials/{trial.pk}/transcript/").json()
    full = instructor.get(f"/api/trials/{trial.pk}/transcript/").json()
    assert own["finished"] and full["finished"]
    by_stage = {stage["stage"]: stage for stage in own["stages"]}
    assert by_stage["LC"]["turns"] == [], "the other side's consultation stays with them"
    assert by_stage["FIT"]["turns"]
    assert next(stage for stage in full["stages"] if stage["stage"] == "LC")["turns"]
    assert sum(len(s["turns"]) for s in own["stages"]) < sum(len(s["turns"]) for s in full["stages"])


def test_no_evaluation_only_canary_reaches_a_student_through_any_trial_response(student):
    seed, planted = plant(CIVIL_CASE)
    trial = finished_trial(seed, "plaintiff_lawyer", "student")
    hidden = [canary for label, canary in planted.items() if label.startswith("eval:")]
    bodies = [
        student.get(path).content.decode()
        for path in (
            "/api/cases/",
            f"/api/cases/{seed['id']}/",
            "/api/trials/",
            f"/api/trials/{trial.pk}/",
            f"/api/trials/{trial.pk}/transcript/",
        )
    ]
    assert all(bodies)
    assert not [canary for canary in hidden for body in bodies if canary in body]


def test_the_api_refuses_a_seat_the_lobby_does_not_offer(student, instructor):
    """Hardening #7: POST seats {"seat": "stenographer"} succeeded; the trial then waited on a person."""
    cases_import(paths=[DEMO_CASES / "en-criminal-telecom-fraud.json"])
    case = Case.objects.get(pk="en-criminal-telecom-fraud")
    trial = trial_create(
        live=True, case=case, humans={"attorney": person("student", Role.STUDENT)}, created_by=person("instructor")
    )
    for client in (student, instructor):
        response = client.post(f"/api/trials/{trial.pk}/seats/", {"seat": "stenographer"}, format="json")
        assert response.status_code == 400 and "stenographer" in response.json()["detail"]
    assert trial.seats.get(seat="stenographer").user is None
