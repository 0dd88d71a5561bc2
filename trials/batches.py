"""Batch runs of a case split over Celery workers (``simulate_split``).

The command that starts a batch sends the first ``concurrency`` cases to the workers; from
then on the workers keep it going: a worker that finishes a case sends the next ones
(``batch_dispatch``), and every worker, from its start and every half lease, sends again the
cases whose worker stopped beating its heart (killed, lost) (``batches_top_up``). The
command may stay to draw the progress or leave (``--detach``). A worker claims a case before it runs it; the claim bumps
the run's ``attempt``, and every write of the run checks that attempt (a fencing token), so
a case never runs twice at the same time, and a worker that lost its claim stops at its
next checkpoint without writing. Each finished stage is stored (``trial_continue``), so the
next claim carries on from the last stage a dead worker finished.

Cases in flight cost a thread, not a process or a database connection: a worker runs many at
once (Celery's threads pool, ``celery -A legalsim worker --pool threads``), each case hands
its connection back while it waits on a model (``legalsim.llm``), and without workers (eager
Celery, the embedded defaults) the command runs up to ``concurrency`` cases in threads of its
own (``CaseThreads``), with the same claims and checkpoints.
"""

from __future__ import annotations

import copy
import os
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.utils import timezone

from agents.personas import DIMENSIONS, personas_redistribute
from trials.models import Batch, BatchRun, Case, Trial
from trials.services import simulated_trial_create, trial_continue
from trials.store import writing

Send = Callable[[int], None]
"""Hands a run's id to the workers (``batch_run_task.delay``)."""


class ClaimLost(RuntimeError):
    """Another worker claimed this run after this one stopped beating its heart."""


@dataclass(frozen=True)
class Progress:
    total: int
    queued: int
    sent: int
    running: int
    finished: int
    paused: int

    @property
    def done(self) -> int:
        return self.finished + self.paused

    @property
    def complete(self) -> bool:
        return self.done == self.total


def lease() -> timedelta:
    return timedelta(seconds=settings.LEGALSIM_BATCH_LEASE_S)


def batch_create(
    *,
    cases: list[Case],
    split: str,
    concurrency: int,
    backend: str,
    target_side: str | None = None,
    redistribute_personas: bool = True,
    target_models: list[str] | None = None,
    supervised: bool = False,
    skill_notes: bool = False,
    strategy: bool = True,
    created_by=None,
) -> Batch:
    """A batch of ``cases``; on a sampled split the LCPF medium-level rule (LegalWorld
    A.4, docs/sources.md) is applied to the clients' personas of the cases as run, and logged on
    the batch. With ``target_models`` each case runs once per target model, on the same seed,
    the environment's models unchanged (LegalWorld's comparison of target models). With
    ``strategy`` off the model seats run without SimCourt's Strategy module (its ablation)."""
    seeds = {case.pk: copy.deepcopy(case.seed) for case in cases}
    log: dict = {}
    if redistribute_personas:
        seeds, log = _personas_redistributed(seeds, {case.pk: case.cause_of_action for case in cases})
    with transaction.atomic():
        batch = Batch.objects.create(
            split=split,
            procedure=cases[0].procedure if cases else "",
            backend=backend,
            target_side=target_side or "",
            concurrency=concurrency,
            personas=log,
            target_models=target_models or [],
            supervised=supervised,
            skill_notes=skill_notes,
            strategy=strategy,
            created_by=created_by,
        )
        BatchRun.objects.bulk_create(
            BatchRun(batch=batch, case=case, seed=seeds[case.pk], target_model=model)
            for case in cases
            for model in target_models or [""]
        )
    return batch


def _personas_redistributed(seeds: dict[str, dict], causes: dict[str, str]) -> tuple[dict[str, dict], dict]:
    """Apply the rule over every (case, side) client persona the cases carry."""
    personas = {
        f"{case_id}:{side}": persona
        for case_id, seed in seeds.items()
        for side, persona in (seed.get("personas") or {}).items()
        if isinstance(persona, dict) and any(dimension in persona for dimension in DIMENSIONS)
    }
    if not personas:
        return seeds, {}
    result = personas_redistribute(personas, {key: causes[key.split(":")[0]] for key in personas})
    for key, persona in result.personas.items():
        case_id, side = key.split(":", 1)
        seeds[case_id]["personas"][side] = {**seeds[case_id]["personas"][side], **persona}
    return seeds, {"before": result.before, "after": result.after}


def persona_levels(counts: dict[str, int]) -> str:
    """``high 3 medium 12 low 5``: one dimension's LCPF levels, for the log and the page."""
    return " ".join(f"{level} {counts.get(level, 0)}" for level in ("high", "medium", "low"))


def batch_progress(batch: Batch) -> Progress:
    counts = dict(batch.runs.values_list("status").annotate(count=Count("id")).values_list("status", "count"))
    return Progress(
        total=sum(counts.values()),
        **{status: counts.get(status, 0) for status in BatchRun.Status.values},
    )


def batch_dispatch(*, batch: Batch, send: Send) -> int:
    """Send runs to the workers until ``concurrency`` are in flight, the runs of a worker
    that stopped beating its heart first; returns how many were sent."""
    stale = timezone.now() - lease()
    alive = Q(status=BatchRun.Status.SENT, sent_at__gte=stale) | Q(
        status=BatchRun.Status.RUNNING, heartbeat_at__gte=stale
    )
    room = batch.concurrency - batch.runs.filter(alive).count()
    if room <= 0:
        return 0
    abandoned = batch.runs.filter(_abandoned(stale)).order_by("id")[:room]
    queued = batch.runs.filter(status=BatchRun.Status.QUEUED).order_by("id")[:room]
    ready = [*abandoned.values_list("id", flat=True), *queued.values_list("id", flat=True)][:room]
    sent = [run_id for run_id in ready if _mark_sent(run_id, stale)]
    for run_id in sent:
        send(run_id)
    return len(sent)


def batches_top_up(*, send: Send) -> int:
    """``batch_dispatch`` every batch still under way; returns how many runs were sent."""
    return sum(batch_dispatch(batch=batch, send=send) for batch in Batch.objects.filter(finished_at__isnull=True))


def _abandoned(stale) -> Q:
    """Runs sent or running with no sign of life since ``stale``."""
    return Q(status=BatchRun.Status.SENT, sent_at__lt=stale) | Q(status=BatchRun.Status.RUNNING, heartbeat_at__lt=stale)


def _mark_sent(run_id: int, stale) -> bool:
    """Mark a run sent unless someone claimed it meanwhile."""
    sendable = Q(status=BatchRun.Status.QUEUED) | _abandoned(stale)
    return bool(
        BatchRun.objects.filter(sendable, pk=run_id).update(status=BatchRun.Status.SENT, sent_at=timezone.now())
    )


def batch_resume(*, batch: Batch) -> int:
    """Queue again the runs that paused (a model server that kept failing); their trials
    carry on from where they stopped. Returns how many."""
    with transaction.atomic():
        requeued = batch.runs.filter(status=BatchRun.Status.PAUSED).update(status=BatchRun.Status.QUEUED, error="")
        if requeued:
            Batch.objects.filter(pk=batch.pk).update(finished_at=None)
    return requeued


def batch_run(*, run_id: int, worker: str) -> str:
    """Run one case of a batch to its end (or its pause) if this worker can claim it."""
    attempt = _claim(run_id, worker)
    if attempt is None:
        return "skipped"
    try:
        with _heartbeat(run_id, attempt):
            trial = _run_trial(run_id, attempt)
    except ClaimLost:
        return "lost"
    status = BatchRun.Status.FINISHED if trial.status == Trial.Status.FINISHED else BatchRun.Status.PAUSED
    _fenced(run_id, attempt).update(
        status=status, finished_at=timezone.now(), error=trial.pause_reason, heartbeat_at=timezone.now()
    )
    _batch_close(run_id)
    return status


def _claim(run_id: int, worker: str) -> int | None:
    stale = timezone.now() - lease()
    with writing():
        run = BatchRun.objects.select_for_update().filter(pk=run_id).first()
        if run is None:
            return None
        free = run.status in (BatchRun.Status.QUEUED, BatchRun.Status.SENT)
        abandoned = run.status == BatchRun.Status.RUNNING and (run.heartbeat_at is None or run.heartbeat_at < stale)
        if not (free or abandoned):
            return None
        run.status, run.attempt, run.worker, run.heartbeat_at = (
            BatchRun.Status.RUNNING,
            run.attempt + 1,
            worker,
            timezone.now(),
        )
        run.save(update_fields=["status", "attempt", "worker", "heartbeat_at"])
        return run.attempt


def _fenced(run_id: int, attempt: int):
    return BatchRun.objects.filter(pk=run_id, attempt=attempt, status=BatchRun.Status.RUNNING)


def _run_trial(run_id: int, attempt: int) -> Trial:
    run = BatchRun.objects.select_related("batch", "case", "trial").get(pk=run_id)
    trial = run.trial
    if trial is None:

        def link(trial: Trial) -> None:
            if not _fenced(run_id, attempt).update(trial=trial):
                raise ClaimLost(run_id)

        trial = simulated_trial_create(
            case=run.case,
            seed=run.seed,
            target_side=run.batch.target_side or None,
            backend=run.batch.backend,
            target_model=run.target_model,
            supervised=run.batch.supervised,
            skill_notes=run.batch.skill_notes,
            strategy=run.batch.strategy,
            on_created=link,
        )
    if trial.status == Trial.Status.FINISHED:
        return trial

    def checkpoint(trial: Trial, stage: str) -> None:
        fields = {"heartbeat_at": timezone.now(), **({"checkpoint": stage} if stage else {})}
        if not _fenced(run_id, attempt).update(**fields):
            raise ClaimLost(run_id)

    return trial_continue(trial=trial, on_checkpoint=checkpoint)


@contextmanager
def _heartbeat(run_id: int, attempt: int) -> Iterator[None]:
    """Beat the run's heart from a thread while it runs (a stage can take minutes); between
    beats the thread holds no database connection (it goes back to the pool)."""
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(settings.LEGALSIM_BATCH_LEASE_S / 4):
            try:
                if not _fenced(run_id, attempt).update(heartbeat_at=timezone.now()):
                    return
            finally:
                connection.close()

    thread = threading.Thread(target=beat, name=f"batch-run-{run_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _batch_close(run_id: int) -> None:
    """The run's batch is finished once none of its runs is still to finish (one query)."""
    unfinished = BatchRun.objects.filter(batch_id=OuterRef("pk")).exclude(
        status__in=(BatchRun.Status.FINISHED, BatchRun.Status.PAUSED)
    )
    Batch.objects.filter(runs__pk=run_id, finished_at__isnull=True).exclude(Exists(unfinished)).update(
        finished_at=timezone.now()
    )


class CaseThreads:
    """The workers of the embedded defaults (eager Celery, no worker processes): the command's
    own process runs up to ``size`` cases at once, each in a thread of its own."""

    def __init__(self, size: int) -> None:
        self._pool = ThreadPoolExecutor(max_workers=size, thread_name_prefix="batch-case")
        self._running: set[Future] = set()
        self._worker = f"{socket.gethostname()}:{os.getpid()}"

    def send(self, run_id: int) -> None:
        self._running.add(self._pool.submit(self._run, run_id))

    def wait(self, timeout: float) -> None:
        """Until a case ends or ``timeout`` passes; a case that raised raises here."""
        done, self._running = wait(self._running, timeout=timeout, return_when=FIRST_COMPLETED)
        for future in done:
            future.result()

    def close(self) -> None:
        """Send nothing more; the cases running go on to their end (an interrupted command's
        cases are sent again after the lease, from their last stored stage)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _run(self, run_id: int) -> str:
        try:
            return batch_run(run_id=run_id, worker=self._worker)
        finally:
            connection.close()
