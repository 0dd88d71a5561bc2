"""Every seat a person plays gets a scorecard: the judge on procedural compliance, neutrality
and judgment alignment, the parties on stance authenticity and disclosure, counsel of
either side (and criminal counsel) on the capabilities. Trials are played by the scripted
agents, then the seat under test is marked as a person's, as a live trial records it."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.engine.state import TrialState
from court.procedures import procedure_for
from scoring.report import person_seats, result_overall, seat_result
from scoring.scorers import RuleBasedScorer
from tests.conftest import DEMO_CASES


def played(case_id: str, *, person: str, last_stage: str | None = None, target_side: str | None = None) -> TrialState:
    seed = json.loads((DEMO_CASES / f"{case_id}.json").read_text())
    side = target_side or ("defendant" if seed["procedure"] == "criminal" else "plaintiff")
    state = trial_start(case=seed, target_side=side, last_stage=last_stage)
    trial_run(state, {seat: ScriptedAgent() for seat in procedure_for(seed["procedure"]).seats})
    assert state.finished
    state.human_seats = {person: "student"}
    state.turns = [replace(turn, author="human") if turn.seat == person else turn for turn in state.turns]
    return state


def items_of(result: dict, capability: str) -> list[dict]:
    return [item for item in result["items"] if item["capability"] == capability]


def test_a_judge_is_scored_on_the_role_rubric_and_the_judgment_against_the_real_one():
    state = played("en-civil-traffic-accident", person="judge", last_stage="FIT")
    result = seat_result(state, "judge", scorer=RuleBasedScorer())
    assert result["kind"] == "judge"
    assert set(result["capabilities"]) == {"procedural_compliance", "neutrality", "judgment_alignment"}
    assert result["capabilities"]["procedural_compliance"] == 1.0, "the scripted judge conducts every phase"
    assert result["capabilities"]["neutrality"] == 1.0
    assert 0 < result["capabilities"]["judgment_alignment"] <= 1
    assert result_overall(result) is not None


def test_a_judge_who_skips_a_phase_or_prejudges_loses_points_for_it():
    state = played("en-civil-traffic-accident", person="judge", last_stage="FIT")
    state.turns = [turn for turn in state.turns if not (turn.seat == "judge" and turn.phase == "debate")]
    opening = next(turn for turn in state.turns if turn.seat == "judge" and turn.phase == "opening")
    opening.text += " Frankly the defendant is liable, and I will say so in the judgment."
    result = seat_result(state, "judge", scorer=RuleBasedScorer())
    debate = next(item for item in result["items"] if item["id"] == "FIT.debate.conducted")
    assert debate["score"] == 0 and "not conducted" in debate["reason"]
    prejudged = next(item for item in result["items"] if item["id"] == "FIT.no_prejudgment")
    assert prejudged["score"] == 0 and prejudged["links"][0]["turn"] == opening.seq
    assert result["capabilities"]["neutrality"] < 1 and result["capabilities"]["procedural_compliance"] < 1


def test_a_criminal_judge_is_scored_on_the_sentence_pronounced():
    state = played("en-criminal-telecom-fraud", person="judge")
    result = seat_result(state, "judge", scorer=RuleBasedScorer())
    sentence = {item["id"].split(".")[-1] for item in items_of(result, "judgment_alignment")}
    assert {"imprisonment", "fine", "probation"} <= sentence


def test_a_client_who_tells_their_side_of_the_story_scores_above_one_who_says_nothing_of_it():
    state = played("en-civil-traffic-accident", person="plaintiff_client", last_stage="FIT")
    told = seat_result(state, "plaintiff_client", scorer=RuleBasedScorer())
    assert told["kind"] == "client" and set(told["capabilities"]) == {"stance_authenticity", "disclosure"}
    assert told["capabilities"]["disclosure"] > 0
    silent = replace(
        state,
        turns=[
            replace(turn, text="I do not know.") if turn.seat == "plaintiff_client" else turn for turn in state.turns
        ],
    )
    said_nothing = seat_result(silent, "plaintiff_client", scorer=RuleBasedScorer())
    assert said_nothing["capabilities"]["disclosure"] < told["capabilities"]["disclosure"]
    assert said_nothing["capabilities"]["stance_authenticity"] < told["capabilities"]["stance_authenticity"]
    not_said = [point for item in said_nothing["items"] for point in item["missing"]]
    assert not_said, "what the client left out is listed"


def test_counsel_of_the_other_side_is_scored_as_that_side():
    state = played("en-civil-traffic-accident", person="defendant_lawyer", last_stage="FIT")
    result = seat_result(state, "defendant_lawyer", scorer=RuleBasedScorer())
    assert result["kind"] == "lawyer" and result["target_side"] == "defendant"
    stages = {item["stage"] for item in result["items"]}
    assert stages == {"FIT"}, "the plaintiff's consultation and complaint are not the defendant's counsel's work"
    fit_items = [item for item in result["items"] if item["stage"] == "FIT"]
    assert fit_items and all(item["links"] for item in fit_items if item["score"] > 0)
    defendant_turns = {turn.seq for turn in state.turns if turn.seat == "defendant_lawyer"}
    linked = {link["turn"] for item in fit_items for link in item["links"] if "turn" in link}
    assert linked <= defendant_turns, "only the defendant's counsel's own statements count"


@pytest.mark.parametrize("seat", ["prosecutor", "attorney"])
def test_criminal_counsel_get_capabilities_rather_than_an_empty_scorecard(seat):
    state = played("en-criminal-telecom-fraud", person=seat)
    result = seat_result(state, seat, scorer=RuleBasedScorer())
    advocacy = {name: result["capabilities"][name]["first"] for name in ("position_consistency", "legal_reasoning")}
    assert all(value is not None for value in advocacy.values()), advocacy
    assert any(value > 0 for value in advocacy.values()), advocacy
    assert {item["stage"] for item in result["items"]} == {"investigation", "evidence", "debate"}


def test_not_raised_lists_hold_points_of_substance_never_the_pleadings_form():
    state = played("en-civil-traffic-accident", person="plaintiff_lawyer")
    for turn in state.turns:
        if turn.seat == "plaintiff_lawyer":
            turn.text = "No comment."
    complaint = next(artifact for artifact in state.artifacts if artifact.kind == "complaint")
    form_lines = [line for line in complaint.text.splitlines()[:3] if line.strip()]
    for artifact in state.artifacts:
        if artifact.author_seat == "plaintiff_lawyer":
            artifact.text = "\n".join([*form_lines, "No comment."])
    result = seat_result(state, "plaintiff_lawyer", scorer=RuleBasedScorer())
    missing = [point for item in result["items"] if item["stage"] in ("CD", "FIT") for point in item["missing"]]
    assert missing, "the claims a complaint of its form alone never made"
    assert not any(line.strip() in missing for line in form_lines), form_lines
    assert not any(point.startswith(("Civil Complaint", "To:", "Plaintiff:")) for point in missing)


def test_the_seats_scored_are_those_a_person_spoke_in():
    state = played("en-civil-traffic-accident", person="judge", last_stage="FIT")
    assert person_seats(state) == ["judge"]
