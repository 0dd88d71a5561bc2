"""Who may read a trial, oversee it and take its seats: one rule, asked by the room, the
transcript, the scorecard, the API, the socket and every list of trials.

A trial people play in (any human seat, ever: ``Trial.live``) is private. It is read by its
participants (through their seats), by the instructors of its course (``Trial.course``), by
its creator when they may teach, and by admins; for everyone else it does not exist (404). An
all-agent research trial (``simulate``, batch runs) is read by every instructor, as before.

Overseers (admins, the course's instructors, a teaching creator; any instructor for a research
trial) read everything, steer the hearing and may take over any seat. Nobody else takes a
seat uninvited: a participant (or an overseer) invites a named user to a free seat with a
signed, expiring link (``invitation_make``), which only that user can use, and only once: the
link carries the id of an ``Invitation`` row that taking the seat marks used, and that an
overseer removing the person from the trial withdraws. Someone who handed their seat back
takes it again, while the trial is played, with an invitation of their own (``seat_reclaim``).

The course is known only through ``Trial.course`` and its ``instructors`` relation, by name:
trials never imports the classroom app.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from court.procedures.names import seat_name
from court.procedures.seats import PLAYABLE_SEATS
from legalsim.roles import Ability, User, can
from trials.models import Case, Invitation, Seat, Trial

INVITATION_SALT = "legalsim.trials.invitation"
INVITATION_MAX_AGE = timedelta(days=7)


def trial_private(trial: Trial) -> bool:
    """Whether people play in the trial (a room trial, or any seat held by a person)."""
    return trial.live or trial.seats.filter(user__isnull=False).exists()


def trial_overseer(trial: Trial, user: User) -> bool:
    """Whether ``user`` reads all of ``trial`` and may steer it and take over its seats. Being
    listed among a course's instructors counts only while the person may teach: with every
    role revoked, a course they were never taken off of gives them nothing."""
    if not user.is_authenticated or not user.is_active:
        return False
    if can(user, Ability.ADMINISTER):
        return True
    if not can(user, Ability.TEACH):
        return False
    if trial.course_id is not None and Trial.objects.filter(pk=trial.pk, course__instructors=user).exists():
        return True
    return trial.created_by_id == user.pk or not trial_private(trial)


@dataclass(frozen=True)
class Rights:
    """What a person may do in one trial, read afresh (a socket's, re-read on every message
    and on every change of their roles or courses)."""

    user: AbstractBaseUser | None
    """The person as stored now (None: deleted), their roles not cached from before."""
    overseer: bool
    seats: list[str]


def rights_now(trial_id: int, user_id: int) -> Rights:
    """``user_id``'s rights in the trial as the database says now: the person re-read (a
    socket's user object caches the roles it had when it connected), whether they oversee the
    trial (``trial_overseer``) and the seats they hold, which count only while they may play
    (as for the room's page: with every role revoked, a seat still held opens nothing)."""
    user = get_user_model()._default_manager.filter(pk=user_id).first()
    trial = Trial.objects.filter(pk=trial_id).first()
    if user is None or trial is None:
        return Rights(user, False, [])
    seats = seats_of(trial_id, user) if can(user, Ability.PLAY) else []
    return Rights(user, trial_overseer(trial, user), seats)


def trials_readable(*, user: User) -> QuerySet[Trial]:
    """The trials ``user`` may read, as a queryset: the same rule as ``trial_overseer`` plus
    the trials they hold a seat in or handed one back in (the lists of trials: API, case pages)."""
    trials = Trial.objects.select_related("case")
    if not user.is_authenticated or not user.is_active:
        return trials.none()
    if can(user, Ability.ADMINISTER):
        return trials
    rule = Q(seats__user=user) | Q(seats__handed_back_by=user)
    if can(user, Ability.TEACH):
        research = Q(live=False) & ~Q(pk__in=Seat.objects.filter(user__isnull=False).values("trial_id"))
        rule |= Q(course__instructors=user) | Q(created_by=user) | research
    return trials.filter(pk__in=Trial.objects.filter(rule).values("pk"))


def seats_of(trial: Trial | int, user: AbstractBaseUser) -> list[str]:
    """The seats ``user`` holds in the trial (given as a row or by id)."""
    if not user.is_authenticated:
        return []
    trial_id = trial if isinstance(trial, int) else trial.pk
    return list(Seat.objects.filter(trial_id=trial_id, user=user).values_list("seat", flat=True))


def handed_back_seats(trial: Trial, user: AbstractBaseUser) -> list[str]:
    """The seats ``user`` played in the trial and handed back to an agent themselves."""
    if not user.is_authenticated:
        return []
    return list(trial.seats.filter(handed_back_by=user).values_list("seat", flat=True))


def seat_reclaim(*, trial: Trial, seat: str, user: AbstractBaseUser) -> str:
    """The person who handed ``seat`` back takes it again while the trial is played: the token
    of an invitation of theirs to it, by themselves, for ``seat_take`` to spend. Only a seat
    they handed back themselves (an overseer's removal keeps nothing) that no person holds now.
    Raises ``BadInvitation``."""
    if trial.status == Trial.Status.FINISHED:
        raise BadInvitation(gettext("The trial has ended"))
    if not trial.seats.filter(seat=seat, handed_back_by=user, user__isnull=True).exists():
        raise BadInvitation(
            gettext("You cannot take %(seat)s back: you did not hand it back, or someone holds it now.")
            % {"seat": seat_name(seat, trial.case.language)}
        )
    return invitation_make(trial=trial, seat=seat, invitee=user, by=user)


class NotSeated(LookupError):
    """The user holds no seat in the trial and may not read every trial: for them it is not there."""


def reader_seats(trial: Trial, user: AbstractBaseUser) -> list[str] | None:
    """The seats through which ``user`` reads a finished or running trial (its transcript,
    its scorecard): ``None``, meaning everything, for its overseers; their own seats for a
    participant; ``NotSeated`` for anyone else."""
    if trial_overseer(trial, user):
        return None
    seats = seats_of(trial, user) or handed_back_seats(trial, user)
    if not seats:
        raise NotSeated(trial.pk)
    return seats


def trial_read(trial_id: int, user: AbstractBaseUser) -> tuple[Trial, list[str] | None]:
    """The trial and the seats ``user`` reads it through (``reader_seats``); ``NotSeated``
    when there is no such trial, or none for them."""
    trial = Trial.objects.select_related("case").filter(pk=trial_id).first()
    if trial is None:
        raise NotSeated(trial_id)
    return trial, reader_seats(trial, user)


class BadInvitation(ValueError):
    """A link that was tampered with, has expired, or is for another trial or person."""


class InvitationClosed(BadInvitation):
    """A genuine link for this person that no longer opens a seat: used, or withdrawn."""


def invitation_make(*, trial: Trial, seat: str, invitee: AbstractBaseUser, by: AbstractBaseUser) -> str:
    """Record an invitation to ``seat`` and return the signed token of its link (valid for
    ``INVITATION_MAX_AGE``, used once)."""
    invitation = Invitation.objects.create(trial=trial, seat=seat, invitee=invitee, inviter=by)
    payload = {"id": invitation.pk, "trial": trial.pk, "user": invitee.pk}
    return signing.dumps(payload, salt=INVITATION_SALT, compress=True)


def invitation_read(token: str, *, trial_id: int, user: User) -> Invitation:
    """The invitation ``token`` carries, if it is genuine, current, for this trial and for
    ``user``, and still open (``InvitationClosed`` once used or withdrawn)."""
    try:
        data = signing.loads(token, salt=INVITATION_SALT, max_age=INVITATION_MAX_AGE)
    except signing.SignatureExpired:
        raise BadInvitation(gettext("This invitation has expired; ask for a new one.")) from None
    except signing.BadSignature:
        raise BadInvitation(gettext("This is not a valid invitation link.")) from None
    if data.get("trial") != trial_id or not user.is_authenticated or data.get("user") != user.pk:
        raise BadInvitation(gettext("This invitation is for someone else."))
    invitation = Invitation.objects.filter(pk=data.get("id"), trial_id=trial_id, invitee_id=user.pk).first()
    if invitation is None:
        raise BadInvitation(gettext("This is not a valid invitation link."))
    if invitation.used_at is not None:
        raise InvitationClosed(gettext("This invitation has already been used."))
    if invitation.revoked_at is not None:
        raise InvitationClosed(gettext("This invitation was withdrawn when you were removed from the trial."))
    return invitation


def invitation_use(token: str, *, trial_id: int, seat: str, user: User) -> Invitation:
    """Spend the invitation ``token`` carries on ``seat``, inside the caller's transaction:
    of two takes with one link, exactly one marks it used (the other gets ``InvitationClosed``)."""
    invitation = invitation_read(token, trial_id=trial_id, user=user)
    if invitation.seat != seat:
        language = invitation.trial.case.language
        raise BadInvitation(
            gettext("The invitation is for the seat %(invited)s, not %(seat)s.")
            % {"invited": seat_name(invitation.seat, language), "seat": seat_name(seat, language)}
        )
    opened = Invitation.objects.filter(pk=invitation.pk, used_at__isnull=True, revoked_at__isnull=True)
    if not opened.update(used_at=timezone.now()):
        raise InvitationClosed(gettext("This invitation has already been used."))
    return invitation


def invitations_revoke(*, trial: Trial, invitee_id: int) -> int:
    """An overseer removed ``invitee_id`` from ``trial``: withdraw every invitation of theirs to
    it that is still open, so no link they hold seats them again. The number withdrawn."""
    opened = Invitation.objects.filter(
        trial=trial, invitee_id=invitee_id, used_at__isnull=True, revoked_at__isnull=True
    )
    return opened.update(revoked_at=timezone.now())


def seat_invite(*, trial: Trial, seat: str, username: str, by: AbstractBaseUser) -> str:
    """A participant (or an overseer) invites the user ``username`` to a free seat of the
    trial: the token of the link only that user can follow. Raises ``BadInvitation``."""
    if not (trial.seats.filter(user=by).exists() or trial_overseer(trial, by)):
        raise BadInvitation(gettext("Only the people seated in a trial invite others to it."))
    if trial.status == Trial.Status.FINISHED:
        raise BadInvitation(gettext("The trial has ended"))
    row = trial.seats.filter(seat=seat).first()
    if row is None or seat not in PLAYABLE_SEATS[trial.procedure]:
        raise BadInvitation(gettext("That is not a seat a person may take in this trial."))
    if row.user_id is not None:
        raise BadInvitation(
            gettext("The seat %(seat)s is held by a person already.") % {"seat": seat_name(seat, trial.case.language)}
        )
    invitee = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if invitee is None or not can(invitee, Ability.PLAY):
        raise BadInvitation(gettext("There is no student “%(username)s”.") % {"username": username.strip()})
    if trial.seats.filter(user=invitee).exists():
        raise BadInvitation(
            gettext("%(username)s holds a seat in this trial already.") % {"username": invitee.get_username()}
        )
    return invitation_make(trial=trial, seat=seat, invitee=invitee, by=by)


def case_seats_open(case: Case, user: User) -> list[str]:
    """The seats ``user`` may read the brief of and play on the case's page. Everyone may
    choose any seat a person plays, except a student whom a paired assignment of their course
    sets against a classmate on this case: only the seat their pair gives them (none until they
    are paired), so the opponent's brief stays the opponent's. Classroom is read by name."""
    playable = list(PLAYABLE_SEATS[case.procedure])
    if can(user, Ability.TEACH):
        return playable
    member = Q(course__enrolments__user=user) | Q(pairs__first=user) | Q(pairs__second=user)
    paired = case.course_assignments.filter(member, paired=True).distinct()
    if not paired.exists():
        return playable
    own: set[str] = set()
    for assignment in paired:
        for first_id, second_id in assignment.pairs.values_list("first_id", "second_id"):
            own.update(
                seat for seat, id_ in zip(assignment.seats, (first_id, second_id), strict=False) if id_ == user.pk
            )
    return [seat for seat in playable if seat in own]
