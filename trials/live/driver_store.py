"""How the live driver (``trials.live.driver``) reads and writes its trial, off the event loop:
each step applied and stored under the trial's row lock, if it is still the step the engine
asks for, and the status moves of a run (waiting, running, paused). The state is kept in
memory between steps and read again only when another writer stored a newer version.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from court.engine.machine import next_step, step_apply
from court.engine.state import TrialState
from court.engine.steps import Step
from trials.live.session import LiveSession
from trials.models import Trial
from trials.pool import in_pool
from trials.store import progress_store


def _state_of(session: LiveSession, trial: Trial) -> TrialState:
    """The state of ``trial`` (read without its ``state`` column, which grows with every
    turn), taken out of the session's cache unless another writer (a person's say, a control,
    another process) stored a newer version: whoever changes it puts it back only once the
    change is stored."""
    cached, session.cached = session.cached, None
    if cached is not None and cached[0] == trial.version:
        return cached[1]
    return TrialState.from_dict(Trial.objects.values_list("state", flat=True).get(pk=trial.pk))


@in_pool
def trial_snapshot(session: LiveSession) -> tuple[Trial, TrialState]:
    """The trial and its state, decoded off the event loop."""
    trial = Trial.objects.defer("state").get(pk=session.trial_id)
    state = _state_of(session, trial)
    session.cached = (trial.version, state)
    return trial, state


STALE = object()
"""What ``step_record`` returns when the step was no longer the one the engine asked for."""


@in_pool
def step_record(session: LiveSession, step: Step, outcome: Any = None, calls: list[dict] | None = None) -> Any:
    """Apply ``step`` under a row lock if it is still the step the engine asks for, and store
    it with the model ``calls`` that produced it; what it recorded (``step_apply``), or ``STALE``."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().defer("state").get(pk=session.trial_id)
        state = _state_of(session, trial)
        if next_step(state) != step:
            return STALE
        recorded = step_apply(state, step, outcome)
        progress_store(trial, state, calls=calls or ())
    session.cached = (trial.version, state)
    return recorded


@in_pool
def status_set(trial_id: int, status: str, reason: str = "") -> None:
    Trial.objects.filter(pk=trial_id).update(status=status, pause_reason=reason)


@in_pool
def trial_pause(trial_id: int, reason: str, calls: list[dict]) -> None:
    """A seat could not act: the trial pauses with the reason, and the failed calls are kept."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        trial.status, trial.pause_reason = Trial.Status.PAUSED, reason
        progress_store(trial, trial.engine_state, calls=calls, fields=("status", "pause_reason"))


@in_pool
def status_move(trial_id: int, current: str, status: str) -> None:
    """``current`` -> ``status``, unless someone (a judge's pause) changed it meanwhile."""
    Trial.objects.filter(pk=trial_id, status=current).update(status=status)
