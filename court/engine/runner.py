"""Drives the engine with participants until the trial ends or a human seat must act."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from court.engine.machine import next_step, step_apply
from court.engine.participants import MemoryRequest, Participant, ParticipantFailed, TurnRequest
from court.engine.stage_order import same_stage_or_alternative
from court.engine.state import TrialState
from court.engine.steps import End, MemoryUpdate, Reply, Speak, StageStart, Step, UpdateMemory
from court.engine.visibility import build_view

EventSink = Callable[[Step, object], None]


@dataclass(frozen=True)
class Awaiting:
    """The run stopped because ``step`` belongs to a seat that has not acted yet."""

    step: Speak | UpdateMemory


@dataclass(frozen=True)
class Paused:
    """The run stopped because the seat of ``step`` failed; running again resumes at ``step``."""

    step: Speak | UpdateMemory
    reason: str


def trial_run(
    state: TrialState,
    participants: Mapping[str, Participant],
    *,
    on_event: EventSink | None = None,
    stop_before: str | None = None,
) -> End | Awaiting | Paused | StageStart:
    """Run until the end or until a participant has nothing to give yet.

    ``on_event(step, outcome)`` is told of every applied step (the turn record for a turn),
    so callers can persist or broadcast without the engine knowing about either.
    ``stop_before`` stops at the start of that stage or of its alternative (AD for AR: which
    of the two runs may depend on the judgment), the earlier stages simulated for a live trial.
    """
    emit = on_event or (lambda step, outcome: None)
    while True:
        step = next_step(state)
        if isinstance(step, End):
            return step
        if isinstance(step, StageStart) and stop_before and same_stage_or_alternative(state, step.stage, stop_before):
            return step
        try:
            outcome = _outcome(state, step, participants)
        except ParticipantFailed as failure:
            return Paused(step, str(failure))
        if isinstance(step, Speak | UpdateMemory) and outcome is None:
            return Awaiting(step)
        emit(step, step_apply(state, step, outcome))


def _outcome(state: TrialState, step: Step, participants: Mapping[str, Participant]) -> Reply | MemoryUpdate | None:
    """What the seat of ``step`` produces for it (nothing for a stage boundary)."""
    if isinstance(step, Speak):
        return participants[step.seat].respond(TurnRequest(step, build_view(state, step.seat, phase=step.phase)))
    if isinstance(step, UpdateMemory):
        return participants[step.seat].update_memory(MemoryRequest(step, build_view(state, step.seat, phase="memory")))
    return None
