"""Celery tasks of the trials app (eager in-process without REDIS_URL)."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db import connection

from trials.batches import batch_dispatch, batch_run, batches_top_up
from trials.models import BatchRun
from trials.preparation import trial_prepare

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, ignore_result=True)
def batch_run_task(self, run_id: int) -> str:
    """Run one case of a batch, then send the batch's next cases; a duplicate delivery finds
    the case claimed and skips it. Run eagerly (no workers), the caller sends the next ones.
    Its result is not kept: how the case went is on its run (``BatchRun``), which is what the
    command and the batch page read."""
    status = batch_run(run_id=run_id, worker=f"{socket.gethostname()}:{os.getpid()}")
    if not self.request.is_eager:
        run = BatchRun.objects.select_related("batch").get(pk=run_id)
        batch_dispatch(batch=run.batch, send=batch_run_task.delay)
    return status


@shared_task(acks_late=True)
def trial_prepare_task(trial_id: int) -> str:
    """Play a new live trial's earlier stages; a duplicate delivery finds them played."""
    trial = trial_prepare(trial_id=trial_id)
    return trial.status if trial is not None else "deleted"


@worker_ready.connect
def _top_up_from_start(**kwargs) -> None:
    """A worker that starts (or restarts after a crash) carries on every batch under way, and
    every half lease sends again the cases of a worker that died meanwhile."""
    threading.Thread(target=_top_up_forever, name="legalsim-batch-top-up", daemon=True).start()


def _top_up_forever() -> None:
    while True:
        try:
            batches_top_up(send=batch_run_task.delay)
        except Exception:
            logger.exception("sending batch cases failed; trying again")
        finally:
            connection.close()  # back to the pool while this thread sleeps
        time.sleep(settings.LEGALSIM_BATCH_LEASE_S / 2)
