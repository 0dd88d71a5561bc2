"""Reads of the gradebook: enrolled students by assignments, each cell the attempt the course's
choice picks (latest or best) with its scorecard, status, lateness and the instructor's grade;
its export columns; and the class view of one assignment. The page, its downloads and the
``gradebook`` command all read ``gradebook_build``."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext

from classroom.models import Assignment, Attempt, Course, Extension, Grade, GradebookAttempt
from classroom.selectors import Status, assignment_status, attempt_being_played, course_roster, extensions_of
from scoring.capabilities import CAPABILITIES
from scoring.models import TrialScore
from scoring.report import capability_cell
from scoring.selectors import player_seat, scorecard_read
from trials.models import Trial

GRADEBOOK_COLUMNS = (
    "student",
    "full_name",
    "email",
    "assignment",
    "trial_id",
    "status",
    "submitted_at",
    "overall",
    "instructor_grade",
    "feedback",
    *CAPABILITIES,
)
"""The export's columns (README, "Gradebook"): the contract's eight with the student's full
name and e-mail address after their username, then a column per capability of the scorecard
(``scoring.capabilities.CAPABILITIES``). ``overall`` and the capabilities are on the
scorecards' stored scale, 0-1 (the pages show them out of 10)."""


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
    extension: Extension | None = None
    playing: Attempt | None = None
    """The attempt being played now, if any (the cell's "Watch")."""

    @property
    def due_at(self) -> datetime | None:
        return self.extension.due_at if self.extension is not None else self.assignment.due_at

    @property
    def releasable(self) -> bool:
        """A saved grade or feedback the student does not see yet."""
        grade = self.grade
        return grade is not None and grade.released_at is None and (grade.grade is not None or bool(grade.feedback))

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
            "full_name": self.student.get_full_name(),
            "email": self.student.email,
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
    or computed now and not stored (``scorecard_read``, as the scorecard page does); None
    while it is being played."""
    if attempt.trial.status != Trial.Status.FINISHED:
        return None
    return scorecard_read(attempt.trial, player_seat(attempt.trial, attempt.student))


def _lateness(
    assignment: Assignment, attempt: Attempt | None, status: Status, now: datetime, extension: Extension | None
) -> timedelta | None:
    due = extension.due_at if extension is not None else assignment.due_at
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
    extension: Extension | None = None,
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
    status = assignment_status(assignment=assignment, attempts=attempts, now=now, extension=extension)
    return GradebookCell(
        student=student,
        assignment=assignment,
        status=status,
        attempt=shown,
        attempts=len(attempts),
        overall=score.overall if score is not None else None,
        capabilities={name: capability_cell(capabilities.get(name)) for name in CAPABILITIES},
        late_by=_lateness(assignment, shown, status, now, extension),
        grade=grade,
        score=score,
        extension=extension,
        playing=attempt_being_played(attempts),
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
    extensions = extensions_of(assignments=assignments)
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
                extension=extensions.get((assignment.pk, student.pk)),
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
        extension=Extension.objects.filter(assignment=assignment, student=student).first(),
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
