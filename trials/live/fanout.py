"""Frames and notices to the sockets of a trial or a person, through the channel layer.

Delivery is at most once, like the pub/sub layer's own: a frame lost while Redis is down is
not retried, since every turn is in the database and a socket that missed one gets it by
``resume``. A transport failure must never stop a trial or a request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.dispatch import receiver

from accounts.signals import rights_changed, sign_ins_revoked
from trials.protocol import ServerFrame

logger = logging.getLogger(__name__)


def group_name(trial_id: int) -> str:
    return f"trial.{trial_id}"


def driver_group(trial_id: int) -> str:
    """The process driving the trial (whichever holds its lease): objections and wake-ups
    from sockets on other processes reach its driver here."""
    return f"drive.{trial_id}"


def user_group(user_id: int) -> str:
    """Every socket a person has open, whatever the trial: told when they sign out, change
    their password, are made inactive, or lose a role or a course they taught."""
    return f"user.{user_id}"


class _Layer:
    """Whether the channel layer (Redis) answered lately, shared by every trial of the process."""

    RETRY_S = 0.5
    down_until = 0.0
    sending: set[asyncio.Task] = set()
    """Sends scheduled by ``notify_from_sync`` on a running loop, kept until they are done."""


async def remote_subscribers(group: str) -> int:
    """How many sockets of other processes listen to ``group`` (the channel layer asks Redis)."""
    return await get_channel_layer().remote_subscribers(group)


async def broadcast(
    trial_id: int, frame: ServerFrame, *, audience: frozenset[str] | None = None, remote: bool = True
) -> None:
    """Send ``frame`` to the trial's sockets: at once to those of this process, through Redis
    to the others unless ``remote`` is false (dropped when it is unreachable). ``audience``
    names the seats that hear it (None: everyone in the trial; instructors hear everything)."""
    event = {"type": "trial.frame", "frame": frame, "audience": None if audience is None else sorted(audience)}
    await notify(group_name(trial_id), event, remote=remote)


async def catch_up_ask(trial_id: int) -> None:
    """Every socket of the trial re-reads what was stored since it connected (it may have
    joined from another process before the driver knew to publish for it)."""
    await notify(group_name(trial_id), {"type": "trial.catch_up"})


async def notify(group: str, event: dict[str, Any], *, remote: bool = True) -> None:
    """Send ``event`` to a group: the sockets of this process have it whatever happens; the
    others through Redis, unless ``remote`` is false. After a failure Redis rests for
    ``RETRY_S``, so a hundred streaming trials do not each wait on a refused connection."""
    resting = time.monotonic() < _Layer.down_until
    try:
        await get_channel_layer().group_send(group, event, remote=remote and not resting)
    except Exception as error:
        if _Layer.down_until == 0.0:
            logger.warning("channel layer unreachable, frames are dropped until it answers: %s", error)
        _Layer.down_until = time.monotonic() + _Layer.RETRY_S
        return
    if _Layer.down_until and not resting:
        logger.warning("channel layer answers again")
        _Layer.down_until = 0.0


def notify_from_sync(group: str, event: dict[str, Any]) -> None:
    """``notify`` for synchronous code (views, services after commit). Synchronous code that
    runs on an event loop's thread (a script or test that allows it) has it sent on that loop."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        async_to_sync(notify)(group, event)
        return
    task = loop.create_task(notify(group, event))
    _Layer.sending.add(task)
    task.add_done_callback(_Layer.sending.discard)


def seats_changed(trial_id: int) -> None:
    """A seat was taken or handed back: every socket of the trial re-reads its rights."""
    notify_from_sync(group_name(trial_id), {"type": "trial.seats"})


def session_ended(user_id: int, session_key: str) -> None:
    """A person signed out: the sockets opened with that session close."""
    notify_from_sync(user_group(user_id), {"type": "session.ended", "session_key": session_key})


@receiver(sign_ins_revoked, dispatch_uid="trials.sign_ins_check")
def sign_ins_check(sender: Any, user_id: int, **kwargs: Any) -> None:
    """A person's password changed or they were made inactive (``accounts.signals``): each
    socket they have open, in any process, asks whether its own sign-in still holds. Connected
    when this module loads, which ``TrialsConfig.ready`` makes sure of in every process."""
    notify_from_sync(user_group(user_id), {"type": "sign_in.check"})


@receiver(rights_changed, dispatch_uid="trials.rights_check")
def rights_check(sender: Any, user_id: int, **kwargs: Any) -> None:
    """A person's roles or courses changed (``accounts.signals``): each socket they have open,
    in any process, re-reads their rights on its trial and closes if none are left."""
    notify_from_sync(user_group(user_id), {"type": "rights.check"})
