"""Who appeals (issue #17): with a person seated, the first-instance judgment decides who may
appeal; a benchmark run follows the real case's appeal."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.runner import End, trial_run
from court.engine.state import TrialState
from court.engine.steps import MemoryUpdate, Reply, StageStart
from court.engine.visibility import build_view
from court.procedures.civil import APPEAL_ANSWER, CIVIL_SEATS
from tests.conftest import CIVIL_CASE
from tests.court.engine.test_visibility import plant

REAL_APPEAL = CIVIL_CASE["second_instance"]["appeal_requests"][0]


def unopposed(seed: dict) -> dict:
    """The defence asserts the repayment but brings no evidence of it: the scripted court
    grants every claim (``agents.scripted.civil_ruling``, ``criminal_ruling``)."""
    evidence = seed["first_instance"]["evidence"]
    seed["first_instance"]["evidence"] = [item for item in evidence if item["side"] != "defendant"]
    return seed


class Student:
    """A person in a seat: argues the side's case as its scripted counsel would, deciding
    ``appeal`` as told."""

    def __init__(self, appeal: str = "decline") -> None:
        self.appeal = appeal
        self.asked: list[tuple[str, str]] = []

    def respond(self, request: TurnRequest, *, on_delta=None) -> Reply:
        step = request.step
        self.asked.append((step.stage, step.act))
        reply = ScriptedAgent().respond(request)
        return replace(reply, decision=self.appeal if step.act == APPEAL_ANSWER else reply.decision)

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        return MemoryUpdate()

    def drain_calls(self) -> list[dict]:
        return []


class Watched(ScriptedAgent):
    """A scripted seat that keeps every view it was given, to check what reached it."""

    def __init__(self, seen: list[str]) -> None:
        self.seen = seen

    def respond(self, request: TurnRequest, *, on_delta=None) -> Reply:
        self.seen.append(request.view.as_json())
        return super().respond(request, on_delta=on_delta)


def play(seed: dict, *, target_side: str, seat: str, student: Student, seen: list[str] | None = None) -> TrialState:
    state = trial_start(case=seed, target_side=target_side, human_seats={seat: "student"})
    seen = [] if seen is None else seen
    participants = {other: Watched(seen) for other in CIVIL_SEATS} | {seat: student}
    assert isinstance(trial_run(state, participants), End)
    return state


def decisions(state: TrialState) -> dict[str, str | None]:
    return {turn.seat: turn.decision for turn in state.turns if turn.stage == "AD-Det"}


def test_a_person_whose_claims_were_all_granted_is_never_asked_and_answers_the_losers_appeal(civil_seed):
    """The reported bug: the real plaintiff appealed, but in this trial the plaintiff won
    everything, so the student (plaintiff's counsel) answers the defendant's appeal."""
    civil_seed["second_instance"]["appellant_side"] = "plaintiff"
    student = Student(appeal="appeal")
    seen: list[str] = []
    state = play(unopposed(civil_seed), target_side="plaintiff", seat="plaintiff_lawyer", student=student, seen=seen)

    assert ("AD-Det", APPEAL_ANSWER) not in student.asked
    assert decisions(state) == {"defendant_lawyer": "appeal"}, "the losing side's agent counsel appealed"
    assert state.appellant_side == "defendant"
    assert state.stage_history == ["LC", "CD", "FIT", "AD-Det", "AR", "SIT"]
    assert ("AR", "draft_appeal_response") in student.asked
    assert not any(stage == "AD" for stage, _act in student.asked), "nobody asked the student to draft an appeal"
    later = [view for view in seen if '"unit": "AD_AR"' in view or '"unit": "SIT"' in view]
    assert later and not any(REAL_APPEAL in view for view in later), "the real plaintiff's appeal is not this appeal"


def test_a_person_who_lost_is_asked_and_declining_ends_the_case_with_a_final_judgment(civil_seed):
    student = Student(appeal="decline")
    state = play(unopposed(civil_seed), target_side="defendant", seat="defendant_lawyer", student=student)

    assert ("AD-Det", APPEAL_ANSWER) in student.asked
    assert decisions(state) == {"defendant_lawyer": "decline"}, "the plaintiff, who won everything, is not asked"
    assert state.stage_history == ["LC", "DD", "FIT", "AD-Det"] and state.finished
    final = state.artifacts[-1]
    assert (final.stage, final.title) == ("AD-Det", "Judgment final")
    assert "has become final" in final.text and state.appellant_side is None


def test_a_person_who_lost_and_appeals_drafts_the_appeal_from_the_orders_they_lost(civil_seed):
    civil_seed["second_instance"]["appellant_side"] = "plaintiff"
    student = Student(appeal="appeal")
    seen: list[str] = []
    state = play(unopposed(civil_seed), target_side="defendant", seat="defendant_lawyer", student=student, seen=seen)

    assert state.appellant_side == "defendant"
    assert state.stage_history == ["LC", "DD", "FIT", "AD-Det", "AD", "SIT"]
    assert ("AD", "draft_appeal") in student.asked
    sit = [view for view in seen if '"stage": "SIT"' in view]
    assert any("Set aside the order" in view for view in sit), "the appeal heard contests the defendant's orders"
    assert not any(REAL_APPEAL in view for view in seen)


@pytest.mark.parametrize(
    ("answer", "seat", "appellant", "stage"),
    [
        ("decline", "plaintiff_lawyer", "defendant", "AR"),  # the person answers the other side's appeal
        ("appeal", "plaintiff_client", "plaintiff", "AD"),  # the person's appeal is heard, over the real one's
    ],
)
def test_when_both_sides_lost_the_persons_decision_comes_first(civil_seed, answer, seat, appellant, stage):
    """The defence proves RMB 30,000 of the 50,000 repaid: the plaintiff gets the rest."""
    state = play(civil_seed, target_side="plaintiff", seat=seat, student=Student(appeal=answer))

    assert decisions(state) == {seat: answer, "defendant_lawyer": "appeal"}
    assert state.appellant_side == appellant and stage in state.stage_history


def test_when_both_sides_appeal_both_appeals_are_heard_and_each_is_before_the_court(civil_seed):
    """The lease case (issue #44 item 3): the student appealed and so did the other side's
    counsel; only the student's appeal was heard. Now the other side is the cross-appellant:
    the determination says both appeals are heard, and at the second instance the court and
    both parties have each side's requests, the real defendant's among them."""
    state = play(civil_seed, target_side="plaintiff", seat="plaintiff_client", student=Student(appeal="appeal"))

    assert (state.appellant_side, state.cross_appellant_side) == ("plaintiff", "defendant")
    assert "both appeals are heard together" in state.artifacts_of("appeal_determination")[-1].text
    for seat in ("judge", "plaintiff_lawyer", "defendant_lawyer"):
        appeals = build_view(state, seat, stage="SIT").fields["appeal"]
        assert appeals.keys() == {"plaintiff", "defendant"}, seat
        assert REAL_APPEAL in appeals["defendant"]["appeal_requests"], seat
        assert appeals["plaintiff"]["appeal_requests"], seat


def test_one_side_appealing_has_no_cross_appeal(civil_seed):
    state = play(civil_seed, target_side="plaintiff", seat="plaintiff_lawyer", student=Student(appeal="decline"))

    assert (state.appellant_side, state.cross_appellant_side) == ("defendant", None)
    assert "appealed too" not in state.artifacts_of("appeal_determination")[-1].text
    assert build_view(state, "judge", stage="SIT").fields["appeal"].keys() == {"shared"}


def test_a_mediated_first_instance_has_no_appeal(civil_seed):
    for side in ("plaintiff", "defendant"):
        civil_seed["goals"][side]["accepts_mediation"] = True
    state = play(civil_seed, target_side="defendant", seat="defendant_lawyer", student=Student(appeal="appeal"))
    assert state.stage_history == ["LC", "DD", "FIT"]


def test_no_evaluation_only_field_reaches_a_seat_when_the_trial_takes_another_appeal(civil_seed):
    civil_seed["second_instance"]["appellant_side"] = "plaintiff"
    seed, planted = plant(civil_seed)
    seen: list[str] = []
    play(seed, target_side="plaintiff", seat="plaintiff_lawyer", student=Student(), seen=seen)
    hidden = [value for label, value in planted.items() if label.startswith("eval:")]
    assert hidden and seen
    assert not any(value in view for value in hidden for view in seen)


def test_a_benchmark_run_follows_the_real_cases_appeal_whatever_the_judgment(civil_seed):
    civil_seed["second_instance"]["appellant_side"] = "plaintiff"
    state = trial_start(case=unopposed(copy.deepcopy(civil_seed)), target_side="plaintiff")
    assert isinstance(trial_run(state, {seat: ScriptedAgent() for seat in CIVIL_SEATS}), End)
    assert state.appellant_side == "plaintiff", "the plaintiff won everything here, yet appeals as in the case file"
    assert state.stage_history == ["LC", "CD", "FIT", "AD-Det", "AD", "SIT"]
    assert decisions(state) == {}, "nobody is asked in a benchmark run"


def test_a_person_starting_at_the_appeal_gets_the_stage_the_judgment_gives_their_side(civil_seed):
    """Agents play the stages before the one a student chose (``stop_before``) without the
    student's seat, and still follow the judgment: the plaintiff won everything below, so the
    plaintiff's counsel who chose to draft the appeal answers the defendant's instead."""
    civil_seed["second_instance"]["appellant_side"] = "plaintiff"
    state = trial_start(case=unopposed(civil_seed), target_side="plaintiff")
    state.seated = True
    agents = {seat: ScriptedAgent() for seat in CIVIL_SEATS}
    stopped = trial_run(state, agents, stop_before="AD")

    assert isinstance(stopped, StageStart) and stopped.stage == "AR", "stopped where the student's side comes in"
    assert state.appellant_side == "defendant"


def test_an_appeal_drafted_from_the_orders_lost_without_evidence_leaves_the_judgment_affirmed(civil_seed):
    """Boilerplate ("set aside the order ... and decide it afresh", no new evidence, no ground of
    law) does not move an appeal court: a complete order, not a bare "varied" without a sum."""
    civil_seed["second_instance"]["appellant_side"] = "plaintiff"
    state = play(unopposed(civil_seed), target_side="defendant", seat="defendant_lawyer", student=Student("appeal"))
    judgment = state.artifacts_of("second_instance_judgment")[-1].text
    orders = judgment.split("The court orders:", 1)[1]
    assert "The appeal is dismissed and the judgment below affirmed" in orders
    assert "costs of the appeal are borne by the appellant" in orders
    reasoning = judgment.split("Reasoning", 1)[1].split("Legal basis", 1)[0]
    assert "produced no new evidence" in reasoning and ": ; granted" not in reasoning
