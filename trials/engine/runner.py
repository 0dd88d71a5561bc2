"""Drives the engine with participants until the trial ends or a human seat must act."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from trials.agents.base import MemoryRequest, Participant, ParticipantFailed, TurnRequest
from trials.agents.visibility import build_view
from trials.engine.machine import (
    apply_memory_update,
    apply_reply,
    apply_stage_end,
    apply_stage_start,
    next_step,
)
from trials.engine.state import TrialState
from trials.engine.steps import End, Speak, StageEnd, StageStart, Step, UpdateMemory

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
    ``stop_before`` stops at the start of that stage (earlier stages simulated for a live trial).
    """
    emit = on_event or (lambda step, outcome: None)
    while True:
        step = next_step(state)
        if isinstance(step, End):
            return step
        if isinstance(step, StageStart):
            if step.stage == stop_before:
                return step
            apply_stage_start(state, step)
            emit(step, None)
        elif isinstance(step, StageEnd):
            apply_stage_end(state, step)
            emit(step, None)
        elif isinstance(step, Speak):
            view = build_view(state, step.seat, phase=step.phase)
            try:
                reply = participants[step.seat].respond(TurnRequest(step, view))
            except ParticipantFailed as failure:
                return Paused(step, str(failure))
            if reply is None:
                return Awaiting(step)
            emit(step, apply_reply(state, step, reply))
        else:
            view = build_view(state, step.seat, phase="memory")
            try:
                update = participants[step.seat].update_memory(MemoryRequest(step, view))
            except ParticipantFailed as failure:
                return Paused(step, str(failure))
            if update is None:
                return Awaiting(step)
            emit(step, apply_memory_update(state, step, update))
