"""Who speaks in a stage (court/engine/speakers.py)."""

from __future__ import annotations

from court.engine.machine import trial_start
from court.engine.speakers import stage_participants
from court.procedures.civil import CIVIL_LIFE_CYCLE


def test_the_seats_of_a_stage_follow_the_target_side_and_who_decides_on_appeal(civil_seed):
    """``stage_participants`` is kept once worked out (it is asked for every turn of every
    view): a later change of the state it depends on still gives the seats of that state."""
    state = trial_start(case=civil_seed, target_side="plaintiff")
    appeal, deciding = CIVIL_LIFE_CYCLE.stage("AD"), CIVIL_LIFE_CYCLE.stage("AD-Det")
    assert stage_participants(state, appeal) == {"plaintiff_lawyer", "plaintiff_client"}
    state.target_side = "defendant"
    assert stage_participants(state, appeal) == {"defendant_lawyer", "defendant_client"}
    state.appeal_deciders = ["plaintiff_lawyer"]
    assert stage_participants(state, deciding) == {"plaintiff_lawyer"}
    state.appeal_deciders = ["plaintiff_lawyer", "defendant_lawyer"]
    assert stage_participants(state, deciding) == {"plaintiff_lawyer", "defendant_lawyer"}
