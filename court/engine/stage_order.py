"""The order of a trial's stages: the stage a trial enters next (the first whose conditions
hold: the target's side, an appeal taken, no mediation that ended the case), the stages still
ahead, and where a run that stops early (``last_stage``) ends. The machine
(``court.engine.machine``) moves within a stage; this module chooses between stages.
"""

from __future__ import annotations

from court.engine.state import TrialState
from court.procedures import procedure_for
from court.procedures.structure import Procedure, Stage


def current_stage(state: TrialState) -> Stage | None:
    """The stage the trial is at, or None once it has finished."""
    if state.finished:
        return None
    return procedure_for(state.procedure).stages[state.stage_index]


def conditions_hold(state: TrialState, conditions: tuple[str, ...]) -> bool:
    second_instance = state.case.get("second_instance") or {}
    appellant = state.appellant_side or second_instance.get("appellant_side")
    # With a person seated, the judgment decides at AD-Det whether anyone appeals.
    appeal_open = bool(appellant) or bool(state.human_seats)
    checks = {
        "target_is_plaintiff": state.target_side == "plaintiff",
        "target_is_defendant": state.target_side == "defendant",
        "has_appeal": appeal_open and not state.mediated and not state.judgment_final,
        "target_is_appellant": state.target_side == appellant,
        "target_is_appellee": appellant is not None and state.target_side != appellant,
    }
    return all(checks[condition] for condition in conditions)


def enter_next_stage(state: TrialState, procedure: Procedure) -> None:
    """Move to the next stage whose condition holds within the selected range, or finish.

    ``last_stage`` names a stage or its alternative: ``--until CD`` for a defendant target
    stops after DD (same unit and kind), since only one of the two ever runs.
    """
    if state.stage_index >= 0 and _is_last(procedure, procedure.stages[state.stage_index], state.last_stage):
        state.finished = True
        return
    for index in range(state.stage_index + 1, len(procedure.stages)):
        stage = procedure.stages[index]
        if conditions_hold(state, stage.when):
            state.stage_index = index
            state.stage_status = "pending"
            state.phase_index = state.round_index = state.slot_index = state.stage_turns = 0
            state.decisions = {}
            state.memory_done = []
            return
        if stage.id == state.last_stage and not _has_alternative_after(procedure, index):
            break
    state.finished = True


def stages_ahead(state: TrialState) -> list[Stage]:
    """The stages still to come after the current one, as ``enter_next_stage`` would pick
    them if nothing changes (an appeal taken or not, a mediation that ends the case...)."""
    procedure = procedure_for(state.procedure)
    if state.finished or (
        state.stage_index >= 0 and _is_last(procedure, procedure.stages[state.stage_index], state.last_stage)
    ):
        return []
    ahead = []
    for stage in procedure.stages[state.stage_index + 1 :]:
        if conditions_hold(state, stage.when):
            ahead.append(stage)
            if _is_last(procedure, stage, state.last_stage):
                break
    return ahead


def preparation_progress(state: TrialState, first_stage: str) -> tuple[int, int]:
    """While agents play the stages before ``first_stage``: the number of the stage being
    played (1 for the first) and how many there are, as the stages ahead stand now."""
    before = 0
    for stage in stages_ahead(state):
        if same_stage_or_alternative(state, stage.id, first_stage):
            break
        before += 1
    played = len(state.stage_history)
    entered_not_started = state.stage_index >= 0 and state.stage_status == "pending"
    return played, played + before + entered_not_started


def _is_last(procedure: Procedure, stage: Stage, last_stage: str | None) -> bool:
    return last_stage is not None and _alike(stage, procedure.stage(last_stage))


def same_stage_or_alternative(state: TrialState, stage_id: str, wanted: str) -> bool:
    """``stage_id`` is ``wanted`` or the stage that runs in its place (CD for DD, AD for AR:
    the same unit and kind, chosen by a side)."""
    procedure = procedure_for(state.procedure)
    return _alike(procedure.stage(stage_id), procedure.stage(wanted))


def _alike(stage: Stage, other: Stage) -> bool:
    return stage.id == other.id or (stage.unit == other.unit and stage.kind == other.kind)


def _has_alternative_after(procedure: Procedure, index: int) -> bool:
    stage = procedure.stages[index]
    return any(_alike(stage, other) for other in procedure.stages[index + 1 :])
