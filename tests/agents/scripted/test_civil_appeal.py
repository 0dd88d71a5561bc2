"""Both sides appeal the lease case (issue #44 item 3): the appeal court hears each side's
requests, answers every one with its reasons, and gives complete orders (the sum as varied,
who bears the costs); a side's own appeal is never cut short in what its counsel says."""

from __future__ import annotations

import json

import pytest

from agents.scripted.agent import ScriptedAgent
from agents.scripted.civil_court import civil_decision
from agents.scripted.claims import claim_items
from agents.scripted.context import Ctx
from agents.scripted.drafting import answer_appeal
from agents.scripted.hearing import pronounce_judgment, state_claims, state_defence
from agents.scripted.record import civil_record
from agents.scripted.wording import money
from court.engine.machine import trial_start
from court.engine.runner import End, trial_run
from court.engine.visibility import SeatView
from court.procedures import procedure_for
from tests.conftest import DEMO_CASES

CASE = json.loads((DEMO_CASES / "en-civil-commercial-lease.json").read_text("utf-8"))
PLAINTIFF_APPEAL = {
    "appeal_requests": CASE["second_instance"]["appeal_requests"],
    "appeal_reasons": CASE["second_instance"]["appeal_reasons"],
}
DEFENDANT_APPEAL = {
    "appeal_requests": [
        "Vary item 1 to order the appellant to pay RMB 57,600, the rent for the months the cafe could trade",
        "Order the appellee to bear the appeal costs",
    ],
    "appeal_reasons": "The ceiling leaks made the premises unusable; rent is owed only for the months the cafe traded.",
}
REPORT = {
    "side": "defendant",
    "name": "Building surveyor's report on the ceiling leaks and the months the cafe could trade",
    "purpose": "the cafe could trade only while the leaks were repaired; rent owed for those months is RMB 57,600",
}


@pytest.fixture(scope="module")
def first_instance() -> str:
    """The scripted first-instance judgment in the lease case (RMB 86,400 ordered paid)."""
    state = trial_start(case=CASE, target_side="defendant", human_seats={}, last_stage="FIT")
    seats = procedure_for("civil").seats
    assert isinstance(trial_run(state, {seat: ScriptedAgent() for seat in seats}), End)
    return state.artifacts_of("first_instance_judgment")[-1].text


def view(seat: str, side: str, judgment: str, dialogue: list[dict], *, defendant_evidence: bool) -> SeatView:
    """A seat's view at the second instance where both sides appealed, the plaintiff heard first."""
    first = CASE["first_instance"]
    fields = {
        "claims": {"shared": first["claims"]},
        "evidence": {s: [item for item in first["evidence"] if item["side"] == s] for s in ("plaintiff", "defendant")},
        "facts": {"plaintiff": first["facts_and_reasons"], "defendant": first["defenses"]},
        "appeal": {"shared": PLAINTIFF_APPEAL, "plaintiff": PLAINTIFF_APPEAL, "defendant": DEFENDANT_APPEAL},
        "appellee_defenses": {
            "defendant": CASE["second_instance"]["appellee_defenses"],
            "plaintiff": "The cafe traded throughout; the rent is owed in full.",
        },
        "new_evidence": {"plaintiff": [], "defendant": [REPORT] if defendant_evidence else []},
    }
    return SeatView(
        seat=seat,
        role=seat.rpartition("_")[2] if "_" in seat else seat,
        side=side,
        stage="SIT",
        unit="SIT",
        phase="investigation",
        procedure="civil",
        language="en",
        case=CASE,
        fields=fields,
        artifacts=[{"kind": "first_instance_judgment", "text": judgment}],
        dialogue=dialogue,
        appellant_side="plaintiff",
    )


def second_instance(judgment: str, *, defendant_evidence: bool) -> tuple[str, Ctx]:
    """Each side's counsel states its appeal and the defendant produces its new evidence;
    the scripted judge pronounces."""
    dialogue: list[dict] = []
    for seq, (seat, side, act, phase) in enumerate(
        [
            ("plaintiff_lawyer", "plaintiff", state_claims, "investigation"),
            ("defendant_lawyer", "defendant", state_defence, "investigation"),
        ]
    ):
        text = act(Ctx(view(seat, side, judgment, dialogue, defendant_evidence=defendant_evidence)))
        dialogue.append({"seq": seq, "seat": seat, "phase": phase, "act": act.__name__, "text": text})
    if defendant_evidence:
        dialogue.append(
            {
                "seq": 2,
                "seat": "defendant_lawyer",
                "phase": "evidence",
                "act": "present_evidence",
                "text": REPORT["name"],
            }
        )
    judge = Ctx(view("judge", "court", judgment, dialogue, defendant_evidence=defendant_evidence))
    return pronounce_judgment(judge)[1].text, judge


def test_the_appellee_who_appealed_too_states_its_own_requests(first_instance):
    said = state_defence(Ctx(view("defendant_lawyer", "defendant", first_instance, [], defendant_evidence=False)))
    assert DEFENDANT_APPEAL["appeal_requests"][0] in said


def test_both_appeals_are_heard_and_each_request_answered(first_instance):
    body, judge = second_instance(first_instance, defendant_evidence=True)
    record = civil_record(judge)
    assert record.cross is not None and record.cross.claimant == "defendant"
    assert record.cross.claims[0].stated, "the defendant's counsel stated its requests"
    decision = civil_decision(record)
    for request in claim_items(PLAINTIFF_APPEAL["appeal_requests"][:1] + DEFENDANT_APPEAL["appeal_requests"][:1]):
        assert f'As to "{request}"' in body, f"every request of either appellant is answered: {request}"
    orders = body[body.index("The court orders:") :]
    varied = decision.total
    assert 57_600 <= varied < 86_400, "the defendant's proved (and answered) request lowers the sum payable"
    assert money(varied, False) in orders, "the sum as varied is ordered paid"
    assert "RMB 86,400" in orders and "set aside" in orders, "the order below it replaces is named"
    assert body.count('As to "Order the appellee to bear the appeal costs"') == 1, "the same request answered once"
    assert "The appellants' other requests are dismissed" in orders, "the plaintiff's unproved request fails"
    assert "costs of the appeal" in orders


def test_two_appeals_without_a_ground_leave_the_judgment_affirmed(first_instance):
    body, _ = second_instance(first_instance, defendant_evidence=False)
    orders = body[body.index("The court orders:") :]
    assert "Both appeals are dismissed and the judgment below affirmed" in orders
    assert "borne by the side that brought it" in orders


def test_the_agents_decision_to_appeal_names_each_order_whole(first_instance):
    """The defendant lost the order to pay RMB 86,400: its counsel names the order whole, not
    cut at the "Co., Ltd." of the company it must pay."""
    ctx = Ctx(view("defendant_lawyer", "defendant", first_instance, [], defendant_evidence=False))
    said, decision = answer_appeal(ctx)
    assert decision == "appeal"
    assert "Harbour View Property Management Co., Ltd. RMB 86,400" in said
    assert ".." not in said
