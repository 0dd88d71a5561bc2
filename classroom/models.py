"""Courses, who is in them, the cases assigned to them and each student's attempts.

The dependency runs one way: classroom knows trials (an attempt is a trial, an assignment
names a case); trials knows a course only as the string reference of ``Trial.course``, which
the one access rule (``trials.access``) reads through the ORM.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

INVITE_CODE_LENGTH = 8
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0/O or 1/I/L: a code read aloud or copied from a slide is typed right."""


def invite_code_new() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_CODE_LENGTH))


class GradebookAttempt(models.TextChoices):
    LATEST = "latest", _("the latest attempt")
    BEST = "best", _("the best attempt (highest scorecard overall)")


class Course(models.Model):
    class Language(models.TextChoices):
        ZH = "zh", "中文"
        EN = "en", "English"

    slug = models.SlugField(max_length=60, unique=True)
    title = models.CharField(max_length=200)
    term = models.CharField(max_length=60, blank=True)
    language = models.CharField(max_length=2, choices=Language.choices, default=Language.EN)
    instructors = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="courses_taught")
    invite_code = models.CharField(max_length=16, unique=True, default=invite_code_new)
    gradebook_attempt = models.CharField(
        max_length=8,
        choices=GradebookAttempt.choices,
        default=GradebookAttempt.LATEST,
        help_text="which attempt a gradebook cell shows: the latest, or the best scored",
    )
    practice_trials_in_studies = models.BooleanField(
        _("practice trials may be used for rating studies"),
        default=False,
        help_text=_(
            "the course's instructors may put the trajectories of its students' trials in rating studies, "
            "where raters read and score them; students are told so on their list of courses"
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("course")
        verbose_name_plural = _("courses")
        ordering = ["-created_at", "slug"]

    def __str__(self) -> str:
        return f"{self.slug}: {self.title}"


class Enrolment(models.Model):
    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="enrolments")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="enrolments")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("enrolment")
        verbose_name_plural = _("enrolments")
        ordering = ["course", "id"]
        constraints = [models.UniqueConstraint(fields=["course", "user"], name="one_enrolment_per_course_and_user")]

    def __str__(self) -> str:
        return f"{self.user} in {self.course.slug}"


class Assignment(models.Model):
    """A case handed to a course: the seats students play, the stages (empty: the whole
    procedure; earlier stages are simulated first), when it opens and is due, how many
    attempts a student has, solo or paired."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="assignments")
    case = models.ForeignKey("trials.Case", on_delete=models.PROTECT, related_name="course_assignments")
    title = models.CharField(max_length=300)
    seats = models.JSONField(help_text="the seat ids students play")
    stages = models.JSONField(default=list, blank=True, help_text="stage ids; empty: the whole procedure")
    backend = models.CharField(max_length=16, blank=True, help_text="the agents' backend; blank: the server's default")
    opens_at = models.DateTimeField()
    due_at = models.DateTimeField(null=True, blank=True)
    attempts_allowed = models.PositiveSmallIntegerField(default=1)
    paired = models.BooleanField(default=False, help_text="two students as opposing counsel")
    interview_checklist = models.BooleanField(
        default=True, help_text="a student who interviews a client sees the legal agenda's checklist (court/agenda.py)"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("assignment")
        verbose_name_plural = _("assignments")
        ordering = ["course", "opens_at", "id"]

    def __str__(self) -> str:
        return f"{self.course.slug}: {self.title}"


class Attempt(models.Model):
    """One try of a student at an assignment: the trial they play it in."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="attempts")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attempts")
    trial = models.ForeignKey("trials.Trial", on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    submitted_at = models.DateTimeField(null=True, blank=True, help_text="when the trial finished")

    class Meta:
        verbose_name = _("attempt")
        verbose_name_plural = _("attempts")
        ordering = ["assignment", "student", "number"]
        constraints = [
            models.UniqueConstraint(fields=["assignment", "student", "number"], name="attempt_numbers_per_student")
        ]

    def __str__(self) -> str:
        return f"{self.student} #{self.number} at {self.assignment}"


class Pair(models.Model):
    """Two students of a paired assignment, as opposing counsel: ``first`` plays the
    assignment's first seat, ``second`` the other (an agent when the class had an odd number)."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="pairs")
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["assignment", "id"]
        constraints = [
            models.UniqueConstraint(fields=["assignment", "first"], name="one_pair_as_first"),
            models.UniqueConstraint(fields=["assignment", "second"], name="one_pair_as_second"),
        ]

    def __str__(self) -> str:
        return f"{self.first} v. {self.second or 'an agent'} at {self.assignment}"

    @property
    def students(self) -> list:
        return [student for student in (self.first, self.second) if student is not None]


class Grade(models.Model):
    """The instructor's grade (0-100, or none yet) and written feedback for one student on
    one assignment: a cell of the gradebook. The student sees it once released."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="grades")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="grades")
    grade = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(0), MaxValueValidator(100)],
    )
    feedback = models.TextField(blank=True)
    graded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="grades_given"
    )
    updated_at = models.DateTimeField(auto_now=True)
    released_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when the instructor released it to the student; until then only instructors see it",
    )
    seen_at = models.DateTimeField(
        null=True, blank=True, help_text="when the student first saw it since it was released or last changed"
    )

    class Meta:
        ordering = ["assignment", "student"]
        constraints = [
            models.UniqueConstraint(fields=["assignment", "student"], name="one_grade_per_assignment_and_student")
        ]

    def __str__(self) -> str:
        return f"{self.student} on {self.assignment}: {self.grade}"


class Extension(models.Model):
    """A later due date for one student on one assignment."""

    assignment = models.ForeignKey(Assignment, on_delete=models.CASCADE, related_name="extensions")
    student = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="extensions")
    due_at = models.DateTimeField()
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="extensions_granted"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("extension")
        verbose_name_plural = _("extensions")
        ordering = ["assignment", "student"]
        constraints = [
            models.UniqueConstraint(fields=["assignment", "student"], name="one_extension_per_assignment_and_student")
        ]

    def __str__(self) -> str:
        return f"{self.student} on {self.assignment}: due {self.due_at:%Y-%m-%d %H:%M}"


class TurnComment(models.Model):
    """An instructor's comment on one turn of a trial, or on the document that turn filed
    (optionally on a quoted passage of either), the student's one reply, and when the student
    read it (the "Feedback" notice). In a paired trial both students see every comment; the
    one whose turn it is (``student``) gets the notice and replies."""

    trial = models.ForeignKey("trials.Trial", on_delete=models.CASCADE, related_name="turn_comments")
    seq = models.PositiveIntegerField(help_text="the turn's seq in the trial")
    excerpt = models.TextField(blank=True, help_text="the passage of the turn the comment is about, if any")
    document = models.CharField(
        max_length=64,
        blank=True,
        help_text="the kind of the document this turn filed, when the comment is on the document (and its passage)",
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="turn_comments_written"
    )
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="turn_comments_received",
        help_text="who played the turn's seat: the comment is theirs to read and reply to "
        "(blank on an agent's turn: any student of the trial)",
    )
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    reply = models.TextField(blank=True)
    replied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="turn_replies"
    )
    replied_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True, help_text="when a student of the trial first saw it")

    class Meta:
        ordering = ["trial", "seq", "created_at", "id"]
        indexes = [models.Index(fields=["trial", "seq"])]

    def __str__(self) -> str:
        return f"comment on turn {self.seq} of trial {self.trial_id}"


class RosterJob(models.Model):
    """A roster file being enrolled in the background, in short transactions of a few hundred
    rows: the rows (checked whole before the job is made), how far it got, what it did, and
    the accounts it created, whose set-password links its instructor downloads once."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    course = models.ForeignKey(Course, on_delete=models.CASCADE, related_name="roster_jobs")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    label = models.CharField(max_length=255, help_text="the file's name, as problems and the page name it")
    rows = models.JSONField(default=list, help_text="[line, username, email, full name] per row; emptied once done")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0, help_text="rows enrolled and committed")
    total = models.PositiveIntegerField(default=0)
    enrolled = models.PositiveIntegerField(default=0)
    already = models.PositiveIntegerField(default=0)
    created = models.JSONField(default=list, help_text="ids of the accounts the job created")
    kept = models.JSONField(default=list, help_text="[username, what differs] of existing accounts")
    error = models.TextField(blank=True)
    links_taken_at = models.DateTimeField(
        null=True, blank=True, help_text="when the set-password links were downloaded; they are not shown again"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"roster {self.label} for {self.course.slug} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 100
