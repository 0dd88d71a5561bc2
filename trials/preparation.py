"""The stages before the one people play, simulated by agents in a worker or the driver.

A live trial that starts at a later stage (``create_trial --stages FIT``, an assignment of
the hearing alone) needs the earlier stages played first, so the hearing starts from real
pleadings. ``trial_create`` stores such a trial as ``preparing`` with its ``first_stage``
and, once committed, hands it to ``trial_prepare_task``, or on the embedded defaults (no
workers) to the trial's driver, which plays it in a thread when the room is opened
(``prepared_by_driver``); the request returns at once. The run plays every seat with the
trial's agents up to the start of ``first_stage``, storing each finished stage (with its
model calls) and sending the turns to the room as it goes, where each seat sees what it may
hear and a ``preparing`` frame says which stage is being played. Then the trial is ``running`` and its driver takes over; a failure leaves it paused
with the reason, and resuming it hands the rest of the preparation back.

The people's seats are played by agents here, as in ``simulate``: their turns are recorded
as the agents' own (``author`` agent), never as something the student said.
"""

from __future__ import annotations

from dataclasses import replace

from asgiref.sync import async_to_sync
from django.db import transaction

from court.engine.runner import Paused, trial_run
from court.engine.stage_order import preparation_progress
from court.engine.state import TrialState
from court.engine.steps import StageEnd, StageStart, Step
from court.engine.visibility import stage_heard
from trials.live.fanout import broadcast, driver_group, notify
from trials.models import Trial
from trials.protocol import preparing_frame, turn_end
from trials.services import calls_drained, strategies_kept, strategies_revised, trial_agents
from trials.store import progress_store


class PreparationLost(RuntimeError):
    """The trial moved on without this run (another worker prepared it, or it was deleted)."""


def prepared_by_driver() -> bool:
    """Without Celery workers (the embedded defaults run tasks eagerly) the stages are played
    by the trial's driver, in a thread of the process that serves its room, not inside the
    request that created the trial: the room opens at once and shows the progress."""
    from trials.tasks import trial_prepare_task

    return bool(trial_prepare_task.app.conf.task_always_eager)


def preparation_enqueue(trial_id: int) -> None:
    """Hand the trial to a worker once the caller's transaction commits (at once outside one);
    without workers its driver prepares it (``prepared_by_driver``)."""
    from trials.tasks import trial_prepare_task

    if not prepared_by_driver():
        transaction.on_commit(lambda: trial_prepare_task.delay(trial_id))


def trial_prepare(*, trial_id: int) -> Trial | None:
    """Play the stages before the trial's ``first_stage`` with agents in every seat, storing
    each finished stage; the trial is then running, or paused with the reason a seat failed
    (None when it was deleted before a worker got to it)."""
    trial = Trial.objects.filter(pk=trial_id).first()
    if trial is None or trial.status != Trial.Status.PREPARING:
        return trial
    participants = trial_agents(trial)
    state = replace(trial.engine_state, human_seats={})
    stored = len(state.turns)

    def on_event(step: Step, outcome: object) -> None:
        nonlocal stored
        if isinstance(step, StageStart):
            progress = preparation_progress(state, trial.first_stage)
            async_to_sync(broadcast)(trial_id, preparing_frame(step.stage, trial.first_stage, progress))
        elif isinstance(step, StageEnd):
            strategies_revised(state, step.stage, participants)
            strategies_kept(state, participants)
            _store(trial_id, state, stored, calls=calls_drained(participants))
            stored = len(state.turns)

    try:
        outcome = trial_run(state, participants, on_event=on_event, stop_before=trial.first_stage)
        if isinstance(outcome, Paused):
            reason = f"{outcome.step.seat} at {outcome.step.stage}: {outcome.reason}"
            ending = (Trial.Status.PAUSED, reason, trial.first_stage)
        else:
            ending = (Trial.Status.RUNNING, "", "")
        strategies_kept(state, participants)
        trial = _store(trial_id, state, stored, calls=calls_drained(participants), ending=ending)
    except PreparationLost:
        return Trial.objects.filter(pk=trial_id).first() or trial
    async_to_sync(notify)(driver_group(trial_id), {"type": "driver.wake"})
    return trial


def _store(
    trial_id: int, state: TrialState, stored: int, *, calls: list[dict], ending: tuple[str, str, str] | None = None
) -> Trial:
    """Store the run's progress (``stored`` turns were stored before) under the row lock, with
    the people's seats as stored (a seat may be taken or handed back meanwhile) and, at the
    ``ending``, the trial's new status, pause reason and first stage; then send the new turns
    to the room."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().filter(pk=trial_id).first()
        if trial is None or trial.status != Trial.Status.PREPARING or len(trial.state["turns"]) != stored:
            raise PreparationLost(trial_id)
        fields: tuple[str, ...] = ()
        if ending is not None:
            trial.status, trial.pause_reason, trial.first_stage = ending
            fields = ("status", "pause_reason", "first_stage")
        seated = dict(trial.state.get("human_seats") or {})
        progress_store(trial, replace(state, human_seats=seated), calls=calls, fields=fields)
    for turn in state.turns[stored:]:
        async_to_sync(broadcast)(trial_id, turn_end(turn), audience=stage_heard(state, turn.stage))
    return trial
