"""Which process drives a live trial: a lease on the trial's row (``driver``, ``driver_until``),
taken by the first driver, renewed by its heartbeat and handed back when it stops; a trial
whose lease ran out lost its process and is taken over by another."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import uuid
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from trials.models import Trial
from trials.pool import in_pool

PROCESS = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
"""This process, as the holder of driver leases."""


@in_pool
def lease_take(trial_id: int) -> bool:
    now = timezone.now()
    free = Q(driver="") | Q(driver=PROCESS) | Q(driver_until__isnull=True) | Q(driver_until__lt=now)
    until = now + timedelta(seconds=settings.LEGALSIM_DRIVER_LEASE_S)
    return bool(Trial.objects.filter(free, pk=trial_id).update(driver=PROCESS, driver_until=until))


@in_pool
def lease_renew(trial_id: int) -> bool:
    until = timezone.now() + timedelta(seconds=settings.LEGALSIM_DRIVER_LEASE_S)
    return bool(Trial.objects.filter(pk=trial_id, driver=PROCESS).update(driver_until=until))


@in_pool
def lease_release(trial_id: int) -> None:
    Trial.objects.filter(pk=trial_id, driver=PROCESS).update(driver="")


@in_pool
def orphans() -> list[int]:
    """Live trials under way (or being prepared) whose driver's lease ran out: their process
    died or restarted. A trial nobody has joined yet (no lease ever taken) waits for its first
    participant."""
    return list(
        Trial.objects.filter(
            live=True,
            status__in=(Trial.Status.RUNNING, Trial.Status.WAITING, Trial.Status.PREPARING),
            driver_until__lt=timezone.now(),
        ).values_list("pk", flat=True)
    )


async def lease_hand_back(trial_id: int) -> None:
    """However the driver stops (the end, a failure, a shutdown), the trial's lease is free at
    once for whichever process drives it next, not after it runs out."""
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.shield(lease_release(trial_id))
