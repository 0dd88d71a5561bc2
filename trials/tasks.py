"""Celery tasks of the trials app (eager in-process without REDIS_URL), and how a batch is put
on them: one chord of lanes (``batch_submit``; see ``trials.batches``)."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from celery import chain, chord, group, shared_task
from celery.canvas import Signature
from celery.signals import worker_ready
from django.conf import settings
from django.db import connection
from django.dispatch import Signal

from trials.batches import batch_close, batch_lanes, batch_run, batches_recover
from trials.models import Batch
from trials.preparation import preparations_recover, trial_prepare

logger = logging.getLogger(__name__)


@shared_task(bind=True, acks_late=True, ignore_result=True)
def batch_run_task(self, run_id: int) -> str:
    """Run one case of a batch; its lane's next case follows (the chain). It never raises into
    the chain: a failing case is recorded on its run by ``batch_run``, and anything else (the
    database away before the claim) is logged and leaves the run to the recovery. Only the
    delivery that claimed the case carries its lane on: one that finds the case claimed or
    done (a duplicate, a recovered lane's or a dead worker's redelivered message) or whose
    claim was taken over ends the lane here, so a lane never runs twice (eagerly applied
    chains go on regardless: one process, no duplicates)."""
    try:
        status = batch_run(run_id=run_id, worker=f"{socket.gethostname()}:{os.getpid()}")
    except Exception:
        logger.exception("batch run %s could not start", run_id)
        return "error"
    if status in ("skipped", "lost"):
        self.request.chain = None
    return status


@shared_task(ignore_result=True)
def batch_close_task(batch_id: int) -> bool:
    """The chord's callback (and a recovered lane's end): close the batch if nothing is left."""
    return batch_close(batch_id=batch_id)


@shared_task(acks_late=True)
def trial_prepare_task(trial_id: int) -> str:
    """Play a new live trial's earlier stages under its lease; a duplicate delivery finds them
    played or leased to the worker playing them, and a failure pauses the trial with why."""
    trial = trial_prepare(trial_id=trial_id)
    return trial.status if trial is not None else "deleted"


def lane_signature(run_ids: list[int]) -> Signature:
    return chain(batch_run_task.si(run_id) for run_id in run_ids)


def batch_canvas(batch: Batch, lanes: list[list[int]] | None = None) -> Signature:
    """The batch's runs still to do (``lanes``, dealt by ``batch_lanes`` when not given): its
    lanes in a chord whose callback closes it."""
    lanes = batch_lanes(batch) if lanes is None else lanes
    return chord(group(lane_signature(lane) for lane in lanes), batch_close_task.si(batch.pk))


def batch_submit(batch: Batch) -> int:
    """Hand the batch to the workers; returns how many lanes. A batch with nothing to run is
    closed at once."""
    lanes = batch_lanes(batch)
    if lanes:
        batch_canvas(batch, lanes).apply_async()
    else:
        batch_close(batch_id=batch.pk)
    return len(lanes)


def lane_send(batch_id: int, run_ids: list[int]) -> None:
    """A recovered lane: its runs, then the batch's close (it is outside the chord)."""
    (lane_signature(run_ids) | batch_close_task.si(batch_id)).apply_async()


class LaneThreads:
    """The workers of the embedded defaults (eager Celery, no worker processes): the command's
    own process applies each lane of the batch (``batch_canvas``'s chains) in a thread of its
    own, then the chord's callback once every lane has ended."""

    def __init__(self, batch: Batch) -> None:
        self._batch = batch
        self._pool = ThreadPoolExecutor(max_workers=batch.concurrency, thread_name_prefix="batch-lane")
        self._start()

    def _start(self) -> None:
        self._started = time.monotonic()
        self._lanes = [self._pool.submit(self._apply, lane_signature(lane)) for lane in batch_lanes(self._batch)]

    def poll(self, timeout: float) -> None:
        """Wait until every lane has ended or ``timeout`` passes; a lane that raised raises here.
        Lanes that ended with runs still to do (a dead command's, claimed until their lease
        runs out) are applied again every half lease: the recovery of the embedded defaults."""
        deadline = time.monotonic() + timeout
        try:
            for lane in self._lanes:
                lane.result(timeout=max(deadline - time.monotonic(), 0))
        except TimeoutError:
            return
        if time.monotonic() - self._started >= settings.LEGALSIM_BATCH_LEASE_S / 2 and batch_lanes(self._batch):
            self._start()
        else:
            time.sleep(max(deadline - time.monotonic(), 0))

    def close(self) -> None:
        """Once every case is done: the lanes return and the chord's callback closes the batch.
        Interrupted: start no lane not yet started; the cases running go on to their end (an
        interrupted command's batch carries on with ``simulate_split --resume``)."""
        done = not batch_lanes(self._batch)
        self._pool.shutdown(wait=done, cancel_futures=not done)
        if done:
            self._apply(batch_close_task.si(self._batch.pk))

    @staticmethod
    def _apply(signature: Signature) -> None:
        try:
            signature.apply()
        finally:
            connection.close()


recovering = Signal()
"""Sent by every recovery pass of the workers: other apps recover their own background work
there (``classroom.tasks``: roster jobs)."""


@worker_ready.connect
def _recover_from_start(**kwargs) -> None:
    """A worker that starts (or restarts after a crash) recovers what dead workers left, then
    does again every half batch lease: recovery only, the chord dispatches."""
    threading.Thread(target=_recover_forever, name="legalsim-recovery", daemon=True).start()


def recovery_pass() -> None:
    """Send again the rest of the batch lanes and the preparations whose worker died (their
    lease ran out), then let the other apps recover theirs (``recovering``)."""
    try:
        batches_recover(send=lane_send)
    except Exception:
        logger.exception("recovering batch lanes failed; trying again")
    try:
        preparations_recover(send=trial_prepare_task.delay)
    except Exception:
        logger.exception("recovering preparations failed; trying again")
    for receiver, result in recovering.send_robust(sender=None):
        if isinstance(result, Exception):
            logger.error("recovery by %r failed; trying again", receiver, exc_info=result)


def _recover_forever() -> None:
    while True:
        try:
            recovery_pass()
        finally:
            connection.close()  # back to the pool while this thread sleeps
        time.sleep(settings.LEGALSIM_BATCH_LEASE_S / 2)
