"""Courses and assignments as a student meets them: joining with a code, starting and
continuing an attempt, the attempts allowed, and the status shown on "My assignments"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from classroom.assignments import assignment_create, assignment_start, pair_set, pairs_make
from classroom.models import Attempt, Course
from classroom.selectors import Status, assignments_of_student
from classroom.services import ClassroomError, course_create, course_enrol, course_join, invite_code_regenerate
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import
from trials.store import trial_finished

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


@pytest.fixture
def course() -> Course:
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    course = course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    course_enrol(course=course, usernames=[person("ann", Role.STUDENT).username])
    return course


def assign(course: Course, **kwargs):
    return assignment_create(
        course=course, case=Case.objects.get(pk=CASE), seats=["plaintiff_lawyer"], stages=["LC"], **kwargs
    )


def finish(trial: Trial, when) -> None:
    """What the store does when a trial's last step is stored."""
    Trial.objects.filter(pk=trial.pk).update(status=Trial.Status.FINISHED, finished_at=when)
    trial.refresh_from_db()
    trial_finished.send(sender=Trial, trial=trial)


def row(user):
    [only] = assignments_of_student(user=user)
    return only


def test_a_student_joins_with_the_invite_code_and_an_old_code_stops_working(course):
    bob = person("bob", Role.STUDENT)
    old = course.invite_code
    assert course_join(code=old.lower(), user=bob) == course
    assert course.enrolments.filter(user=bob).exists()
    invite_code_regenerate(course=course)
    with pytest.raises(ClassroomError, match="no course has this invite code"):
        course_join(code=old, user=person("cy", Role.STUDENT))


def test_starting_gives_the_student_the_seat_in_a_trial_of_the_course(course):
    ann = person("ann")
    assignment = assign(course)
    attempt = assignment_start(assignment=assignment, student=ann)
    trial = attempt.trial
    assert trial.course == course
    assert trial.seats.get(seat="plaintiff_lawyer").user == ann
    assert trial.seats.exclude(seat="plaintiff_lawyer").filter(user__isnull=False).count() == 0
    assert row(ann).status == Status.IN_PROGRESS
    assert assignment_start(assignment=assignment, student=ann) == attempt, "Start twice continues the attempt"


def test_no_attempt_beyond_the_number_allowed(course):
    ann = person("ann")
    assignment = assign(course, attempts=2)
    first = assignment_start(assignment=assignment, student=ann)
    finish(first.trial, timezone.now())
    second = assignment_start(assignment=assignment, student=ann)
    assert (first.number, second.number) == (1, 2)
    finish(second.trial, timezone.now())
    with pytest.raises(ClassroomError, match="used the 2 attempt"):
        assignment_start(assignment=assignment, student=ann)
    assert Attempt.objects.count() == 2
    assert not row(ann).can_start


def test_an_assignment_cannot_be_started_before_it_opens_or_by_someone_not_enrolled(course):
    assignment = assign(course, opens_at=timezone.now() + timedelta(days=1))
    with pytest.raises(ClassroomError, match="opens at"):
        assignment_start(assignment=assignment, student=person("ann"))
    with pytest.raises(ClassroomError, match="not enrolled"):
        assignment_start(assignment=assign(course), student=person("mallory", Role.STUDENT))
    assert not Trial.objects.exists()


def test_status_submitted_on_time_late_and_overdue(course):
    ann = person("ann")
    now = timezone.now()
    assignment = assign(course, opens_at=now - timedelta(days=2), due_at=now + timedelta(days=1))
    assert row(ann).status == Status.NOT_STARTED
    attempt = assignment_start(assignment=assignment, student=ann)
    finish(attempt.trial, now)
    attempt.refresh_from_db()
    assert attempt.submitted_at == now
    assert row(ann).status == Status.SUBMITTED
    assignment.due_at = now - timedelta(hours=1)
    assignment.save(update_fields=["due_at"])
    assert row(ann).status == Status.LATE, "submitted after the due date"
    Attempt.objects.all().delete()
    assert row(ann).status == Status.LATE, "nothing submitted by the due date"


def test_a_student_sees_only_the_assignments_of_their_courses(course):
    assign(course)
    other = course_create(slug="other", title="Other", instructor=person("prof"))
    person("bob", Role.STUDENT)
    course_enrol(course=other, usernames=["bob"])
    assert [r.assignment.course for r in assignments_of_student(user=person("ann"))] == [course]
    assert assignments_of_student(user=person("bob")) == []


def test_the_assignments_agents_are_the_backend_the_instructor_chose(course, openai_settings, llm_server):
    """The server's default is the scripted backend; an assignment set to LLM agents plays
    the student against models (the loopback server here)."""
    attempt = assignment_start(assignment=assign(course, backend="openai"), student=person("ann"))
    assert attempt.trial.backend == "openai"
    assert attempt.trial.seats.get(seat="judge").agent_model == "env-model"
    assert assignment_start(assignment=assign(course), student=person("ann")).trial.backend == "scripted"


def paired_assignment(course: Course):
    for name in ("bob", "cy", "dee"):
        course_enrol(course=course, usernames=[person(name, Role.STUDENT).username])
    return assignment_create(
        course=course,
        case=Case.objects.get(pk=CASE),
        seats=["plaintiff_lawyer", "defendant_lawyer"],
        stages=["FIT"],
        paired=True,
    )


def test_the_app_pairs_the_class_in_enrolment_order_and_the_odd_one_out_faces_an_agent(course):
    assignment = paired_assignment(course)
    with pytest.raises(ClassroomError, match="not paired you"):
        assignment_start(assignment=assignment, student=person("ann"))
    pairs = pairs_make(assignment=assignment)
    assert [(pair.first.username, pair.second and pair.second.username) for pair in pairs] == [
        ("ann", "bob"),
        ("cy", "dee"),
    ]
    course_enrol(course=course, usernames=[person("eve", Role.STUDENT).username])
    [late] = pairs_make(assignment=assignment)
    assert (late.first.username, late.second) == ("eve", None), "only the unpaired are paired again"
    trial = assignment_start(assignment=assignment, student=person("eve")).trial
    assert trial.seats.get(seat="plaintiff_lawyer").user.username == "eve"
    assert trial.seats.get(seat="defendant_lawyer").user is None, "an agent plays the other side"


def test_a_pair_plays_one_trial_as_opposing_counsel(course):
    assignment = paired_assignment(course)
    pair_set(assignment=assignment, first="dee", second="ann")
    with pytest.raises(ClassroomError, match="already paired: ann"):
        pair_set(assignment=assignment, first="ann", second="bob")
    with pytest.raises(ClassroomError, match="not enrolled"):
        pair_set(assignment=assignment, first="bob", second=person("zed", Role.STUDENT).username)
    started = assignment_start(assignment=assignment, student=person("ann"))
    trial = started.trial
    assert {seat.seat: seat.user.username for seat in trial.seats.filter(user__isnull=False)} == {
        "plaintiff_lawyer": "dee",
        "defendant_lawyer": "ann",
    }
    partner = assignment_start(assignment=assignment, student=person("dee"))
    assert partner.trial == trial and partner != started, (
        "the partner continues the same trial, in an attempt of her own"
    )
    assert row(person("dee")).status == Status.IN_PROGRESS
    finish(trial, timezone.now())
    assert Attempt.objects.filter(trial=trial, submitted_at__isnull=False).count() == 2, "both submitted"
