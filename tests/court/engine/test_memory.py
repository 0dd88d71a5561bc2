from __future__ import annotations

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import apply_memory_update, next_step, trial_start
from court.engine.memory import (
    MAX_ENTRIES_PER_KEY,
    MEMORY_KEYS,
    MemoryOp,
    MemoryOperationError,
    empty_memory,
    memory_apply,
)
from court.engine.runner import trial_run
from court.engine.steps import MemoryUpdate, UpdateMemory
from court.procedures.civil import CIVIL_SEATS


def test_memory_has_the_eight_keys_of_legalworld():
    assert (
        tuple(empty_memory())
        == (
            "facts",
            "evidence",
            "claims",
            "defenses",
            "procedural_progress",
            "client_profile",
            "positions",
            "notes",
        )
        == MEMORY_KEYS
    )


def test_expand_appends_new_entries_and_revise_replaces_the_key():
    memory = empty_memory()
    memory_apply(memory, MemoryOp("expand", "facts", ("Loan of RMB 50,000 on 1 March 2022",)))
    memory_apply(memory, MemoryOp("expand", "facts", ("Loan of RMB 50,000 on 1 March 2022", "No repayment")))
    assert memory["facts"] == ["Loan of RMB 50,000 on 1 March 2022", "No repayment"]
    memory_apply(memory, MemoryOp("revise", "facts", ("RMB 30,000 was repaid in 2023",)))
    assert memory["facts"] == ["RMB 30,000 was repaid in 2023"]


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (MemoryOp("delete", "facts", ()), "unknown memory operation 'delete'"),
        (MemoryOp("expand", "secrets", ("x",)), "unknown memory key 'secrets'"),
        (MemoryOp("expand", "notes", tuple(f"n{i}" for i in range(MAX_ENTRIES_PER_KEY + 1))), "limited to"),
    ],
)
def test_refused_writes_leave_memory_unchanged(op, message):
    memory = empty_memory() | {"notes": ["kept"]}
    with pytest.raises(MemoryOperationError, match=message):
        memory_apply(memory, op)
    assert memory["notes"] == ["kept"]


def test_judges_have_no_memory_and_writes_are_logged_per_stage(civil_seed):
    state = trial_start(case=civil_seed, target_side="plaintiff")
    assert "judge" not in state.memory
    trial_run(state, {seat: ScriptedAgent() for seat in CIVIL_SEATS})
    assert {entry.seat for entry in state.memory_log} == set(CIVIL_SEATS) - {"judge"}
    lawyer_stages = [entry.stage for entry in state.memory_log if entry.seat == "plaintiff_lawyer"]
    assert list(dict.fromkeys(lawyer_stages)) == ["LC", "CD", "FIT", "AR", "SIT"]
    assert state.memory["plaintiff_lawyer"]["client_profile"], "the lawyer notes what the client told at LC"


def test_a_refused_memory_op_is_reported_and_the_rest_applied(civil_seed):
    state = trial_start(case=civil_seed, target_side="plaintiff", last_stage="LC")
    agents = {seat: ScriptedAgent() for seat in CIVIL_SEATS}

    class BadWriter(ScriptedAgent):
        def update_memory(self, request):
            return None

    trial_run(state, agents | {"plaintiff_client": BadWriter()})
    step = next_step(state)
    assert step == UpdateMemory("LC", "plaintiff_client")
    refusals = apply_memory_update(
        state, step, MemoryUpdate((MemoryOp("expand", "gossip", ("x",)), MemoryOp("expand", "notes", ("ok",))))
    )
    assert refusals == ["unknown memory key 'gossip'; keys: " + ", ".join(MEMORY_KEYS)]
    assert state.memory["plaintiff_client"]["notes"] == ["ok"]
