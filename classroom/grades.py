"""Writes of grades: the instructor's grade and feedback for a student on an assignment, their
release to the student (or withholding), the student having seen them, and which attempt the
course's gradebook shows."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.models import Assignment, Course, Enrolment, Grade, GradebookAttempt
from classroom.services import ClassroomError

FEEDBACK_MAX_CHARS = 20_000


SHOWN_CHARS = 40
"""How much of a refused value an error repeats: a 300,000-character value named in full made
a 400 page of the whole gradebook megabytes long."""


def gradebook_attempt_set(*, course: Course, choice: str) -> Course:
    """Which attempt the course's gradebook shows: ``latest`` or ``best``."""
    if choice not in GradebookAttempt.values:
        shown = choice if len(choice) <= SHOWN_CHARS else f"{choice[:SHOWN_CHARS]}…"
        raise ClassroomError(
            _("attempt %(choice)r: one of %(choices)s")
            % {"choice": shown, "choices": ", ".join(GradebookAttempt.values)}
        )
    course.gradebook_attempt = choice
    course.save(update_fields=["gradebook_attempt"])
    return course


def grade_parse(text: str) -> Decimal | None:
    """A grade typed in a form: blank is no grade; otherwise a number from 0 to 100 with at
    most two decimals."""
    text = text.strip().replace(",", ".")
    if not text:
        return None
    try:
        grade = Decimal(text)
    except InvalidOperation:
        raise ClassroomError(_("grade %(grade)r: a number from 0 to 100, or blank") % {"grade": text}) from None
    if not grade.is_finite() or not 0 <= grade <= 100:
        raise ClassroomError(_("grade %(grade)r: a number from 0 to 100, or blank") % {"grade": text})
    if grade != grade.quantize(Decimal("0.01")):
        raise ClassroomError(_("grade %(grade)r: at most two decimals") % {"grade": text})
    return grade


def grade_save(
    *, assignment: Assignment, student: AbstractBaseUser, grade: Decimal | None, feedback: str, by: AbstractBaseUser
) -> Grade:
    """The instructor's grade (0-100 or none) and written feedback for a student enrolled in
    the assignment's course; saving again replaces both."""
    if grade is not None and not 0 <= grade <= 100:
        raise ClassroomError(_("grade: a number from 0 to 100, or blank"))
    feedback = feedback.strip()
    if len(feedback) > FEEDBACK_MAX_CHARS:
        raise ClassroomError(_("feedback: at most %(limit)d characters") % {"limit": FEEDBACK_MAX_CHARS})
    if not Enrolment.objects.filter(course_id=assignment.course_id, user=student).exists():
        raise ClassroomError(_("%(username)s is not enrolled in this course") % {"username": student.get_username()})
    saved = Grade.objects.filter(assignment=assignment, student=student).first()
    if saved is not None and (saved.grade, saved.feedback) == (grade, feedback):
        return saved
    saved, _created = Grade.objects.update_or_create(
        assignment=assignment,
        student=student,
        defaults={"grade": grade, "feedback": feedback, "graded_by": by, "seen_at": None},
    )
    return saved


def grades_release(*, assignment: Assignment, student: AbstractBaseUser | None = None) -> int:
    """Release the saved grades and feedback of an assignment (or of one student on it) to
    the students: each sees theirs on the assignment's page and on My assignments, with a
    notice in the nav until they have seen it. A grade changed after its release is shown
    changed and noticed again. The number of grades newly released."""
    grades = Grade.objects.filter(assignment=assignment, released_at__isnull=True)
    if student is not None:
        grades = grades.filter(student=student)
    grades = grades.exclude(grade__isnull=True, feedback="")
    return grades.update(released_at=timezone.now(), seen_at=None)


def grades_withhold(*, assignment: Assignment, student: AbstractBaseUser) -> int:
    """Take a released grade back: the student no longer sees it."""
    return Grade.objects.filter(assignment=assignment, student=student).update(released_at=None, seen_at=None)


def grades_seen(*, user: AbstractBaseUser, grades: list[Grade]) -> int:
    """Mark the released grades a student has now seen (their notice goes)."""
    unseen = [grade.pk for grade in grades if grade.released_at is not None and grade.seen_at is None]
    if not unseen:
        return 0
    return Grade.objects.filter(pk__in=unseen, student=user, seen_at__isnull=True).update(seen_at=timezone.now())
