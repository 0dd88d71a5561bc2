"""The procedure as a person follows it in the room: the stages this trial has played and
has still to play, each with its phases, and where it stands now. Names are in the case's
language; the room's script moves the marks as frames arrive."""

from __future__ import annotations

from dataclasses import dataclass

from court.engine.machine import current_stage
from court.engine.stage_order import stages_ahead
from court.engine.state import TrialState
from court.procedures import procedure_for
from court.procedures.names import phase_name, stage_name


@dataclass(frozen=True)
class TimelineStage:
    id: str
    name: str
    status: str
    """done, current or ahead."""
    phases: list[tuple[str, str, str]]
    """(id, name, status) of each phase."""


def timeline_for(state: TrialState) -> list[TimelineStage]:
    procedure = procedure_for(state.procedure)
    now = None if state.finished or state.stage_index < 0 else current_stage(state)
    played = [procedure.stage(stage_id) for stage_id in state.stage_history]
    if now is not None and now.id not in state.stage_history:
        played.append(now)  # about to start
    stages = played + [stage for stage in stages_ahead(state) if stage.id not in state.stage_history]
    timeline = []
    for stage in stages:
        if now is not None and stage.id == now.id:
            status = "current"
        elif stage.id in state.stage_history:
            status = "done"
        else:
            status = "ahead"
        phases = [
            (phase.id, phase_name(phase.id, state.language), _phase_status(state, status, index))
            for index, phase in enumerate(stage.phases)
        ]
        timeline.append(TimelineStage(stage.id, stage_name(stage.id, state.language), status, phases))
    return timeline


def _phase_status(state: TrialState, stage_status: str, index: int) -> str:
    if stage_status != "current":
        return stage_status
    if state.stage_status != "running":
        return "done" if state.stage_status in ("closing", "memory", "done") else "ahead"
    return "done" if index < state.phase_index else "current" if index == state.phase_index else "ahead"
