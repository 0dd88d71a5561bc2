"""Reads of the classroom: who teaches and studies what, and where each student stands."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet
from django.utils import timezone

from classroom.models import Assignment, Attempt, Course, Enrolment
from legalsim.roles import Ability, can


class Status(StrEnum):
    NOT_STARTED = "not started"
    IN_PROGRESS = "in progress"
    SUBMITTED = "submitted"
    LATE = "late"


def courses_taught(*, user: AbstractBaseUser) -> QuerySet[Course]:
    """The courses ``user`` teaches; every course for an admin."""
    courses = Course.objects.annotate(student_count=Count("enrolments", distinct=True))
    return courses if can(user, Ability.ADMINISTER) else courses.filter(instructors=user)


def courses_enrolled(*, user: AbstractBaseUser) -> QuerySet[Course]:
    return Course.objects.filter(enrolments__user=user).distinct()


def course_taught_by(*, slug: str, user: AbstractBaseUser) -> Course | None:
    """The course, if ``user`` teaches it (or administers); None otherwise."""
    return courses_taught(user=user).filter(slug=slug).first()


def course_roster(*, course: Course) -> QuerySet[Enrolment]:
    return course.enrolments.select_related("user").order_by("user__username")


def assignment_status(*, assignment: Assignment, attempts: list[Attempt], now: datetime | None = None) -> Status:
    """Where a student stands on an assignment, from their attempts (oldest first): a
    submission before the due date (or with none) is submitted; one after it, or none by
    then, is late."""
    now = now or timezone.now()
    due = assignment.due_at
    submitted = [attempt.submitted_at for attempt in attempts if attempt.submitted_at is not None]
    if submitted:
        return Status.SUBMITTED if due is None or min(submitted) <= due else Status.LATE
    if due is not None and now > due:
        return Status.LATE
    return Status.IN_PROGRESS if attempts else Status.NOT_STARTED


@dataclass(frozen=True)
class AssignmentRow:
    assignment: Assignment
    status: Status
    attempts: list[Attempt]
    current: Attempt | None
    """The attempt in progress (Continue), if any."""
    can_start: bool
    opened: bool


def assignments_of_student(*, user: AbstractBaseUser, now: datetime | None = None) -> list[AssignmentRow]:
    """The assignments of every course ``user`` is enrolled in, with their status and what
    they may do next (continue the attempt in progress, start a new one)."""
    now = now or timezone.now()
    assignments = (
        Assignment.objects.filter(course__enrolments__user=user)
        .select_related("course", "case")
        .order_by("due_at", "opens_at", "id")
    )
    attempts: dict[int, list[Attempt]] = {}
    for attempt in Attempt.objects.filter(student=user).select_related("trial").order_by("number"):
        attempts.setdefault(attempt.assignment_id, []).append(attempt)
    rows = []
    for assignment in assignments:
        mine = attempts.get(assignment.pk, [])
        current = next((attempt for attempt in mine if attempt.submitted_at is None), None)
        opened = now >= assignment.opens_at
        rows.append(
            AssignmentRow(
                assignment=assignment,
                status=assignment_status(assignment=assignment, attempts=mine, now=now),
                attempts=mine,
                current=current,
                can_start=opened
                and not assignment.paired
                and current is None
                and len(mine) < assignment.attempts_allowed,
                opened=opened,
            )
        )
    return rows


def assignment_progress(*, assignment: Assignment, now: datetime | None = None) -> list[tuple[Enrolment, Status]]:
    """Each enrolled student's status on ``assignment`` (the course page)."""
    attempts: dict[int, list[Attempt]] = {}
    for attempt in assignment.attempts.order_by("number"):
        attempts.setdefault(attempt.student_id, []).append(attempt)
    return [
        (enrolment, assignment_status(assignment=assignment, attempts=attempts.get(enrolment.user_id, []), now=now))
        for enrolment in course_roster(course=assignment.course)
    ]
