"""Frames and notices to the sockets of a trial or a person, through the channel layer.

Delivery is at most once, like the pub/sub layer's own: a frame lost while Redis is down is
not retried, since every turn is in the database and a socket that missed one gets it by
``resume``. A transport failure must never stop a trial or a request.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def group_name(trial_id: int) -> str:
    return f"trial.{trial_id}"


def driver_group(trial_id: int) -> str:
    """The process driving the trial (whichever holds its lease): objections and wake-ups
    from sockets on other processes reach its driver here."""
    return f"drive.{trial_id}"


def user_group(user_id: int) -> str:
    """Every socket a person has open, whatever the trial: told when they sign out."""
    return f"user.{user_id}"


class _Layer:
    """Whether the channel layer (Redis) answered lately, shared by every trial of the process."""

    RETRY_S = 0.5
    down_until = 0.0


async def broadcast(trial_id: int, frame: dict[str, Any]) -> None:
    """Send ``frame`` to the trial's sockets, or drop it when the channel layer is unreachable."""
    await notify(group_name(trial_id), {"type": "trial.frame", "frame": frame})


async def notify(group: str, event: dict[str, Any]) -> None:
    """Send ``event`` to a group. After a failure the layer rests for ``RETRY_S``, so a
    hundred streaming trials do not each wait on a refused connection."""
    if time.monotonic() < _Layer.down_until:
        return
    try:
        await get_channel_layer().group_send(group, event)
    except Exception as error:
        if _Layer.down_until == 0.0:
            logger.warning("channel layer unreachable, frames are dropped until it answers: %s", error)
        _Layer.down_until = time.monotonic() + _Layer.RETRY_S
        return
    if _Layer.down_until:
        logger.warning("channel layer answers again")
        _Layer.down_until = 0.0


def notify_from_sync(group: str, event: dict[str, Any]) -> None:
    """``notify`` for synchronous code (views, services after commit)."""
    async_to_sync(notify)(group, event)


def seats_changed(trial_id: int) -> None:
    """A seat was taken or handed back: every socket of the trial re-reads its rights."""
    notify_from_sync(group_name(trial_id), {"type": "trial.seats"})


def session_ended(user_id: int, session_key: str) -> None:
    """A person signed out: the sockets opened with that session close."""
    notify_from_sync(user_group(user_id), {"type": "session.ended", "session_key": session_key})
