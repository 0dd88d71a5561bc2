"""Reads of the classroom: who teaches and studies what, and where each student stands."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from classroom.models import Assignment, Attempt, Course, Enrolment, Grade, GradebookAttempt, TurnComment
from legalsim.roles import Ability, can
from trials.access import trial_overseer
from trials.engine.state import TrialState
from trials.models import Trial, TrialScore
from trials.scoring.capabilities import CAPABILITIES
from trials.scoring.report import capability_cell
from trials.scoring.selectors import player_seat
from trials.scoring.services import scorecard_for


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
                can_start=opened and current is None and len(mine) < assignment.attempts_allowed,
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


GRADEBOOK_COLUMNS = (
    "student",
    "assignment",
    "trial_id",
    "status",
    "submitted_at",
    "overall",
    "instructor_grade",
    "feedback",
    *CAPABILITIES,
)
"""The export's columns (README, "Gradebook"): the contract's eight, then a column per
capability of the scorecard (``trials.scoring.capabilities.CAPABILITIES``)."""


@dataclass(frozen=True)
class GradebookCell:
    """One student on one assignment: the attempt the course's choice picks (latest or best),
    its scorecard overall and capabilities (finished attempts only), the student's status on
    the assignment, how late, and the instructor's grade."""

    student: AbstractBaseUser
    assignment: Assignment
    status: Status
    attempt: Attempt | None
    attempts: int
    overall: float | None
    capabilities: dict[str, float | None]
    late_by: timedelta | None
    """How long after the due date the shown attempt was submitted, or (nothing submitted)
    how long the assignment is overdue; None when not late."""
    grade: Grade | None
    score: TrialScore | None = None
    """The shown attempt's scorecard, once its trial is finished."""

    @property
    def key(self) -> str:
        return f"{self.assignment.pk}-{self.student.pk}"

    @property
    def lateness(self) -> str:
        """``late_by`` for people: "3 d 4 h", "2 h 5 min", "12 min"."""
        if self.late_by is None:
            return ""
        minutes = int(self.late_by.total_seconds() // 60)
        days, minutes = divmod(minutes, 24 * 60)
        hours, minutes = divmod(minutes, 60)
        if days:
            return gettext("%(days)d d %(hours)d h") % {"days": days, "hours": hours}
        if hours:
            return gettext("%(hours)d h %(minutes)d min") % {"hours": hours, "minutes": minutes}
        return gettext("%(minutes)d min") % {"minutes": max(minutes, 1)}

    def as_row(self) -> dict[str, Any]:
        """The export row (``GRADEBOOK_COLUMNS``): numbers stay numbers, missing values are blank."""
        attempt = self.attempt
        grade = self.grade.grade if self.grade is not None else None
        return {
            "student": self.student.get_username(),
            "assignment": self.assignment.title,
            "trial_id": attempt.trial_id if attempt else "",
            "status": str(self.status),
            "submitted_at": attempt.submitted_at.isoformat() if attempt and attempt.submitted_at else "",
            "overall": "" if self.overall is None else round(self.overall, 4),
            "instructor_grade": "" if grade is None else (int(grade) if grade == int(grade) else float(grade)),
            "feedback": self.grade.feedback if self.grade is not None else "",
        } | {name: "" if value is None else round(value, 4) for name, value in self.capabilities.items()}


@dataclass(frozen=True)
class Gradebook:
    course: Course
    assignments: list[Assignment]
    rows: list[tuple[AbstractBaseUser, list[GradebookCell]]]
    """A row per enrolled student (by username), a cell per assignment (in the course's order)."""

    @property
    def cells(self) -> list[GradebookCell]:
        return [cell for _, cells in self.rows for cell in cells]


def _scored(attempt: Attempt) -> TrialScore | None:
    """The scorecard of the seat the student played when the trial is over: the stored one,
    or scored and stored now (``scorecard_for``, as the scorecard page does); None while it
    is being played."""
    if attempt.trial.status != Trial.Status.FINISHED:
        return None
    return scorecard_for(attempt.trial, player_seat(attempt.trial, attempt.student))


def _lateness(assignment: Assignment, attempt: Attempt | None, status: Status, now: datetime) -> timedelta | None:
    due = assignment.due_at
    if due is None or status != Status.LATE:
        return None
    submitted = attempt.submitted_at if attempt is not None else None
    late_by = (submitted or now) - due
    return late_by if late_by > timedelta(0) else None


def gradebook_cell(
    *,
    assignment: Assignment,
    student: AbstractBaseUser,
    attempts: list[Attempt],
    grade: Grade | None,
    choice: str,
    now: datetime,
) -> GradebookCell:
    """One cell from the student's attempts at the assignment (oldest first)."""
    scores = {attempt.pk: _scored(attempt) for attempt in attempts}
    shown = attempts[-1] if attempts else None
    if choice == GradebookAttempt.BEST:
        scored = [attempt for attempt in attempts if (score := scores[attempt.pk]) and score.overall is not None]
        if scored:
            shown = max(reversed(scored), key=lambda attempt: scores[attempt.pk].overall)
    score = scores.get(shown.pk) if shown is not None else None
    capabilities = (score.result.get("capabilities") or {}) if score is not None else {}
    status = assignment_status(assignment=assignment, attempts=attempts, now=now)
    return GradebookCell(
        student=student,
        assignment=assignment,
        status=status,
        attempt=shown,
        attempts=len(attempts),
        overall=score.overall if score is not None else None,
        capabilities={name: capability_cell(capabilities.get(name)) for name in CAPABILITIES},
        late_by=_lateness(assignment, shown, status, now),
        grade=grade,
        score=score,
    )


def gradebook_build(*, course: Course, now: datetime | None = None, assignment: Assignment | None = None) -> Gradebook:
    """The course's gradebook: enrolled students by assignments (or by ``assignment`` alone,
    the class view's column). The page, its downloads and the ``gradebook`` command all read
    this. Finished attempts not scored yet are scored and stored on the way (the rule-based
    scorer, as the scorecard page does)."""
    now = now or timezone.now()
    in_course = {"assignment__course": course} if assignment is None else {"assignment": assignment}
    assignments = list(course.assignments.order_by("opens_at", "id")) if assignment is None else [assignment]
    students = [enrolment.user for enrolment in course_roster(course=course)]
    attempts: dict[tuple[int, int], list[Attempt]] = {}
    chosen = Attempt.objects.filter(**in_course).select_related("trial").prefetch_related("trial__scores")
    for attempt in chosen.order_by("number"):
        attempts.setdefault((attempt.assignment_id, attempt.student_id), []).append(attempt)
    grades = {(grade.assignment_id, grade.student_id): grade for grade in Grade.objects.filter(**in_course)}
    rows = []
    for student in students:
        cells = [
            gradebook_cell(
                assignment=assignment,
                student=student,
                attempts=attempts.get((assignment.pk, student.pk), []),
                grade=grades.get((assignment.pk, student.pk)),
                choice=course.gradebook_attempt,
                now=now,
            )
            for assignment in assignments
        ]
        rows.append((student, cells))
    return Gradebook(course=course, assignments=assignments, rows=rows)


def gradebook_cell_of(
    *, assignment: Assignment, student: AbstractBaseUser, now: datetime | None = None
) -> GradebookCell:
    """One cell of the gradebook, as ``gradebook_build`` makes it (the cell saved inline)."""
    attempts = list(
        Attempt.objects.filter(assignment=assignment, student=student)
        .select_related("trial")
        .prefetch_related("trial__scores")
        .order_by("number")
    )
    return gradebook_cell(
        assignment=assignment,
        student=student,
        attempts=attempts,
        grade=Grade.objects.filter(assignment=assignment, student=student).first(),
        choice=assignment.course.gradebook_attempt,
        now=now or timezone.now(),
    )


@dataclass(frozen=True)
class MissedPoint:
    """A point of the reference answer that students' finished attempts did not raise."""

    text: str
    item: str
    """The scorecard item it belongs to (``FIT.claims``...)."""
    students: int


@dataclass(frozen=True)
class ClassView:
    """One assignment across the class: each student's cell (as the gradebook picks the
    attempt), the overall scores of the finished ones, the reference points most often not
    raised, and who has not started."""

    assignment: Assignment
    cells: list[GradebookCell]
    missed: list[MissedPoint]

    @property
    def scores(self) -> list[float]:
        return [cell.overall for cell in self.cells if cell.overall is not None]

    @property
    def not_started(self) -> list[AbstractBaseUser]:
        return [cell.student for cell in self.cells if cell.attempt is None]

    @property
    def mean(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None


MISSED_SHOWN = 10


def class_view(*, assignment: Assignment, now: datetime | None = None) -> ClassView:
    """The class view of ``assignment``: the gradebook's column for it, with the points of the
    reference that the most students left out (each student counted once per point)."""
    column = gradebook_build(course=assignment.course, now=now, assignment=assignment).cells
    counts: dict[tuple[str, str], int] = {}
    for cell in column:
        items = cell.score.result.get("items", []) if cell.score is not None else []
        for point in {(point, item["id"]) for item in items for point in item["missing"]}:
            counts[point] = counts.get(point, 0) + 1
    ranked = sorted(counts.items(), key=lambda entry: (-entry[1], entry[0][1], entry[0][0]))
    return ClassView(
        assignment=assignment,
        cells=column,
        missed=[MissedPoint(text, item, students) for (text, item), students in ranked[:MISSED_SHOWN]],
    )


@dataclass(frozen=True)
class TrialFeedback:
    """The comments on one trial as one reader sees them: by turn or document, and whether they may
    comment (an overseer) or reply (a student seated in it)."""

    trial: Trial
    comments: list[TurnComment]
    can_comment: bool
    can_reply: bool

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
    comments = list(TurnComment.objects.filter(trial=trial).select_related("author", "replied_by"))
    return TrialFeedback(
        trial=trial, comments=comments, can_comment=trial_overseer(trial, user), can_reply=bool(seated)
    )


def feedback_for_student(*, user: AbstractBaseUser) -> QuerySet[TurnComment]:
    """Comments on the trials ``user`` is seated in, newest first (the "Feedback" page)."""
    return (
        TurnComment.objects.filter(trial__in=Trial.objects.filter(seats__user=user))
        .select_related("trial__case", "author")
        .order_by("-created_at", "-id")
    )


def feedback_unread_count(*, user: AbstractBaseUser) -> int:
    if not user.is_authenticated:
        return 0
    return feedback_for_student(user=user).filter(read_at__isnull=True).exclude(author=user).count()
