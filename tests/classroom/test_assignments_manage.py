"""Issue 32, items 5, 10 and 12 as an instructor and a student meet them on the pages:
grades released to the student, assignments edited and deleted, students unenrolled, a
student's extension, errors beside the fields, the gradebook's names and scale, a roster
that names an existing account differently."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.assignments import assignment_create, assignment_start
from classroom.gradebook import gradebook_build
from classroom.grades import grade_save, grades_release
from classroom.models import Assignment, Attempt, Course, Enrolment, Extension, Grade
from classroom.selectors import Status, assignments_of_student
from classroom.services import course_create, course_enrol
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import, trial_continue

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


@pytest.fixture
def course() -> Course:
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    course = course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    for name, full in (("ann", "Ann Lee"), ("bob", "Bob Ma")):
        user = person(name, Role.STUDENT)
        user.first_name, user.last_name, user.email = *full.split(), f"{name}@example.org"
        user.save()
    course_enrol(course=course, usernames=["ann", "bob"])
    return course


@pytest.fixture
def assignment(course: Course) -> Assignment:
    now = timezone.now()
    return assignment_create(
        course=course,
        case=Case.objects.get(pk=CASE),
        seats=["plaintiff_lawyer"],
        stages=["LC"],
        opens_at=now - timedelta(days=3),
        due_at=now - timedelta(hours=1),
        title="Consultation",
    )


def signed_in(name: str) -> Client:
    client = Client()
    client.force_login(person(name))
    return client


def page(response) -> str:
    return response.content.decode()


def finished(assignment: Assignment, name: str) -> Attempt:
    attempt = assignment_start(assignment=assignment, student=person(name))
    trial_continue(trial=attempt.trial)
    attempt.refresh_from_db()
    return attempt


# Item 5: grades and feedback reach the student


def test_a_grade_reaches_the_student_only_once_released_and_is_announced_until_seen(assignment):
    ann, prof = person("ann"), person("prof")
    grade_save(assignment=assignment, student=ann, grade=85, feedback="Ask about the bills first.", by=prof)
    student = signed_in("ann")
    mine = reverse("classroom:my_assignment", args=[assignment.pk])
    assert "Ask about the bills" not in page(student.get(mine))
    assert "Not released yet" in page(student.get(mine))
    assert 'id="feedback-unread"' not in page(student.get(reverse("classroom:my_assignments")))

    instructor = signed_in("prof")
    released = instructor.post(reverse("classroom:grades_release", args=["civ", assignment.pk]))
    assert released.status_code == 302
    assert Grade.objects.get().released_at is not None

    listing = page(student.get(reverse("classroom:my_assignments")))
    assert '<span class="badge" id="feedback-unread" title="unread comments">1</span>' in listing
    assert "85" in listing and '<span class="badge">new</span>' in listing
    shown = page(student.get(mine))
    assert '<strong id="grade-value">85</strong>' in shown and "Ask about the bills first." in shown
    assert 'id="feedback-unread"' not in page(student.get(mine)), "seen: the notice goes"
    assert "Ask about the bills" in page(student.get(reverse("classroom:feedback")))

    grade_save(assignment=assignment, student=ann, grade=88, feedback="Ask about the bills first.", by=prof)
    again = page(student.get(reverse("classroom:my_assignments")))
    assert 'id="feedback-unread"' in again and "88" in again, "a grade changed after release is announced again"
    bob = signed_in("bob")
    assert "Ask about the bills" not in page(bob.get(reverse("classroom:feedback")))
    assert bob.get(mine).status_code == 200 and "Ask about the bills" not in page(bob.get(mine))


def test_a_grade_is_released_to_one_student_and_withheld_again(assignment):
    prof = person("prof")
    for name in ("ann", "bob"):
        grade_save(assignment=assignment, student=person(name), grade=70, feedback="", by=prof)
    instructor = signed_in("prof")
    cell = instructor.post(
        reverse("classroom:grades_release", args=["civ", assignment.pk]),
        {"student": person("ann").pk},
        HTTP_HX_REQUEST="true",
    )
    assert 'id="cell-' in page(cell) and "released; not seen yet" in page(cell)
    assert [row.grade is not None for row in assignments_of_student(user=person("ann"))] == [True]
    assert [row.grade is not None for row in assignments_of_student(user=person("bob"))] == [False]
    instructor.post(
        reverse("classroom:grades_release", args=["civ", assignment.pk]),
        {"student": person("ann").pk, "withhold": "1"},
    )
    assert [row.grade for row in assignments_of_student(user=person("ann"))] == [None]
    assert grades_release(assignment=assignment) == 2


def test_a_student_of_another_course_cannot_open_the_assignment_page(assignment):
    person("mallory", Role.STUDENT)
    assert signed_in("mallory").get(reverse("classroom:my_assignment", args=[assignment.pk])).status_code == 404
    assert signed_in("ann").get(reverse("classroom:grades_release", args=["civ", assignment.pk])).status_code in (
        403,
        404,
        405,
    )


# Item 10: the assignment form


def test_a_refused_assignment_says_why_beside_the_field_in_plain_words_and_keeps_what_was_typed(course):
    response = signed_in("prof").post(
        reverse("classroom:assignment_create", args=["civ"]),
        {
            "case": CASE,
            "title": "Week 3 hearing",
            "seats": ["prosecutor"],
            "stages": ["FIT", "SIT"],
            "attempts": "3",
            "due_at": "2030-05-01T12:00",
        },
    )
    body = page(response)
    assert response.status_code == 400 and not Assignment.objects.exists()
    assert (
        '<p class="error field-error" id="error-seats" role="alert">seats: Public prosecutor cannot be played in a '
        "civil case; its seats: Counsel for the plaintiff, Counsel for the defendant" in body
    )
    assert "prosecutor cannot" not in body.replace("Public prosecutor cannot", ""), "no seat id in the message"
    assert 'name="title" value="Week 3 hearing"' in body and 'name="attempts" min="1" value="3"' in body
    assert 'name="due_at" value="2030-05-01T12:00"' in body
    assert 'value="FIT" checked' in body and 'value="SIT" checked' in body and 'value="LC" checked' not in body
    assert "> First-instance trial</label>" in body, "stages are ticked by their names"


def test_stages_of_another_procedure_are_refused_by_name(course):
    response = signed_in("prof").post(
        reverse("classroom:assignment_create", args=["civ"]),
        {"case": CASE, "seats": ["judge"], "stages": ["evidence"]},
    )
    assert response.status_code == 400
    assert "stages: a civil case has no stage Evidence (evidence)" in page(response)
    assert 'id="error-stages"' in page(response)


def test_an_assignment_is_edited_and_its_seats_stay_once_started(assignment):
    instructor = signed_in("prof")
    edit = reverse("classroom:assignment_edit", args=["civ", assignment.pk])
    assert "Consultation" in page(instructor.get(edit))
    saved = instructor.post(
        edit,
        {"title": "Consultation (week 2)", "seats": ["plaintiff_lawyer"], "stages": ["LC"], "attempts": "2",
         "opens_at": "2020-01-01T09:00", "due_at": "2030-01-01T09:00"},
    )  # fmt: skip
    assert saved.status_code == 302
    assignment.refresh_from_db()
    assert (assignment.title, assignment.attempts_allowed, assignment.due_at.year) == ("Consultation (week 2)", 2, 2030)

    assignment_start(assignment=assignment, student=person("ann"))
    refused = instructor.post(
        edit,
        {"title": "x", "seats": ["defendant_lawyer"], "stages": ["LC"], "attempts": "2", "due_at": "2030-01-01T09:00"},
    )
    assert refused.status_code == 400
    assert "students have started this assignment; its seats and stages stay as they are" in page(refused)
    assert 'id="error-seats"' in page(refused)
    assignment.refresh_from_db()
    assert assignment.seats == ["plaintiff_lawyer"] and assignment.title == "Consultation (week 2)"


def test_deleting_an_assignment_asks_first_says_what_happens_and_keeps_the_trials(assignment):
    attempt = finished(assignment, "ann")
    instructor = signed_in("prof")
    delete = reverse("classroom:assignment_delete", args=["civ", assignment.pk])
    confirm = page(instructor.get(delete))
    assert "Delete “Consultation”?" in confirm and "Its 1 attempt by 1 student leaves the gradebook" in confirm
    assert "The trials played stay" in confirm and Assignment.objects.exists()
    done = instructor.post(delete, follow=True)
    assert "Deleted “Consultation” and its 1 attempt; the trials stay readable." in page(done)
    assert not Assignment.objects.exists() and not Attempt.objects.exists()
    assert Trial.objects.filter(pk=attempt.trial_id).exists()
    assert signed_in("ann").get(reverse("trials:trial_transcript", args=[attempt.trial_id])).status_code == 200


def test_an_assignment_nobody_attempted_says_so_in_words_not_zero_counts(assignment):
    """Issue 44 item 6: "0 attempt(s) by 0 student(s)"."""
    instructor = signed_in("prof")
    delete = reverse("classroom:assignment_delete", args=["civ", assignment.pk])
    confirm = page(instructor.get(delete))
    assert "No student has attempted it yet" in confirm and "(s)" not in confirm and " 0 " not in confirm
    assert "nobody had attempted it" in page(instructor.post(delete, follow=True))
    unenrol = page(instructor.get(reverse("classroom:course_unenrol", args=["civ", person("bob").pk])))
    assert "They have attempted nothing in this course yet." in unenrol and "(s)" not in unenrol


def test_a_student_is_unenrolled_after_a_confirmation_and_keeps_their_work(assignment):
    attempt = finished(assignment, "ann")
    instructor = signed_in("prof")
    unenrol = reverse("classroom:course_unenrol", args=["civ", person("ann").pk])
    confirm = page(instructor.get(unenrol))
    assert "Unenrol ann?" in confirm and "Their 1 attempt, the trial played and any grade are kept" in confirm
    assert Enrolment.objects.filter(user__username="ann").exists()
    instructor.post(unenrol)
    assert not Enrolment.objects.filter(user__username="ann").exists()
    assert "Consultation" not in page(signed_in("ann").get(reverse("classroom:my_assignments")))
    assert [student.username for student, _cells in gradebook_build(course=assignment.course).rows] == ["bob"]
    assert Attempt.objects.filter(pk=attempt.pk).exists()
    course_enrol(course=assignment.course, usernames=["ann"])
    first_row = gradebook_build(course=assignment.course).rows[0]
    assert first_row[0].username == "ann" and first_row[1][0].attempt == attempt


def test_an_extension_moves_one_students_due_date_and_status(assignment):
    ann = person("ann")
    assert [row.status for row in assignments_of_student(user=ann)] == [Status.LATE]
    later = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    response = signed_in("prof").post(
        reverse("classroom:assignment_extension", args=["civ", assignment.pk]),
        {"student": ann.pk, "due_at": later},
        follow=True,
    )
    assert response.status_code == 200 and "ann may submit Consultation until" in page(response)
    [row] = assignments_of_student(user=ann)
    assert row.status == Status.NOT_STARTED and row.due_at == Extension.objects.get().due_at
    assert [row.status for row in assignments_of_student(user=person("bob"))] == [Status.LATE]
    cells = {cell.student.username: cell for cell in gradebook_build(course=assignment.course).cells}
    assert cells["ann"].late_by is None and cells["bob"].late_by is not None
    assert "your extension" in page(signed_in("ann").get(reverse("classroom:my_assignments")))
    signed_in("prof").post(
        reverse("classroom:assignment_extension", args=["civ", assignment.pk]), {"student": ann.pk, "due_at": ""}
    )
    assert [row.status for row in assignments_of_student(user=ann)] == [Status.LATE]


def test_dates_name_their_time_zone(assignment):
    body = page(signed_in("ann").get(reverse("classroom:my_assignments")))
    local = timezone.localtime(assignment.due_at)
    assert f'<time datetime="{assignment.due_at.isoformat()}" data-local>' in body
    assert f"{local:%H:%M}" in body or "UTC</time>" in body
    assert "UTC</time>" in body and "classroom/local-time.js" in body


def test_the_course_page_offers_watch_for_an_attempt_in_progress(assignment):
    attempt = assignment_start(assignment=assignment, student=person("ann"))
    body = page(signed_in("prof").get(reverse("classroom:course", args=["civ"])))
    assert f'<a href="/trials/{attempt.trial_id}/" class="watch">Watch</a>' in body
    trial_continue(trial=attempt.trial)
    body = page(signed_in("prof").get(reverse("classroom:course", args=["civ"])))
    assert 'class="watch"' not in body, "a finished attempt has nothing to watch"


def test_the_gradebook_export_names_each_student_and_states_one_scale(assignment):
    finished(assignment, "ann")
    instructor = signed_in("prof")
    rows = list(
        csv.DictReader(io.StringIO(page(instructor.get(reverse("classroom:gradebook_download", args=["civ", "csv"])))))
    )
    assert {(row["student"], row["full_name"], row["email"]) for row in rows} == {
        ("ann", "Ann Lee", "ann@example.org"),
        ("bob", "Bob Ma", "bob@example.org"),
    }
    gradebook = page(instructor.get(reverse("classroom:gradebook", args=["civ"])))
    assert "(0-1)" not in gradebook, "the page shows overall out of 10"
    assert "out of 10" in gradebook and '<span class="muted">/10</span>' in gradebook


# Item 12: a roster naming an existing account differently


def test_a_roster_that_names_an_existing_account_differently_says_so(
    course, tmp_path, tasks_in_process, django_capture_on_commit_callbacks
):
    roster = SimpleUploadedFile(
        "r.csv", b"username,email,full_name\nann,ann.lee@uni.example,Ann Li\nbob,bob@example.org,Bob Ma\n"
    )
    prof = signed_in("prof")
    with django_capture_on_commit_callbacks(execute=True):
        sent = prof.post(reverse("classroom:course_roster", args=["civ"]), {"roster": roster})
    body = page(prof.get(sent["Location"]))
    assert "Accounts kept as they are" in body
    assert "e-mail ann.lee@uni.example in the roster, ann@example.org on the account" in body
    assert "name Ann Li in the roster, Ann Lee on the account" in body
    assert "<strong>bob</strong>" not in body, "an account the roster agrees with is not listed"
    path = tmp_path / "roster.csv"
    path.write_text("username,email,full_name\nann,ann.lee@uni.example,Ann Lee\n")
    out = io.StringIO()
    call_command("course_enrol", "civ", "--csv", str(path), stdout=out)
    assert "ann has an account already, kept as it is: e-mail ann.lee@uni.example in the roster" in out.getvalue()
