"""Reads of the classroom: who teaches and studies what, where each student stands on an
assignment, and the comments and grades a student has to read. The gradebook is
``classroom.gradebook``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from functools import cached_property

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy

from classroom.models import Assignment, Attempt, Course, Enrolment, Extension, Grade, TurnComment
from court.engine.state import TrialState
from legalsim.roles import Ability, can
from trials.access import trial_overseer
from trials.models import Trial


def course_language_default() -> str:
    """The language a new course starts in: the interface's (``zh-hans`` is 中文), English
    for any language a course cannot have."""
    code = (get_language() or "").split("-")[0]
    return code if code in Course.Language.values else Course.Language.EN.value


class Status(StrEnum):
    """Where a student stands on an assignment. The value is the export's ``status`` (kept in
    English); ``label`` is what a page shows, in the interface's language."""

    NOT_STARTED = "not started"
    IN_PROGRESS = "in progress"
    SUBMITTED = "submitted"
    LATE = "late"

    @property
    def label(self) -> str:
        return str(STATUS_LABELS[self])


STATUS_LABELS = {
    Status.NOT_STARTED: gettext_lazy("not started"),
    Status.IN_PROGRESS: gettext_lazy("in progress"),
    Status.SUBMITTED: gettext_lazy("submitted"),
    Status.LATE: gettext_lazy("late"),
}


def courses_taught(*, user: AbstractBaseUser) -> QuerySet[Course]:
    """The courses ``user`` teaches; every course for an admin."""
    courses = Course.objects.annotate(student_count=Count("enrolments", distinct=True))
    return courses if can(user, Ability.ADMINISTER) else courses.filter(instructors=user)


def courses_enrolled(*, user: AbstractBaseUser) -> QuerySet[Course]:
    return Course.objects.filter(enrolments__user=user).distinct()


def course_taught_by(*, slug: str, user: AbstractBaseUser) -> Course | None:
    """The course, if ``user`` teaches it (or administers); None otherwise."""
    return courses_taught(user=user).filter(slug=slug).first()


def course_instructor(*, course: Course, user: AbstractBaseUser) -> bool:
    """Whether ``user`` teaches ``course`` (an admin who does not is no instructor of it)."""
    return user.is_authenticated and course.instructors.filter(pk=user.pk).exists()


def course_roster(*, course: Course) -> QuerySet[Enrolment]:
    return course.enrolments.select_related("user").order_by("user__username")


def enrolled_student(*, course: Course, posted: str | None) -> AbstractBaseUser | None:
    """The student of ``course`` whose id a form posted, or None (nothing posted, not a
    number, or not enrolled): a form's ``student=abc`` is a wrong choice, not a 500."""
    if not posted or not posted.isdigit():
        return None
    return get_user_model().objects.filter(pk=int(posted), enrolments__course=course).first()


def assignment_status(
    *,
    assignment: Assignment,
    attempts: list[Attempt],
    now: datetime | None = None,
    extension: Extension | None = None,
) -> Status:
    """Where a student stands on an assignment, from their attempts (oldest first): a
    submission before the due date (or with none) is submitted; one after it, or none by
    then, is late. The due date is the student's extension, if they have one."""
    now = now or timezone.now()
    due = extension.due_at if extension is not None else assignment.due_at
    submitted = [attempt.submitted_at for attempt in attempts if attempt.submitted_at is not None]
    if submitted:
        return Status.SUBMITTED if due is None or min(submitted) <= due else Status.LATE
    if due is not None and now > due:
        return Status.LATE
    return Status.IN_PROGRESS if attempts else Status.NOT_STARTED


def extensions_of(*, assignments: list[Assignment] | QuerySet[Assignment]) -> dict[tuple[int, int], Extension]:
    """The extensions granted on ``assignments``, by (assignment id, student id)."""
    return {
        (extension.assignment_id, extension.student_id): extension
        for extension in Extension.objects.filter(assignment__in=list(assignments))
    }


@dataclass(frozen=True)
class AssignmentRow:
    assignment: Assignment
    status: Status
    attempts: list[Attempt]
    current: Attempt | None
    """The attempt in progress (Continue), if any."""
    can_start: bool
    opened: bool
    extension: Extension | None = None
    grade: Grade | None = None
    """The instructor's grade and feedback, once released (never before)."""

    @property
    def due_at(self) -> datetime | None:
        """The student's due date: their extension's, or the assignment's."""
        return self.extension.due_at if self.extension is not None else self.assignment.due_at

    @property
    def grade_new(self) -> bool:
        return self.grade is not None and self.grade.seen_at is None


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
    extensions = {extension.assignment_id: extension for extension in Extension.objects.filter(student=user)}
    grades = {grade.assignment_id: grade for grade in grades_released_to(user=user)}
    rows = []
    for assignment in assignments:
        mine = attempts.get(assignment.pk, [])
        current = next((attempt for attempt in mine if attempt.submitted_at is None), None)
        opened = now >= assignment.opens_at
        extension = extensions.get(assignment.pk)
        rows.append(
            AssignmentRow(
                assignment=assignment,
                status=assignment_status(assignment=assignment, attempts=mine, now=now, extension=extension),
                attempts=mine,
                current=current,
                can_start=opened and current is None and len(mine) < assignment.attempts_allowed,
                opened=opened,
                extension=extension,
                grade=grades.get(assignment.pk),
            )
        )
    return rows


def assignment_of_student(*, user: AbstractBaseUser, assignment_id: int) -> AssignmentRow | None:
    """One row of ``assignments_of_student`` (the student's page of the assignment); None
    when the assignment is not of a course they are enrolled in."""
    return next((row for row in assignments_of_student(user=user) if row.assignment.pk == assignment_id), None)


def grades_released_to(*, user: AbstractBaseUser) -> QuerySet[Grade]:
    """The grades released to ``user`` in the courses they are enrolled in, newest first."""
    return (
        Grade.objects.filter(student=user, released_at__isnull=False, assignment__course__enrolments__user=user)
        .select_related("assignment__course")
        .order_by("-released_at", "-id")
    )


@dataclass(frozen=True)
class Progress:
    """One enrolled student on one assignment (the course page): status, extension and the
    attempt in progress, which the instructor may watch."""

    enrolment: Enrolment
    status: Status
    extension: Extension | None
    playing: Attempt | None


def assignment_progress(*, assignment: Assignment, now: datetime | None = None) -> list[Progress]:
    """Each enrolled student's status on ``assignment`` (the course page)."""
    attempts: dict[int, list[Attempt]] = {}
    for attempt in assignment.attempts.select_related("trial").order_by("number"):
        attempts.setdefault(attempt.student_id, []).append(attempt)
    extensions = extensions_of(assignments=[assignment])
    rows = []
    for enrolment in course_roster(course=assignment.course):
        mine = attempts.get(enrolment.user_id, [])
        extension = extensions.get((assignment.pk, enrolment.user_id))
        rows.append(
            Progress(
                enrolment=enrolment,
                status=assignment_status(assignment=assignment, attempts=mine, now=now, extension=extension),
                extension=extension,
                playing=attempt_being_played(mine),
            )
        )
    return rows


def attempt_being_played(attempts: list[Attempt]) -> Attempt | None:
    """The attempt being played (its trial not finished), which an overseer may watch."""
    return next(
        (
            attempt
            for attempt in reversed(attempts)
            if attempt.submitted_at is None and attempt.trial.status != Trial.Status.FINISHED
        ),
        None,
    )


@dataclass(frozen=True)
class TrialFeedback:
    """The comments on one trial as one reader sees them: by turn or document, and whether they may
    comment (an overseer) or reply (a student seated in it)."""

    trial: Trial
    comments: list[TurnComment]
    can_comment: bool
    can_reply: bool
    replyable: frozenset[int] = frozenset()
    """The comments the reader may answer: those on their own turns and on agents' turns."""

    @cached_property
    def state(self) -> TrialState:
        return self.trial.engine_state

    def on_turn(self, seq: int) -> list[TurnComment]:
        return [comment for comment in self.comments if comment.seq == seq and not comment.document]

    def on_document(self, seq: int, kind: str) -> list[TurnComment]:
        """The comments on the document of ``kind`` that turn ``seq`` filed."""
        return [comment for comment in self.comments if comment.seq == seq and comment.document == kind]


def trial_feedback(*, trial: Trial, user: AbstractBaseUser) -> TrialFeedback:
    """What the transcript and scorecard show of the comments, for a reader of the trial
    (the page has checked that they may read it)."""
    seated = user.is_authenticated and trial.seats.filter(user=user).exists()
    comments = list(TurnComment.objects.filter(trial=trial).select_related("author", "replied_by", "student"))
    return TrialFeedback(
        trial=trial,
        comments=comments,
        can_comment=trial_overseer(trial, user),
        can_reply=bool(seated),
        replyable=frozenset(comment.pk for comment in comments if seated and comment.student_id in (None, user.pk)),
    )


def feedback_for_student(*, user: AbstractBaseUser) -> QuerySet[TurnComment]:
    """Comments on the turns ``user`` played (and on agents' turns) of the trials they are
    seated in, newest first (the "Feedback" page): a partner's comments are the partner's."""
    return (
        TurnComment.objects.filter(trial__in=Trial.objects.filter(seats__user=user))
        .filter(Q(student=user) | Q(student__isnull=True))
        .select_related("trial__case", "author")
        .order_by("-created_at", "-id")
    )


def feedback_unread_count(*, user: AbstractBaseUser) -> int:
    """The nav's notice: unread comments on one's trials and released grades not seen yet."""
    if not user.is_authenticated:
        return 0
    comments = feedback_for_student(user=user).filter(read_at__isnull=True).exclude(author=user).count()
    return comments + grades_released_to(user=user).filter(seen_at__isnull=True).count()
