"""Celery tasks of the trials app (eager in-process without REDIS_URL)."""

from __future__ import annotations

import os
import socket

from celery import shared_task

from trials.batches import batch_run


@shared_task(acks_late=True)
def batch_run_task(run_id: int) -> str:
    """Run one case of a batch; a duplicate delivery finds the case claimed and skips it."""
    return batch_run(run_id=run_id, worker=f"{socket.gethostname()}:{os.getpid()}")
