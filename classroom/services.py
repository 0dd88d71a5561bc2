"""Writes of the classroom's courses: creating one, its instructors, enrolling students (by
username or invite code) and unenrolling them. Roster files are ``classroom.rosters``,
assignments and attempts ``classroom.assignments``, grades ``classroom.grades``.

Every classroom write is atomic: a list of usernames with a bad one enrols nobody, an
assignment with a bad seat is not created. Problems are ``ClassroomError`` (one message),
which every classroom write raises.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom.models import Attempt, Course, Enrolment, Pair, invite_code_new
from legalsim.roles import Ability, Role, can, role_grant


class ClassroomError(Exception):
    """A refused write; the message says what to change. ``field`` names the form field it
    is about (``seats``, ``due_at``...), so a page shows it beside that field."""

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field


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


ROLE_NAMES = {
    Role.RATER: gettext_lazy("a rater"),
    Role.INSTRUCTOR: gettext_lazy("an instructor"),
    Role.ADMIN: gettext_lazy("an admin"),
}


def not_student_roles(users: list[AbstractBaseUser]) -> dict[int, list[str]]:
    """The roles (as people read them) of each of ``users`` who holds a role but not the
    student's: enrolling them would make a student of a rater or an instructor, so it is
    asked for explicitly. An account with no role at all is a student to be. One query for
    all of them (a roster names thousands)."""
    held: dict[int, set[str]] = {user.pk: {Role.ADMIN} if user.is_superuser else set() for user in users}
    memberships = get_user_model().groups.through.objects.filter(user_id__in=list(held), group__name__in=list(Role))
    for user_id, name in memberships.values_list("user_id", "group__name"):
        held[user_id].add(name)
    return {
        pk: [str(label) for role, label in ROLE_NAMES.items() if role in roles]
        for pk, roles in held.items()
        if roles and Role.STUDENT not in roles
    }


def course_enrol(
    *, course: Course, usernames: list[str], as_student_anyway: bool = False
) -> tuple[list[str], list[str]]:
    """Enrol existing users by username: (newly enrolled, already enrolled). Any unknown
    username refuses the whole list, and so does an account with another role than the
    student's (a rater, an instructor) unless ``as_student_anyway``."""
    names = list(dict.fromkeys(name.strip() for name in usernames if name.strip()))
    if not names:
        raise ClassroomError(_("name at least one username"))
    users = users_by_name(names)
    unknown = [name for name in names if name not in users]
    if unknown:
        raise ClassroomError(
            _("no such user(s): %(usernames)s; nobody was enrolled") % {"usernames": ", ".join(unknown)}
        )
    others = {} if as_student_anyway else not_student_roles(list(users.values()))
    if others:
        who = "; ".join(
            _("%(username)s is %(roles)s") % {"username": name, "roles": _(" and ").join(others[users[name].pk])}
            for name in names
            if users[name].pk in others
        )
        raise ClassroomError(
            _(
                "%(who)s, not a student; nobody was enrolled. Enrolling makes them a student too: "
                "tick “enrol as student anyway” to do so."
            )
            % {"who": who}
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
