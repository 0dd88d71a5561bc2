"""Seats taken, handed back and taken back over HTTP (the room's pages, the API): the write
(``trials.live.services``), then, once it is committed, what a session's ``say``, ``object``
and ``control`` do after theirs: the trial's sockets are told, each re-reading the seats its
person holds before its next frame (``trial.seats``: who hears what is decided when a frame
is sent), and the trial's driver is woken, so a seat handed back to an agent speaks now, not
at the driver's next poll.

Synchronous, for the views: a request's thread may not touch the asyncio objects of a
session kept in this process (its wake-up event belongs to the event loop), so it wakes the
driver as a socket of another process does, through the driver's group on the channel layer
(``trials.live.fanout.driver_group``), whichever process drives the trial.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from trials.access import BadInvitation, seat_reclaim
from trials.live import services
from trials.live.fanout import driver_group, notify_from_sync, seats_changed
from trials.models import Trial
from trials.protocol import ErrorCode


def seat_take(*, trial_id: int, seat: str, user: AbstractBaseUser, invitation: str = "") -> None:
    """``user`` takes ``seat`` (``services.seat_take`` says who may). Raises ``LiveError``."""
    services.seat_take(trial_id=trial_id, seat=seat, user=user, invitation=invitation)
    transaction.on_commit(lambda: seats_told(trial_id))


def seat_release(*, trial_id: int, seat: str, user: AbstractBaseUser) -> None:
    """``seat`` goes back to an agent (``services.seat_release`` says who may). Raises ``LiveError``."""
    services.seat_release(trial_id=trial_id, seat=seat, user=user)
    transaction.on_commit(lambda: seats_told(trial_id))


def seat_retake(*, trial_id: int, seat: str, user: AbstractBaseUser) -> None:
    """``user`` takes back ``seat``, which they handed back themselves, while the trial is
    played (``trials.access.seat_reclaim``), in one transaction with the trial's row locked:
    of two people after the seat, one gets it. Raises ``LiveError``."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().select_related("case").get(pk=trial_id)
        try:
            token = seat_reclaim(trial=trial, seat=seat, user=user)
        except BadInvitation as error:
            raise services.LiveError(ErrorCode.NOT_YOUR_SEAT, str(error)) from None
        seat_take(trial_id=trial_id, seat=seat, user=user, invitation=token)


def seats_told(trial_id: int) -> None:
    """A seat of the trial changed hands: its sockets re-read their rights, its driver wakes."""
    seats_changed(trial_id)
    notify_from_sync(driver_group(trial_id), {"type": "driver.wake"})
