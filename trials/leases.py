"""Which process drives a live trial: a lease on the trial's row (``driver``, ``driver_until``),
taken by the first driver, renewed by its heartbeat and handed back when it stops; a trial
whose lease ran out lost its process and is taken over by another.

A trial being prepared by a worker (``trials.preparation``) is leased the same way by the
worker that plays its earlier stages (``lease_kept``): no driver takes it meanwhile, and a
preparation whose lease ran out lost its worker and is sent to another by the workers'
recovery pass (``trials.preparation.preparations_recover``). While a preparation waits in
the queue its lease is free but runs out (``lease_queued``), so a preparation that no
worker took is sent again too. ``trial_create`` and a resume queue one here
(``preparation_enqueue``), sending the task by name (``trials.workers``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import threading
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from trials.models import Trial
from trials.pool import in_pool
from trials.workers import PREPARE, prepared_by_driver, task_send

logger = logging.getLogger(__name__)

PROCESS = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
"""This process, as the holder of driver leases."""


def _until() -> datetime:
    return timezone.now() + timedelta(seconds=settings.LEGALSIM_DRIVER_LEASE_S)


def _free() -> Q:
    return Q(driver="") | Q(driver=PROCESS) | Q(driver_until__isnull=True) | Q(driver_until__lt=timezone.now())


def lease_claim(trial_id: int, *, preparing: bool = False) -> bool:
    """Take the trial's lease unless another process holds it. A driver does not take a
    trial a worker prepares (its preparer holds the lease); a preparer takes only a trial
    still ``preparing``."""
    trials = Trial.objects.filter(_free(), pk=trial_id)
    if preparing:
        trials = trials.filter(status=Trial.Status.PREPARING)
    elif not prepared_by_driver():
        trials = trials.exclude(status=Trial.Status.PREPARING)
    return bool(trials.update(driver=PROCESS, driver_until=_until()))


def lease_extend(trial_id: int) -> bool:
    return bool(Trial.objects.filter(pk=trial_id, driver=PROCESS).update(driver_until=_until()))


def lease_held(trial_id: int) -> bool:
    """Whether this process holds the trial's lease (the room's driver that prepares it)."""
    return Trial.objects.filter(pk=trial_id, driver=PROCESS, driver_until__gte=timezone.now()).exists()


def lease_free(trial_id: int, *, until: datetime | None) -> None:
    """Hand the lease back with ``until``: now, for the next driver at once (``orphans``);
    None, for the first participant who connects; a time to come, for whoever takes it."""
    Trial.objects.filter(pk=trial_id, driver=PROCESS).update(driver="", driver_until=until)


def _lapsed() -> Q:
    return Q(driver_until__isnull=True) | Q(driver_until__lt=timezone.now())


def preparations_lapsed() -> list[int]:
    """Trials being prepared whose lease ran out (their worker died) or was never taken."""
    return list(Trial.objects.filter(_lapsed(), status=Trial.Status.PREPARING).values_list("pk", flat=True))


def lease_queued(trial_id: int, *, stale_only: bool = False) -> bool:
    """A preparation handed to the workers: its lease is free for the worker that takes it,
    and runs out after ``LEGALSIM_BATCH_LEASE_S`` if none has. ``stale_only``: only if its
    lease ran out (or was never taken), so one recovery pass of all the workers' sends it."""
    trials = Trial.objects.filter(pk=trial_id)
    if stale_only:
        trials = trials.filter(_lapsed(), status=Trial.Status.PREPARING)
    until = timezone.now() + timedelta(seconds=settings.LEGALSIM_BATCH_LEASE_S)
    return bool(trials.update(driver="", driver_until=until))


def preparation_enqueue(trial_id: int) -> None:
    """Hand the trial to a worker once the caller's transaction commits (at once outside one),
    its lease free for that worker and running out if none takes it (``lease_queued``);
    without workers its driver prepares it (``prepared_by_driver``)."""
    if not prepared_by_driver():
        lease_queued(trial_id)
        transaction.on_commit(lambda: task_send(PREPARE, trial_id))


@contextlib.contextmanager
def lease_kept(trial_id: int) -> Iterator[threading.Event]:
    """Hold the lease from synchronous code (a worker preparing the trial), renewed by a
    thread every third of its length; the event is set once it is lost. The caller took it
    (``lease_claim``) and hands it back (``lease_free``)."""
    lost, stopped = threading.Event(), threading.Event()
    if connection.in_atomic_block:
        # Another connection could neither see nor renew a lease taken in a transaction not
        # yet committed (the caller's): its own stores renew it.
        yield lost
        return
    beat = threading.Thread(
        target=_beat, args=(trial_id, lost, stopped), name=f"legalsim-lease-{trial_id}", daemon=True
    )
    beat.start()
    try:
        yield lost
    finally:
        stopped.set()
        beat.join()


def _beat(trial_id: int, lost: threading.Event, stopped: threading.Event) -> None:
    while not stopped.wait(settings.LEGALSIM_DRIVER_LEASE_S / 3):
        try:
            renewed = lease_extend(trial_id)
        except Exception:
            logger.exception("trial %s: renewing the lease failed; trying again", trial_id)
            continue
        finally:
            connection.close()  # back to the pool until the next beat
        if not renewed:
            lost.set()
            return


@in_pool
def lease_take(trial_id: int) -> bool:
    return lease_claim(trial_id)


@in_pool
def lease_renew(trial_id: int) -> bool:
    return lease_extend(trial_id)


@in_pool
def lease_release(trial_id: int) -> None:
    Trial.objects.filter(pk=trial_id, driver=PROCESS).update(driver="")


@in_pool
def orphans() -> list[int]:
    """Live trials under way (or being prepared by their driver, without workers) whose
    driver's lease ran out: their process died or restarted. A trial nobody has joined yet
    (no lease ever taken) waits for its first participant; a preparation a worker lost is
    the workers' to recover."""
    statuses = [Trial.Status.RUNNING, Trial.Status.WAITING]
    if prepared_by_driver():
        statuses.append(Trial.Status.PREPARING)
    return list(
        Trial.objects.filter(live=True, status__in=statuses, driver_until__lt=timezone.now()).values_list(
            "pk", flat=True
        )
    )


async def lease_hand_back(trial_id: int) -> None:
    """However the driver stops (the end, a failure, a shutdown), the trial's lease is free at
    once for whichever process drives it next, not after it runs out."""
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.shield(lease_release(trial_id))
