"""No seat ever sees what Table 5 hides from it (canary strings in every hidden field).

The expectations here are written out independently of ``court.engine.visibility``: they
restate the rules (evaluation-only fields, the opponent's evidence before the evidence
phase, the other side's facts before the trial, bottom lines, other seats' memory) so that a
wrong entry in the matrix fails the test instead of being mirrored by it.
"""

from __future__ import annotations

import copy
import itertools

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.runner import trial_run
from court.engine.state import TrialState, TurnRecord
from court.engine.visibility import build_view
from court.procedures import procedure_for
from court.procedures.seats import seat_info
from tests.conftest import CIVIL_CASE, demo_case_seeds

_counter = itertools.count(1)


def canary(label: str) -> str:
    return f"CANARY-{label}-{next(_counter):04d}"


def plant(seed: dict) -> tuple[dict, dict[str, str]]:
    """A copy of ``seed`` with a distinct canary in every field some seat may not see."""
    seed = copy.deepcopy(seed)
    planted: dict[str, str] = {}

    def put(block: dict, key: str, label: str, as_list: bool = False) -> None:
        planted[label] = canary(label)
        block[key] = [planted[label]] if as_list else planted[label]

    if seed["procedure"] == "civil":
        first = seed.setdefault("first_instance", {})
        put(first, "court_findings", "eval:court_findings")
        put(first, "legal_references", "eval:legal_references", as_list=True)
        put(first, "disposition", "eval:disposition")
        put(first, "facts_and_reasons", "facts:plaintiff")
        put(first, "defenses", "facts:defendant")
        second = seed.get("second_instance")
        if second:
            put(second, "appellate_findings", "eval:appellate_findings")
            put(second, "affected_items", "eval:affected_items", as_list=True)
            put(second, "final_disposition", "eval:final_disposition")
        for index, item in enumerate(seed.get("consultation") or []):
            put(item, "reference_answer", f"eval:reference_answer{index}")
        evidence = first.setdefault("evidence", [])
        sides = ("plaintiff", "defendant")
    else:
        put(seed, "court_findings", "eval:court_findings")
        put(seed, "legal_references", "eval:legal_references", as_list=True)
        planted["eval:sentence"] = canary("eval:sentence")
        seed["sentence"] = {"imprisonment_months": 0, "probation": planted["eval:sentence"], "fine": 0}
        evidence = seed.setdefault("evidence", [])
        sides = ("prosecution", "defendant")
    for side in sides:
        planted[f"evidence:{side}"] = canary(f"evidence:{side}")
        evidence.append({"side": side, "name": planted[f"evidence:{side}"], "purpose": "canary"})
        goal = seed.setdefault("goals", {}).setdefault(side, {"goal": "", "accepts_mediation": False})
        put(goal, "bottom_line", f"bottom_line:{side}")
    return seed, planted


def may_see(label: str, *, seat: str, procedure: str, evidence_shown: bool, trial_reached: bool) -> bool:
    info = seat_info(procedure, seat)
    kind, _, owner = label.partition(":")
    if kind == "eval":
        return False
    if kind == "memory":
        return owner == seat
    if kind == "bottom_line":
        return info.side == owner and info.role not in ("judge", "stenographer")
    if kind == "evidence":
        civil_judge_at_trial = procedure == "civil" and info.role == "judge" and trial_reached
        return info.side == owner or evidence_shown or civil_judge_at_trial
    if kind == "facts":
        return info.side == owner or trial_reached
    raise AssertionError(label)


class ViewAuditor:
    """A scripted agent that, before each step, inspects every seat's view of the trial."""

    def __init__(self, state: TrialState, planted: dict[str, str]) -> None:
        self.state, self.planted, self.agent = state, planted, ScriptedAgent()
        self.checked = 0
        self.evidence_shown = False

    def audit(self, phase: str) -> None:
        state = self.state
        procedure = procedure_for(state.procedure)
        stage = procedure.stages[state.stage_index]
        stage_order = procedure.stage_ids.index(stage.id)
        if (state.procedure == "civil" and stage.id == "FIT" and phase == "evidence") or stage.id == "evidence":
            self.evidence_shown = True
        trial_reached = state.procedure == "criminal" or stage_order >= procedure.stage_ids.index("FIT")
        for seat in procedure.seats:
            text = build_view(state, seat, phase=phase).as_json()
            for label, value in self.planted.items():
                if value in text:
                    assert may_see(
                        label,
                        seat=seat,
                        procedure=state.procedure,
                        evidence_shown=self.evidence_shown,
                        trial_reached=trial_reached,
                    ), f"{seat} saw {label} at {stage.id}/{phase}"
            self.checked += 1

    def respond(self, request: TurnRequest, *, on_delta=None):
        self.audit(request.step.phase)
        return self.agent.respond(request)

    def update_memory(self, request: MemoryRequest):
        self.audit("memory")
        return self.agent.update_memory(request)


def cases_and_sides():
    for seed in [CIVIL_CASE, *demo_case_seeds()]:
        sides = ("plaintiff", "defendant") if seed["procedure"] == "civil" else ("defendant",)
        for side in sides:
            yield pytest.param(seed, side, id=f"{seed['id']}-{side}")


@pytest.mark.parametrize(("seed", "target_side"), list(cases_and_sides()))
def test_no_seat_sees_a_canary_it_may_not_see(seed, target_side):
    planted_seed, planted = plant(seed)
    state = trial_start(case=planted_seed, target_side=target_side)
    for seat, memory in state.memory.items():
        planted[f"memory:{seat}"] = canary(f"memory:{seat}")
        memory["notes"].append(planted[f"memory:{seat}"])
    auditor = ViewAuditor(state, planted)

    trial_run(state, {seat: auditor for seat in procedure_for(state.procedure).seats})

    assert state.finished and auditor.checked > 100
    record = "\n".join([turn.text for turn in state.turns] + [artifact.text for artifact in state.artifacts])
    leaked = [label for label, value in planted.items() if label.startswith("eval") and value in record]
    assert not leaked, f"evaluation-only fields reached the transcript: {leaked}"


def test_the_auditor_catches_a_leak(civil_seed):
    """The canary check itself works: a view showing a reference answer is caught."""
    planted_seed, planted = plant(civil_seed)
    state = trial_start(case=planted_seed, target_side="plaintiff")
    leak = planted["eval:reference_answer0"]
    state.turns.append(
        TurnRecord(1, "LC", "intake", "plaintiff_client", "client", "plaintiff", "x", "agent", "describe_dispute", leak)
    )
    with pytest.raises(AssertionError, match="saw eval:reference_answer0"):
        ViewAuditor(state, planted).audit("intake")
