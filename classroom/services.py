"""Writes of the classroom's courses: creating one, its instructors, enrolling students (by
username, roster file or invite code) and unenrolling them. Assignments and attempts are
``classroom.assignments``, grades ``classroom.grades``.

Every classroom write is atomic: a roster file with a bad row stores nothing, an assignment
with a bad seat is not created. Problems are ``ClassroomError`` (one message), which every
classroom write raises, or, for a roster file, ``legalsim.json_input.Problem`` lines
(``FILE:LINE: field: message``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_email, validate_slug
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from classroom.models import Attempt, Course, Enrolment, Pair, invite_code_new
from legalsim.json_input import Problem, UnreadableFile, file_text
from legalsim.roles import Ability, Role, can, role_grant
from legalsim.spreadsheet import cell_unescape

ROSTER_KEYS = ("username", "email", "full_name")


class ClassroomError(Exception):
    """A refused write; the message says what to change. ``field`` names the form field it
    is about (``seats``, ``due_at``...), so a page shows it beside that field."""

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field


@dataclass
class RosterReport:
    """What a roster upload did: who was enrolled, the accounts it created with their
    set-password links, and (when refused) every bad row; nothing is stored when refused."""

    enrolled: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    created: list[tuple[str, str]] = field(default_factory=list)
    """(username, set-password path) of each new account."""
    kept: list[tuple[str, str]] = field(default_factory=list)
    """(username, what differs) for an existing account whose name or e-mail the roster gives
    differently: the account keeps its own; the upload says so."""
    problems: list[Problem] = field(default_factory=list)


def users_by_name(usernames: list[str]) -> dict[str, AbstractBaseUser]:
    """The users of ``usernames`` that exist, by username."""
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
    user = users_by_name([username]).get(username)
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
    users = users_by_name(names)
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
    existing = users_by_name([row["username"] for _line, row in rows])
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
            if user is not None and (differs := _roster_differences(user, row)):
                report.kept.append((user.get_username(), differs))
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


def _roster_differences(user: AbstractBaseUser, row: dict[str, str]) -> str:
    """What a roster row says differently about an existing account (its e-mail, its full
    name), as the upload reports it; blank when they agree or the row leaves them blank."""
    differs = []
    if row["email"] and row["email"].lower() != (user.email or "").lower():
        differs.append(
            _("e-mail %(roster)s in the roster, %(account)s on the account")
            % {"roster": row["email"], "account": user.email or "—"}
        )
    name = " ".join(row["full_name"].split())
    if name and name != " ".join(user.get_full_name().split()):
        differs.append(
            _("name %(roster)s in the roster, %(account)s on the account")
            % {"roster": name, "account": user.get_full_name() or "—"}
        )
    return "; ".join(differs)


def course_unenrol(*, course: Course, user: AbstractBaseUser) -> bool:
    """Take a student off the course: they no longer see its assignments nor start them, and
    the gradebook no longer lists them. Their trials, attempts, grades and extensions are
    kept (enrolling them again brings their gradebook row back); a pairing that has not
    played yet is undone, so their partner can be paired again. False when they were not
    enrolled."""
    with transaction.atomic():
        deleted, _rows = Enrolment.objects.filter(course=course, user=user).delete()
        if not deleted:
            return False
        for pair in Pair.objects.filter(assignment__course=course).filter(Q(first=user) | Q(second=user)):
            if not Attempt.objects.filter(assignment_id=pair.assignment_id, student__in=pair.students).exists():
                pair.delete()
    return True


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
