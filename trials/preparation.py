"""The stages before the one people play, simulated by agents in a worker or the driver.

A live trial that starts at a later stage (``create_trial --stages FIT``, an assignment of
the hearing alone) needs the earlier stages played first, so the hearing starts from real
pleadings. ``trial_create`` stores such a trial as ``preparing`` with its ``first_stage``
and, once committed, hands it to ``trial_prepare_task`` (``trials.leases.preparation_enqueue``,
by the task's name: this module is below the Celery layer, ``trials.tasks``, which calls
``trial_prepare``), or on the embedded defaults (no workers) to the trial's driver, which
plays it in a thread when the room is opened (``trials.workers.prepared_by_driver``); the
request returns at once. The run plays every seat with the
trial's agents up to the start of ``first_stage``, storing each finished stage (with its
model calls) and sending the turns to the room as it goes, where each seat sees what it may
hear and a ``preparing`` frame says which stage is being played. Then the trial is
``running`` and its driver takes over; a failure (a seat's model that keeps failing, a
worker that cannot reach a model at all, any error) leaves it paused with the reason, and
resuming it hands the rest of the preparation back.

A worker prepares the trial under its lease (``trials.leases``, the driver's): it renews it
while it plays, every store checks it still holds it, and it hands it back at the end, ready
for a driver at once when someone is in the room. A worker killed meanwhile leaves a lease
that runs out: the workers' recovery pass (``preparations_recover``) sends the preparation
again and the next worker plays the stages not yet stored.

The people's seats are played by agents here, as in ``simulate``: their turns are recorded
as the agents' own (``author`` agent), never as something the student said.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

from asgiref.sync import async_to_sync
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from court.engine.runner import Paused, trial_run
from court.engine.stage_order import preparation_progress
from court.engine.state import TrialState
from court.engine.steps import StageEnd, StageStart, Step
from court.engine.visibility import stage_heard
from trials.leases import (
    PROCESS,
    lease_claim,
    lease_free,
    lease_held,
    lease_kept,
    lease_queued,
    preparations_lapsed,
)
from trials.live.fanout import broadcast, group_name, remote_subscribers
from trials.models import Trial
from trials.protocol import ErrorCode, error_frame, preparing_frame, turn_end
from trials.services import (
    BackendUnavailable,
    calls_drained,
    strategies_kept,
    strategies_revised,
    trial_agents,
)
from trials.store import progress_store

logger = logging.getLogger(__name__)


class PreparationLost(RuntimeError):
    """The trial moved on without this run (another worker prepared it, or it was deleted)."""


class _Preparing:
    """The trials this process is preparing: a second delivery of one (to another thread of
    the same worker) leaves it to the first, whose lease is this process's too."""

    def __init__(self) -> None:
        self._ids: set[int] = set()
        self._lock = threading.Lock()

    def add(self, trial_id: int) -> bool:
        with self._lock:
            if trial_id in self._ids:
                return False
            self._ids.add(trial_id)
            return True

    def discard(self, trial_id: int) -> None:
        with self._lock:
            self._ids.discard(trial_id)


_here = _Preparing()


def _prepared(trial: Trial, lost: threading.Event) -> Trial | None:
    """The preparation itself; whatever fails pauses the trial with the reason."""
    trial_id = trial.pk
    try:
        return _play(trial, lost)
    except PreparationLost:
        return Trial.objects.filter(pk=trial_id).first() or trial
    except BackendUnavailable as error:
        reason = f"the stages before {trial.first_stage} could not be played: {str(error)[:300]}"
    except Exception as error:
        logger.exception("preparing trial %s failed", trial_id)
        reason = f"the stages before {trial.first_stage} stopped on an unexpected error ({type(error).__name__})"
    return _paused(trial_id, f"{reason}; resume it to try again")


def _play(trial: Trial, lost: threading.Event) -> Trial:
    trial_id = trial.pk
    participants = trial_agents(trial)
    state = replace(trial.engine_state, human_seats={})
    stored = len(state.turns)

    def on_event(step: Step, outcome: object) -> None:
        nonlocal stored
        if lost.is_set():
            raise PreparationLost(trial_id)
        if isinstance(step, StageStart):
            progress = preparation_progress(state, trial.first_stage)
            async_to_sync(broadcast)(trial_id, preparing_frame(step.stage, trial.first_stage, progress))
        elif isinstance(step, StageEnd):
            strategies_revised(state, step.stage, participants)
            strategies_kept(state, participants)
            _store(trial_id, state, stored, calls=calls_drained(participants))
            stored = len(state.turns)

    outcome = trial_run(state, participants, on_event=on_event, stop_before=trial.first_stage)
    if isinstance(outcome, Paused):
        reason = f"{outcome.step.seat} at {outcome.step.stage}: {outcome.reason}"
        ending = (Trial.Status.PAUSED, reason, trial.first_stage)
    else:
        ending = (Trial.Status.RUNNING, "", "")
    strategies_kept(state, participants)
    stopped = _store(trial_id, state, stored, calls=calls_drained(participants), ending=ending)
    if isinstance(outcome, Paused):
        async_to_sync(broadcast)(trial_id, error_frame(ErrorCode.AGENT_FAILED, outcome.reason))
    return stopped


def _store(
    trial_id: int, state: TrialState, stored: int, *, calls: list[dict], ending: tuple[str, str, str] | None = None
) -> Trial:
    """Store the run's progress (``stored`` turns were stored before) under the row lock, with
    the people's seats as stored (a seat may be taken or handed back meanwhile) and, at the
    ``ending``, the trial's new status, pause reason and first stage; then send the new turns
    to the room. Only while this process holds the lease, which the store renews."""
    with transaction.atomic():
        trial = _locked(trial_id)
        if len(trial.state["turns"]) != stored:
            raise PreparationLost(trial_id)
        trial.driver_until = timezone.now() + timedelta(seconds=settings.LEGALSIM_DRIVER_LEASE_S)
        fields: tuple[str, ...] = ("driver_until",)
        if ending is not None:
            trial.status, trial.pause_reason, trial.first_stage = ending
            fields += ("status", "pause_reason", "first_stage")
        seated = dict(trial.state.get("human_seats") or {})
        progress_store(trial, replace(state, human_seats=seated), calls=calls, fields=fields)
    for turn in state.turns[stored:]:
        async_to_sync(broadcast)(trial_id, turn_end(turn), audience=stage_heard(state, turn.stage))
    return trial


def _locked(trial_id: int) -> Trial:
    """The trial under its row lock, still preparing under this process's lease; else the run
    is lost."""
    trial = Trial.objects.select_for_update().filter(pk=trial_id).first()
    if trial is None or trial.status != Trial.Status.PREPARING or trial.driver != PROCESS:
        raise PreparationLost(trial_id)
    return trial


def _paused(trial_id: int, reason: str) -> Trial | None:
    """Pause the preparation with ``reason``, shown in the room and wherever the trial is
    listed, as any pause; resuming hands the rest of it back."""
    try:
        with transaction.atomic():
            trial = _locked(trial_id)
            trial.status, trial.pause_reason = Trial.Status.PAUSED, reason
            trial.save(update_fields=["status", "pause_reason"])
    except PreparationLost:
        return Trial.objects.filter(pk=trial_id).first()
    async_to_sync(broadcast)(trial_id, error_frame(ErrorCode.TRIAL_PAUSED, reason))
    return trial


def _listened(trial_id: int) -> bool:
    """Whether sockets of other processes (the room, served by daphne) listen to the trial:
    then its driver starts at once, else with its first participant. Redis unreachable: as
    if they did (a driver that finds nobody waits for them)."""
    try:
        return async_to_sync(remote_subscribers)(group_name(trial_id)) > 0
    except Exception:
        logger.warning("trial %s: could not ask who listens; its driver starts now", trial_id, exc_info=True)
        return True


def preparations_recover(*, send: Callable[[int], object]) -> list[int]:
    """The workers' recovery pass: every preparation whose lease ran out (its worker was
    killed or lost) or that no worker took within ``LEGALSIM_BATCH_LEASE_S`` (its message
    lost) is sent to the workers again, each by one pass only. Returns the trials sent."""
    sent = [trial_id for trial_id in preparations_lapsed() if lease_queued(trial_id, stale_only=True)]
    for trial_id in sent:
        send(trial_id)
    return sent


def trial_prepare(*, trial_id: int) -> Trial | None:
    """Play the stages before the trial's ``first_stage`` with agents in every seat, storing
    each finished stage; the trial is then running, or paused with the reason it could not
    go on (None when it was deleted before a worker got to it). A worker holds the trial's
    lease meanwhile; the room's driver, which prepares it without workers, holds it already.
    A trial another worker is preparing is left to it."""
    trial = Trial.objects.filter(pk=trial_id).first()
    if trial is None or trial.status != Trial.Status.PREPARING or not _here.add(trial_id):
        return trial
    try:
        return _prepared_under_lease(trial)
    finally:
        _here.discard(trial_id)


def _prepared_under_lease(trial: Trial) -> Trial | None:
    """Prepare the trial under the lease this process holds as its driver, or takes as a
    worker and hands back at the end, ready for a driver at once when someone is in the room."""
    if lease_held(trial.pk):
        return _prepared(trial, threading.Event())
    if not lease_claim(trial.pk, preparing=True):
        return trial
    try:
        with lease_kept(trial.pk) as lost:
            return _prepared(trial, lost)
    finally:
        lease_free(trial.pk, until=timezone.now() if _listened(trial.pk) else None)
