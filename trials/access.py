"""Who may read a trial, oversee it and take its seats: one rule, asked by the room, the
transcript, the scorecard, the API, the socket and every list of trials.

A trial people play in (any human seat, ever: ``Trial.live``) is private. It is read by its
participants (through their seats), by the instructors of its course (``Trial.course``), by
its creator when they may teach, and by admins; for everyone else it does not exist (404). An
all-agent research trial (``simulate``, batch runs) is read by every instructor, as before.

Overseers (admins, the course's instructors, a teaching creator; any instructor for a research
trial) read everything, steer the hearing and may take over any seat. Nobody else takes a
seat uninvited: a participant (or an overseer) invites a named user to a free seat with a
signed, expiring link (``invitation_make``), which only that user can use.

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

from legalsim.roles import Ability, User, can
from trials.models import Seat, Trial
from trials.procedures.seats import PLAYABLE_SEATS

INVITATION_SALT = "legalsim.trials.invitation"
INVITATION_MAX_AGE = timedelta(days=7)


def trial_private(trial: Trial) -> bool:
    """Whether people play in the trial (a room trial, or any seat held by a person)."""
    return trial.live or trial.seats.filter(user__isnull=False).exists()


def trial_overseer(trial: Trial, user: User) -> bool:
    """Whether ``user`` reads all of ``trial`` and may steer it and take over its seats."""
    if not user.is_authenticated or not user.is_active:
        return False
    if can(user, Ability.ADMINISTER):
        return True
    if trial.course_id is not None and Trial.objects.filter(pk=trial.pk, course__instructors=user).exists():
        return True
    if not can(user, Ability.TEACH):
        return False
    return trial.created_by_id == user.pk or not trial_private(trial)


def trials_readable(*, user: User) -> QuerySet[Trial]:
    """The trials ``user`` may read, as a queryset: the same rule as ``trial_overseer`` plus
    the trials they hold a seat in or handed one back in (the lists of trials: API, case pages)."""
    trials = Trial.objects.select_related("case")
    if not user.is_authenticated or not user.is_active:
        return trials.none()
    if can(user, Ability.ADMINISTER):
        return trials
    rule = Q(seats__user=user) | Q(seats__handed_back_by=user) | Q(course__instructors=user)
    if can(user, Ability.TEACH):
        research = Q(live=False) & ~Q(pk__in=Seat.objects.filter(user__isnull=False).values("trial_id"))
        rule |= Q(created_by=user) | research
    return trials.filter(pk__in=Trial.objects.filter(rule).values("pk"))


@dataclass(frozen=True)
class Invitation:
    trial_id: int
    seat: str
    user_id: int
    by_id: int


class BadInvitation(ValueError):
    """A link that was tampered with, has expired, or is for another trial or person."""


def invitation_make(*, trial: Trial, seat: str, invitee: AbstractBaseUser, by: AbstractBaseUser) -> str:
    """The signed token of an invitation to ``seat``, valid for ``INVITATION_MAX_AGE``."""
    payload = {"trial": trial.pk, "seat": seat, "user": invitee.pk, "by": by.pk}
    return signing.dumps(payload, salt=INVITATION_SALT, compress=True)


def invitation_read(token: str, *, trial_id: int, user: User) -> Invitation:
    """The invitation ``token`` carries, if it is genuine, current, for this trial and for ``user``."""
    try:
        data = signing.loads(token, salt=INVITATION_SALT, max_age=INVITATION_MAX_AGE)
    except signing.SignatureExpired:
        raise BadInvitation("this invitation has expired; ask for a new one") from None
    except signing.BadSignature:
        raise BadInvitation("this is not a valid invitation link") from None
    invitation = Invitation(trial_id=data["trial"], seat=data["seat"], user_id=data["user"], by_id=data["by"])
    if invitation.trial_id != trial_id or not user.is_authenticated or invitation.user_id != user.pk:
        raise BadInvitation("this invitation is for someone else")
    return invitation


def seat_invite(*, trial: Trial, seat: str, username: str, by: AbstractBaseUser) -> str:
    """A participant (or an overseer) invites the user ``username`` to a free seat of the
    trial: the token of the link only that user can follow. Raises ``BadInvitation``."""
    if not (trial.seats.filter(user=by).exists() or trial_overseer(trial, by)):
        raise BadInvitation("only the people seated in a trial invite others to it")
    if trial.status == Trial.Status.FINISHED:
        raise BadInvitation("the trial has ended")
    row = trial.seats.filter(seat=seat).first()
    if row is None or seat not in PLAYABLE_SEATS[trial.procedure]:
        raise BadInvitation(f"{seat!r} is not a seat a person may take in this trial")
    if row.user_id is not None:
        raise BadInvitation(f"{seat} is held by a person already")
    invitee = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if invitee is None or not can(invitee, Ability.PLAY):
        raise BadInvitation(f"no student {username.strip()!r}")
    if trial.seats.filter(user=invitee).exists():
        raise BadInvitation(f"{invitee.get_username()} holds a seat in this trial already")
    return invitation_make(trial=trial, seat=seat, invitee=invitee, by=by)
