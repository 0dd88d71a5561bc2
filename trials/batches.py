"""Batch runs of a case split over Celery workers (``simulate_split``).

A batch is submitted once, as Celery's own primitives (``trials.tasks.batch_submit``): its
runs, in case order with each case's target models in turn, are dealt round-robin over
``concurrency`` lanes (``batch_lanes``: a batch of models A and B starts A1 B1 A2 B2 ...), each
lane a chain of ``batch_run_task`` signatures, all in a chord whose callback closes the batch
(``batch_close``). No worker decides what to send next, and the command only submits and
watches (or leaves: ``--detach``). A task never raises into its chain: a case that fails is
recorded on its run (paused, resumable) and the lane goes on.

A worker claims a case before it runs it; the claim bumps the run's ``attempt``, and every
write of the run checks that attempt (a fencing token), so a case never runs twice at the
same time, and a worker that lost its claim stops at its next checkpoint without writing.
Each finished stage is stored (``trial_continue``), so the next claim carries on from the
last stage a dead worker finished. Only the delivery that claimed a case carries its lane
on: one that finds the case claimed or done ends that chain, so a lane never runs twice.

Recovery, not dispatch: a worker killed mid-case takes its lane's chain with it (its message
stays unacknowledged in Redis for the broker's visibility timeout, an hour, and when it comes
back it finds its case claimed and ends), so every worker, from its start and every half
lease, sends again the rest of each lane that stopped: its case's heart silent for the
lease, or a finished case whose next one nobody took (``batches_recover``); and closes the
batches whose chord can no longer complete.

Cases in flight cost a thread, not a process or a database connection: a worker runs many at
once (Celery's threads pool, ``celery -A legalsim worker --pool threads``), each case hands
its connection back while it waits on a model (``legalsim.llm``), and without workers (eager
Celery, the embedded defaults) the command applies the same lanes in threads of its own.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from agents.personas import DIMENSIONS, personas_redistribute
from trials.models import Batch, BatchRun, Case, Trial
from trials.services import trial_continue, trial_create
from trials.store import writing

logger = logging.getLogger(__name__)

SendLane = Callable[[int, list[int]], None]
"""Sends a batch's lane, its runs' ids in order, to the workers (``trials.tasks.lane_send``)."""

DONE = (BatchRun.Status.FINISHED, BatchRun.Status.PAUSED)


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


def batch_lanes(batch: Batch) -> list[list[int]]:
    """The runs still to do, as ``concurrency`` lanes: the batch's runs in order (by case, each
    case's target models in turn) dealt round-robin, so the lanes start A1 B1 A2 B2 ... The
    deal is over every run of the batch, so a lane is the same whenever it is asked for."""
    todo = [[run.pk for run in lane if run.status not in DONE] for lane in _dealt(batch)]
    return [lane for lane in todo if lane]


def _dealt(batch: Batch) -> list[list[BatchRun]]:
    runs = list(batch.runs.order_by("id").only("id", "status", "sent_at", "heartbeat_at", "finished_at"))
    return [runs[index :: batch.concurrency] for index in range(batch.concurrency)]


def batches_recover(*, send: SendLane) -> int:
    """For every batch under way, send again the rest of each lane that stopped: its worker
    stopped beating its heart (killed, lost), or a finished case's next one was never taken
    (a hand-over lost with its worker); and close the batches with nothing left to run.
    Returns how many lanes were sent."""
    sent = 0
    for batch in Batch.objects.filter(finished_at__isnull=True):
        if not batch_close(batch_id=batch.pk):
            sent += _lanes_recover(batch, send)
    return sent


def _lanes_recover(batch: Batch, send: SendLane) -> int:
    stale, sent = timezone.now() - lease(), 0
    for lane in _dealt(batch):
        first = next((index for index, run in enumerate(lane) if run.status not in DONE), None)
        if first is None or not _stopped(lane[first], lane[first - 1] if first else None, stale):
            continue
        if _mark_sent(lane[first].pk, stale):
            send(batch.pk, [run.pk for run in lane[first:] if run.status not in DONE])
            sent += 1
    return sent


def _stopped(run: BatchRun, previous: BatchRun | None, stale) -> bool:
    """No sign of life since ``stale`` from the lane whose next case is ``run``. A lane's first
    case is never stopped while queued: the command published it."""
    if run.status == BatchRun.Status.RUNNING:
        return run.heartbeat_at is None or run.heartbeat_at < stale
    if run.status == BatchRun.Status.SENT:
        return run.sent_at is None or run.sent_at < stale
    return previous is not None and previous.finished_at is not None and previous.finished_at < stale


def _mark_sent(run_id: int, stale) -> bool:
    """Mark a run sent again unless it was claimed or sent again meanwhile."""
    sendable = (
        Q(status=BatchRun.Status.QUEUED)
        | Q(status=BatchRun.Status.SENT, sent_at__lt=stale)
        | Q(status=BatchRun.Status.RUNNING, heartbeat_at__lt=stale)
    )
    return bool(
        BatchRun.objects.filter(sendable, pk=run_id).update(status=BatchRun.Status.SENT, sent_at=timezone.now())
    )


def batch_close(*, batch_id: int) -> bool:
    """Close the batch once every run is finished or paused: its finished time is its last
    run's. Idempotent (the chord's callback, a recovered lane and the recovery pass may all
    ask). Returns whether the batch is closed."""
    batch = Batch.objects.filter(pk=batch_id).first()
    if batch is None or batch.runs.exclude(status__in=DONE).exists():
        return False
    if batch.finished_at is None:
        last = batch.runs.aggregate(last=Max("finished_at"))["last"] or timezone.now()
        Batch.objects.filter(pk=batch_id, finished_at__isnull=True).update(finished_at=last)
    return True


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
    except Exception as error:
        logger.exception("batch run %s failed", run_id)
        return _ended(run_id, attempt, BatchRun.Status.PAUSED, f"{type(error).__name__}: {error}")
    status = BatchRun.Status.FINISHED if trial.status == Trial.Status.FINISHED else BatchRun.Status.PAUSED
    return _ended(run_id, attempt, status, trial.pause_reason)


def _ended(run_id: int, attempt: int, status: str, error: str) -> str:
    """Record how the run ended (a failure pauses it: ``--resume`` runs it again)."""
    now = timezone.now()
    _fenced(run_id, attempt).update(status=status, finished_at=now, error=error, heartbeat_at=now)
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

        trial = trial_create(
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
