"""Writes of the classroom: courses, enrolments, rosters, assignments and attempts.

Every write is atomic: a roster file with a bad row stores nothing, an assignment with a bad
seat is not created. Problems are ``ClassroomError`` (one message) or, for a roster file,
``legalsim.json_input.Problem`` lines (``FILE:LINE: field: message``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email, validate_slug
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.formats import date_format
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from classroom.models import (
    Assignment,
    Attempt,
    Course,
    Enrolment,
    Grade,
    GradebookAttempt,
    Pair,
    invite_code_new,
)
from legalsim.json_input import Problem, UnreadableFile, file_text
from legalsim.roles import Ability, Role, can, role_grant
from legalsim.spreadsheet import cell_unescape
from trials.live import trial_create
from trials.models import Case, Trial
from trials.procedures import procedure_for
from trials.procedures.seats import PLAYABLE_SEATS, seat_info

ROSTER_KEYS = ("username", "email", "full_name")
BACKENDS = ("", "scripted", "openai")


PROCEDURE_LABELS = {"civil": gettext_lazy("civil"), "criminal": gettext_lazy("criminal")}


def procedure_label(procedure: str) -> str:
    """A procedure (``civil``, ``criminal``) as the interface names it."""
    return str(PROCEDURE_LABELS.get(procedure, procedure))


class ClassroomError(Exception):
    """A refused write; the message says what to change."""


@dataclass
class RosterReport:
    """What a roster upload did: who was enrolled, the accounts it created with their
    set-password links, and (when refused) every bad row; nothing is stored when refused."""

    enrolled: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    created: list[tuple[str, str]] = field(default_factory=list)
    """(username, set-password path) of each new account."""
    problems: list[Problem] = field(default_factory=list)


def _users_by_name(usernames: list[str]) -> dict[str, AbstractBaseUser]:
    return {user.get_username(): user for user in get_user_model().objects.filter(username__in=usernames)}


def course_create(
    *, slug: str, title: str, instructor: AbstractBaseUser, term: str = "", language: str = "en"
) -> Course:
    """A course taught by ``instructor`` (who is given the instructor role if they lack it)."""
    try:
        validate_slug(slug)
    except ValidationError:
        raise ClassroomError(
            _("slug %(slug)r: use letters, digits, hyphens and underscores only") % {"slug": slug}
        ) from None
    if not title.strip():
        raise ClassroomError(_("title: a course needs a title"))
    if language not in Course.Language.values:
        raise ClassroomError(
            _("language %(language)r: one of %(choices)s")
            % {"language": language, "choices": ", ".join(Course.Language.values)}
        )
    with transaction.atomic():
        if Course.objects.filter(slug=slug).exists():
            raise ClassroomError(_("slug %(slug)r: a course with this slug exists already") % {"slug": slug})
        course = Course.objects.create(slug=slug, title=title.strip(), term=term.strip(), language=language)
        course.instructors.add(instructor)
        if not can(instructor, Ability.TEACH):
            role_grant(instructor, Role.INSTRUCTOR)
    return course


def instructor_add(*, course: Course, username: str) -> AbstractBaseUser:
    """A co-instructor: an existing user who may teach."""
    user = _users_by_name([username]).get(username)
    if user is None:
        raise ClassroomError(_("no user %(username)r") % {"username": username})
    if not can(user, Ability.TEACH):
        raise ClassroomError(
            _("%(username)s is not an instructor; an admin gives the role first") % {"username": username}
        )
    course.instructors.add(user)
    return user


def _enrol(course: Course, user: AbstractBaseUser) -> bool:
    """Enrol ``user`` (a student from now on); False when they already were."""
    _enrolment, created = Enrolment.objects.get_or_create(course=course, user=user)
    if not can(user, Ability.PLAY):
        role_grant(user, Role.STUDENT)
    return created


def course_enrol(*, course: Course, usernames: list[str]) -> tuple[list[str], list[str]]:
    """Enrol existing users by username: (newly enrolled, already enrolled). Any unknown
    username refuses the whole list."""
    names = list(dict.fromkeys(name.strip() for name in usernames if name.strip()))
    if not names:
        raise ClassroomError(_("name at least one username"))
    users = _users_by_name(names)
    unknown = [name for name in names if name not in users]
    if unknown:
        raise ClassroomError(
            _("no such user(s): %(usernames)s; nobody was enrolled") % {"usernames": ", ".join(unknown)}
        )
    enrolled, already = [], []
    with transaction.atomic():
        for name in names:
            (enrolled if _enrol(course, users[name]) else already).append(name)
    return enrolled, already


def set_password_path(user: AbstractBaseUser) -> str:
    """The path of Django's set-password page for ``user`` (a password-reset token: valid
    for ``PASSWORD_RESET_TIMEOUT``, used up once the password is set)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("password_reset_confirm", args=[uid, default_token_generator.make_token(user)])


def _roster_rows(path: Path, label: str) -> tuple[list[tuple[int, dict[str, str]]], list[Problem]]:
    try:
        text = file_text(path)
    except UnreadableFile as error:
        return [], [Problem(label, error.problem.line, error.problem.field, error.problem.message)]
    lines = (text if "\n" in text else text.replace("\r", "\n")).split("\n")
    reader = csv.DictReader([line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else []))
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        header = [name.strip() for name in reader.fieldnames or []]
        missing = [key for key in ROSTER_KEYS if key not in header]
        if missing:
            return [], [Problem(label, 1, "header", f"missing column(s): {', '.join(missing)}")]
        reader.fieldnames = header
        for row in reader:
            rows.append((reader.line_num, {key: str(cell_unescape(row.get(key) or "")).strip() for key in ROSTER_KEYS}))
    except csv.Error as error:
        line = max(reader.reader.line_num, 1)
        return [], [Problem(label, line, "csv", f"cannot be read as CSV: {error}")]
    return rows, []


def roster_import(*, course: Course, path: Path, label: str | None = None) -> RosterReport:
    """Enrol every row of a roster CSV (``username,email,full_name``). A username nobody has
    yet gets an account with no usable password and a set-password link. Refused whole when
    any row is bad: every bad row is reported as ``FILE:LINE: field: message``."""
    label = label or str(path)
    report = RosterReport()
    rows, report.problems = _roster_rows(path, label)
    if report.problems:
        return report
    if not rows:
        report.problems.append(Problem(label, 1, "file", "has no rows under its header"))
        return report
    User = get_user_model()
    existing = _users_by_name([row["username"] for _line, row in rows])
    seen: dict[str, int] = {}
    for line, row in rows:
        name, email = row["username"], row["email"]
        problems = []
        if not name:
            problems.append(("username", "is empty"))
        else:
            try:
                User.username_validator(name)
            except ValidationError:
                problems.append(("username", f"{name!r}: letters, digits and @ . + - _ only"))
            if len(name) > User._meta.get_field("username").max_length:
                problems.append(("username", "is too long"))
            if name in seen:
                problems.append(("username", f"{name!r} is on line {seen[name]} already"))
            seen.setdefault(name, line)
        if email:
            try:
                validate_email(email)
            except ValidationError:
                problems.append(("email", f"{email!r} is not an email address"))
        elif name and name not in existing:
            problems.append(("email", "a new account needs an email address"))
        if len(row["full_name"]) > 300:
            problems.append(("full_name", "is longer than 300 characters"))
        report.problems += [Problem(label, line, where, message) for where, message in problems]
    if report.problems:
        return report
    with transaction.atomic():
        for _line, row in rows:
            user = existing.get(row["username"])
            if user is None:
                first, _space, last = (
                    row["full_name"].rpartition(" ") if " " in row["full_name"] else (row["full_name"], "", "")
                )
                user = User(username=row["username"], email=row["email"], first_name=first[:150], last_name=last[:150])
                user.set_unusable_password()
                user.save()
                report.created.append((user.get_username(), set_password_path(user)))
            (report.enrolled if _enrol(course, user) else report.already).append(user.get_username())
    return report


def course_join(*, code: str, user: AbstractBaseUser) -> Course:
    """A student enrols themselves with the course's invite code."""
    course = Course.objects.filter(invite_code=code.strip().upper()).first()
    if course is None or not code.strip():
        raise ClassroomError(_("no course has this invite code; check it with your instructor"))
    if course.instructors.filter(pk=user.pk).exists():
        raise ClassroomError(_("you teach this course"))
    _enrol(course, user)
    return course


def invite_code_regenerate(*, course: Course) -> str:
    """A new invite code; the old one stops working."""
    for _attempt in range(5):
        course.invite_code = invite_code_new()
        try:
            with transaction.atomic():
                course.save(update_fields=["invite_code"])
            return course.invite_code
        except IntegrityError:
            continue
    raise ClassroomError(_("could not find an unused invite code; try again"))


def _check_stages(case: Case, stages: list[str]) -> list[str]:
    order = procedure_for(case.procedure).stage_ids
    unknown = [stage for stage in stages if stage not in order]
    if unknown:
        raise ClassroomError(
            _("stages: unknown %(unknown)s; the %(procedure)s stages: %(stages)s")
            % {"unknown": ", ".join(unknown), "procedure": procedure_label(case.procedure), "stages": ", ".join(order)}
        )
    if len(set(stages)) != len(stages) or stages != sorted(stages, key=order.index):
        raise ClassroomError(
            _("stages: name each once, in the procedure's order (%(stages)s)") % {"stages": ", ".join(order)}
        )
    return stages


def assignment_create(
    *,
    course: Course,
    case: Case,
    seats: list[str],
    stages: list[str] | None = None,
    opens_at: datetime | None = None,
    due_at: datetime | None = None,
    attempts: int = 1,
    paired: bool = False,
    backend: str = "",
    title: str = "",
) -> Assignment:
    """Hand ``case`` to the course. Solo: the student plays every seat in ``seats``. Paired:
    two seats on opposite sides, one student each."""
    playable = PLAYABLE_SEATS[case.procedure]
    seats = list(dict.fromkeys(seat.strip() for seat in seats if seat.strip()))
    if not seats:
        raise ClassroomError(_("seats: name the seat(s) students play"))
    unknown = [seat for seat in seats if seat not in playable]
    if unknown:
        raise ClassroomError(
            _("seats: %(unknown)s cannot be played in a %(procedure)s case; seats: %(seats)s")
            % {
                "unknown": ", ".join(unknown),
                "procedure": procedure_label(case.procedure),
                "seats": ", ".join(playable),
            }
        )
    if paired and (len(seats) != 2 or len({seat_info(case.procedure, seat).side for seat in seats}) != 2):
        raise ClassroomError(_("seats: a paired assignment names two seats on opposite sides, one per student"))
    stages = _check_stages(case, [stage.strip() for stage in stages or [] if stage.strip()])
    if attempts < 1:
        raise ClassroomError(_("attempts: at least 1"))
    if backend not in BACKENDS:
        raise ClassroomError(
            _("backend %(backend)r: one of scripted, openai (or blank: the server's default)") % {"backend": backend}
        )
    opens_at = opens_at or timezone.now()
    for name, moment in ((_("opens"), opens_at), (_("due"), due_at)):
        if moment is not None and timezone.is_naive(moment):
            raise ClassroomError(_("%(name)s: give a time zone (e.g. 2025-06-01T23:59+08:00)") % {"name": name})
    if due_at is not None and due_at <= opens_at:
        raise ClassroomError(_("due: the due date comes after the assignment opens"))
    return Assignment.objects.create(
        course=course,
        case=case,
        title=title.strip() or case.title,
        seats=seats,
        stages=stages,
        backend=backend,
        opens_at=opens_at,
        due_at=due_at,
        attempts_allowed=attempts,
        paired=paired,
    )


def assignment_start(*, assignment: Assignment, student: AbstractBaseUser, now: datetime | None = None) -> Attempt:
    """The student's attempt in progress, or a new one: a trial in which they hold the
    assignment's seats (every other seat an agent, earlier stages played by agents first).
    In a paired assignment the pair share one trial, each in their seat, and each gets the
    attempt. Refused before the assignment opens, to someone not enrolled (or not paired
    yet), and beyond the attempts allowed."""
    now = now or timezone.now()
    with transaction.atomic():
        enrolment = Enrolment.objects.select_for_update().filter(course_id=assignment.course_id, user=student).first()
        if enrolment is None:
            raise ClassroomError(_("you are not enrolled in this course"))
        if now < assignment.opens_at:
            raise ClassroomError(
                _("this assignment opens at %(opens)s")
                % {"opens": date_format(timezone.localtime(assignment.opens_at), "DATETIME_FORMAT")}
            )
        players = _players(assignment, student)
        attempts = list(
            Attempt.objects.filter(assignment=assignment, student=student).select_related("trial").order_by("number")
        )
        current = next((attempt for attempt in attempts if attempt.submitted_at is None), None)
        if current is not None and current.trial.status != Trial.Status.FINISHED:
            return current
        if len(attempts) >= assignment.attempts_allowed:
            raise ClassroomError(
                ngettext(
                    "you have used the %(attempts)d attempt allowed",
                    "you have used the %(attempts)d attempts allowed",
                    assignment.attempts_allowed,
                )
                % {"attempts": assignment.attempts_allowed}
            )
        trial = trial_create(
            case=assignment.case,
            humans=players,
            stages=list(assignment.stages) or None,
            created_by=student,
            course=assignment.course,
            backend=assignment.backend,
        )
        for player in {user.pk: user for user in players.values()}.values():
            Attempt.objects.create(
                assignment=assignment,
                student=player,
                trial=trial,
                number=Attempt.objects.filter(assignment=assignment, student=player).count() + 1,
            )
        return Attempt.objects.get(assignment=assignment, student=student, trial=trial)


def _players(assignment: Assignment, student: AbstractBaseUser) -> dict[str, AbstractBaseUser]:
    """Who holds which of the assignment's seats when ``student`` starts it: the student in
    every seat, or in a paired assignment the pair, locked so both cannot start two trials."""
    if not assignment.paired:
        return dict.fromkeys(assignment.seats, student)
    pair = (
        Pair.objects.select_for_update(of=("self",))
        .filter(assignment=assignment)
        .filter(Q(first=student) | Q(second=student))
        .select_related("first", "second")
        .order_by("pk")
        .first()
    )
    if pair is None:
        raise ClassroomError(_("your instructor has not paired you with a classmate for this assignment yet"))
    first_seat, second_seat = assignment.seats
    return {first_seat: pair.first, **({second_seat: pair.second} if pair.second else {})}


def pair_set(*, assignment: Assignment, first: str, second: str) -> Pair:
    """The instructor pairs two enrolled students (``first`` plays the first seat)."""
    if not assignment.paired:
        raise ClassroomError(_("this assignment is played alone"))
    users = _users_by_name([first, second])
    missing = [name for name in (first, second) if name not in users]
    if missing:
        raise ClassroomError(_("no user %(usernames)s") % {"usernames": ", ".join(missing)})
    if first == second:
        raise ClassroomError(_("pair two different students"))
    enrolled = set(assignment.course.enrolments.values_list("user_id", flat=True))
    for name in (first, second):
        if users[name].pk not in enrolled:
            raise ClassroomError(_("%(username)s is not enrolled in this course") % {"username": name})
    paired = _paired(assignment)
    taken = [name for name in (first, second) if users[name].pk in paired]
    if taken:
        raise ClassroomError(_("already paired: %(usernames)s") % {"usernames": ", ".join(taken)})
    return Pair.objects.create(assignment=assignment, first=users[first], second=users[second])


def pairs_make(*, assignment: Assignment) -> list[Pair]:
    """Pair the enrolled students nobody has paired yet, two by two in the order they
    enrolled; with an odd number, the last one plays against an agent."""
    if not assignment.paired:
        raise ClassroomError(_("this assignment is played alone"))
    with transaction.atomic():
        paired = _paired(assignment)
        waiting = [
            enrolment.user
            for enrolment in assignment.course.enrolments.select_related("user").order_by("created_at", "id")
            if enrolment.user_id not in paired
        ]
        return [
            Pair.objects.create(assignment=assignment, first=first, second=second)
            for first, second in zip(waiting[::2], [*waiting[1::2], None], strict=False)
        ]


def _paired(assignment: Assignment) -> set[int]:
    rows = assignment.pairs.values_list("first_id", "second_id")
    return {user_id for pair in rows for user_id in pair if user_id is not None}


def attempts_submit(*, trial: Trial) -> int:
    """A finished trial submits the attempts played in it (the ``trial_finished`` receiver)."""
    return Attempt.objects.filter(trial=trial, submitted_at__isnull=True).update(
        submitted_at=trial.finished_at or timezone.now()
    )


FEEDBACK_MAX_CHARS = 20_000


def gradebook_attempt_set(*, course: Course, choice: str) -> Course:
    """Which attempt the course's gradebook shows: ``latest`` or ``best``."""
    if choice not in GradebookAttempt.values:
        raise ClassroomError(
            _("attempt %(choice)r: one of %(choices)s")
            % {"choice": choice, "choices": ", ".join(GradebookAttempt.values)}
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
    saved, _created = Grade.objects.update_or_create(
        assignment=assignment, student=student, defaults={"grade": grade, "feedback": feedback, "graded_by": by}
    )
    return saved
