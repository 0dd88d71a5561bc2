"""Writes of a course's assignments: assigning a case (its seats, stages, dates and attempts),
changing and deleting an assignment, a student's extension, pairing students, and the
attempts students start and submit. A refusal is a ``ClassroomError`` that names its form
field and the seats and stages by their names."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from classroom.models import Assignment, Attempt, Course, Enrolment, Extension, Pair
from classroom.services import ClassroomError, users_by_name
from court.procedures import names, procedure_for
from court.procedures.seats import PLAYABLE_SEATS, seat_info
from trials.models import Case, Trial
from trials.services import trial_create

BACKENDS = ("", "scripted", "openai")


PROCEDURE_LABELS = {"civil": gettext_lazy("civil"), "criminal": gettext_lazy("criminal")}


def procedure_label(procedure: str) -> str:
    """A procedure (``civil``, ``criminal``) as the interface names it."""
    return str(PROCEDURE_LABELS.get(procedure, procedure))


def _language() -> str:
    """The language of the names in a message: the interface's (``zh`` or ``en``)."""
    return "zh" if (translation.get_language() or "").startswith("zh") else "en"


def _seat_names(seats: list[str] | tuple[str, ...]) -> str:
    return ", ".join(names.seat_name(seat, _language()) for seat in seats)


def _stage_names(stages: list[str] | tuple[str, ...]) -> str:
    """The stages by name, each with its code (what the ``assignment_create`` command takes)."""
    return ", ".join(f"{names.stage_name(stage, _language())} ({stage})" for stage in stages)


def _check_stages(case: Case, stages: list[str]) -> list[str]:
    order = procedure_for(case.procedure).stage_ids
    unknown = [stage for stage in stages if stage not in order]
    if unknown:
        raise ClassroomError(
            _("stages: a %(procedure)s case has no stage %(unknown)s; its stages: %(stages)s")
            % {
                "unknown": _stage_names(unknown),
                "procedure": procedure_label(case.procedure),
                "stages": _stage_names(order),
            },
            field="stages",
        )
    if len(set(stages)) != len(stages) or stages != sorted(stages, key=order.index):
        raise ClassroomError(
            _("stages: name each once, in the procedure's order (%(stages)s)") % {"stages": _stage_names(order)},
            field="stages",
        )
    return stages


def _check_seats(case: Case, seats: list[str], paired: bool) -> list[str]:
    playable = PLAYABLE_SEATS[case.procedure]
    seats = list(dict.fromkeys(seat.strip() for seat in seats if seat.strip()))
    if not seats:
        raise ClassroomError(_("seats: choose the seat(s) students play"), field="seats")
    unknown = [seat for seat in seats if seat not in playable]
    if unknown:
        raise ClassroomError(
            _("seats: %(unknown)s cannot be played in a %(procedure)s case; its seats: %(seats)s")
            % {
                "unknown": _seat_names(unknown),
                "procedure": procedure_label(case.procedure),
                "seats": _seat_names(playable),
            },
            field="seats",
        )
    if paired and (len(seats) != 2 or len({seat_info(case.procedure, seat).side for seat in seats}) != 2):
        raise ClassroomError(
            _("seats: a paired assignment names two seats on opposite sides, one per student"), field="seats"
        )
    return seats


def _check_dates(opens_at: datetime, due_at: datetime | None) -> None:
    for name, key, moment in ((_("opens"), "opens_at", opens_at), (_("due"), "due_at", due_at)):
        if moment is not None and timezone.is_naive(moment):
            raise ClassroomError(
                _("%(name)s: give a time zone (e.g. 2025-06-01T23:59+08:00)") % {"name": name}, field=key
            )
    if due_at is not None and due_at <= opens_at:
        raise ClassroomError(_("due: the due date comes after the assignment opens"), field="due_at")


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
    interview_checklist: bool = True,
) -> Assignment:
    """Hand ``case`` to the course. Solo: the student plays every seat in ``seats``. Paired:
    two seats on opposite sides, one student each. A refusal names its field
    (``ClassroomError.field``) and the seats and stages by their names."""
    seats = _check_seats(case, seats, paired)
    stages = _check_stages(case, [stage.strip() for stage in stages or [] if stage.strip()])
    if attempts < 1:
        raise ClassroomError(_("attempts: at least 1"), field="attempts")
    if backend not in BACKENDS:
        raise ClassroomError(
            _("backend %(backend)r: one of scripted, openai (or blank: the server's default)") % {"backend": backend},
            field="backend",
        )
    opens_at = opens_at or timezone.now()
    _check_dates(opens_at, due_at)
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
        interview_checklist=interview_checklist,
    )


def assignment_update(
    *,
    assignment: Assignment,
    title: str,
    seats: list[str],
    stages: list[str],
    opens_at: datetime | None,
    due_at: datetime | None,
    attempts: int,
) -> Assignment:
    """Change an assignment. The title, dates and number of attempts may change at any time
    (a student who used more attempts than the new number keeps them); the seats and stages
    only while nobody has started it, since the trials already played keep theirs."""
    started = assignment.attempts.exists()
    seats = _check_seats(assignment.case, seats, assignment.paired)
    stages = _check_stages(assignment.case, [stage.strip() for stage in stages if stage.strip()])
    if started and (seats != list(assignment.seats) or stages != list(assignment.stages)):
        field = "seats" if seats != list(assignment.seats) else "stages"
        raise ClassroomError(
            _("%(field)s: students have started this assignment; its seats and stages stay as they are")
            % {"field": _("seats") if field == "seats" else _("stages")},
            field=field,
        )
    if attempts < 1:
        raise ClassroomError(_("attempts: at least 1"), field="attempts")
    opens_at = opens_at or assignment.opens_at
    _check_dates(opens_at, due_at)
    assignment.title = title.strip() or assignment.case.title
    assignment.seats, assignment.stages = seats, stages
    assignment.opens_at, assignment.due_at, assignment.attempts_allowed = opens_at, due_at, attempts
    assignment.save(update_fields=["title", "seats", "stages", "opens_at", "due_at", "attempts_allowed"])
    return assignment


def assignment_delete(*, assignment: Assignment) -> int:
    """Delete an assignment with its attempts, grades, extensions and pairs; the number of
    attempts deleted. The trials played stay: each student still reads their transcript and
    scorecard (from My scorecards), and the course's instructors still oversee them."""
    with transaction.atomic():
        attempts = assignment.attempts.count()
        assignment.delete()
    return attempts


def extension_set(
    *, assignment: Assignment, student: AbstractBaseUser, due_at: datetime | None, by: AbstractBaseUser
) -> Extension | None:
    """A later due date for one enrolled student (``None`` withdraws it: the assignment's
    own due date applies again). Their status and lateness follow it."""
    if not Enrolment.objects.filter(course_id=assignment.course_id, user=student).exists():
        raise ClassroomError(
            _("%(username)s is not enrolled in this course") % {"username": student.get_username()}, field="student"
        )
    if due_at is None:
        Extension.objects.filter(assignment=assignment, student=student).delete()
        return None
    if timezone.is_naive(due_at):
        raise ClassroomError(_("due: give a time zone (e.g. 2025-06-01T23:59+08:00)"), field="due_at")
    if due_at <= assignment.opens_at:
        raise ClassroomError(_("due: the due date comes after the assignment opens"), field="due_at")
    extension, _created = Extension.objects.update_or_create(
        assignment=assignment, student=student, defaults={"due_at": due_at, "granted_by": by}
    )
    return extension


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
            live=True,
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
    users = users_by_name([first, second])
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
