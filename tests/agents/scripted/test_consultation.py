"""The scripted consultation (issue #44 item 2): the lawyer asks one part of the agenda at a
time, the client answers each question from the case, and the lawyer closes the interview
once it has asked everything, before the follow-ups run out."""

from __future__ import annotations

import json

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.runner import End, trial_run
from court.engine.state import TrialState
from court.procedures import procedure_for
from court.procedures.civil import FOLLOW_UPS
from tests.conftest import DEMO_CASES


def consultation(name: str) -> tuple[dict, TrialState]:
    case = json.loads((DEMO_CASES / name).read_text(encoding="utf-8"))
    state = trial_start(case=case, target_side="plaintiff", last_stage="LC")
    assert isinstance(trial_run(state, {seat: ScriptedAgent() for seat in procedure_for("civil").seats}), End)
    return case, state


def answers(state: TrialState) -> list[tuple[str, str]]:
    """(question, answer) for each follow-up the client answered."""
    turns = [turn for turn in state.turns if turn.phase == "follow_up"]
    return [(asked.text, told.text) for asked, told in zip(turns[::2], turns[1::2], strict=False)]


@pytest.mark.parametrize("name", ["en-civil-commercial-lease.json", "zh-civil-private-lending.json"])
def test_the_client_answers_each_question_from_the_case(name):
    case, state = consultation(name)
    (_, particulars), (_, facts), (_, evidence) = answers(state)
    names = [party["name"] for party in case["parties"]]
    assert all(party in particulars for party in names), "both parties' particulars"
    assert any(amount in facts for amount in ("20万元", "RMB 24,000")), "the dates and amounts of the account"
    assert case["first_instance"]["evidence"][0]["name"] in evidence, "the evidence in hand"
    assert len({particulars, facts, evidence}) == 3, "each question gets its own answer"


def test_the_lawyer_closes_the_interview_once_everything_is_asked():
    _, state = consultation("en-civil-commercial-lease.json")
    questions = [turn for turn in state.turns if turn.act == "ask_follow_up"]
    assert 1 < len(questions) < FOLLOW_UPS
    assert "What would you like to ask me?" in questions[-1].text
    following = state.turns[state.turns.index(questions[-1]) + 1]
    assert following.act == "ask_question", "the client's questions follow at once, no answer to the closing"
