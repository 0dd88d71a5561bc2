"""The scripted client tells their facts in the first person, and the scripted lawyer answers
each of the client's questions on its own terms, never with a paragraph said before."""

from __future__ import annotations

import json

import pytest

from agents.scripted.voice import in_own_voice
from tests.conftest import DEMO_CASES
from tests.trials.test_debrief import simulated

TRAFFIC = json.loads((DEMO_CASES / "en-civil-traffic-accident.json").read_text())
LENDING = json.loads((DEMO_CASES / "zh-civil-private-lending.json").read_text())


def test_an_english_client_tells_the_accident_as_i_and_me():
    told = in_own_voice(
        TRAFFIC["first_instance"]["facts_and_reasons"], side="plaintiff", parties=TRAFFIC["parties"], language="en"
    )
    assert told.startswith("At about 18:40 on 12 November 2023 I was crossing Chaoyang North Road")
    assert "when Huang Jun, riding an electric-assisted delivery motorcycle registered in his name, struck me." in told
    assert "I suffered a fracture" in told and "and me secondarily liable" in told
    assert "the plaintiff" not in told.lower() and " she " not in f" {told.lower()} " and "struck her" not in told


def test_the_other_client_keeps_her_for_the_other_side_and_says_my_share():
    told = in_own_voice(
        TRAFFIC["first_instance"]["defenses"], side="defendant", parties=TRAFFIC["parties"], language="en"
    )
    assert told.startswith("Liu Fang crossed on a red pedestrian signal, so her own fault should reduce my share")


def test_a_chinese_client_says_wo_and_names_the_other_side_once():
    told = in_own_voice(
        LENDING["first_instance"]["facts_and_reasons"], side="plaintiff", parties=LENDING["parties"], language="zh"
    )
    assert told.startswith("2023年3月1日，周某某以饭店装修周转为由向我借款20万元")
    assert "原告" not in told and "被告" not in told and "至对方账户" in told


def test_a_chinese_client_keeps_other_peoples_pronouns():
    parties = [
        {"side": "plaintiff", "name": "张某", "details": "男，1980年出生"},
        {"side": "defendant", "name": "李某"},
    ]
    told = in_own_voice("原告称他与被告无其他财产，他人不知情。", side="plaintiff", parties=parties, language="zh")
    assert told == "我称我与李某无其他财产，他人不知情。"


def test_a_lawyer_tells_the_file_back_to_the_client_as_you():
    told = in_own_voice(
        "The plaintiff claims the rent and is entitled to set the deposit against it.",
        side="plaintiff",
        parties=[{"side": "plaintiff", "name": "A Ltd.", "kind": "organization"}],
        language="en",
        person="second",
    )
    assert told == "You claim the rent and are entitled to set the deposit against it."


@pytest.mark.django_db
@pytest.mark.parametrize("case_id", ["en-civil-traffic-accident", "zh-civil-private-lending"])
def test_the_consultation_client_speaks_for_herself_and_each_question_gets_its_own_answer(case_id):
    turns = simulated(case_id, until="LC").engine_state.turns
    story = next(turn.text for turn in turns if turn.act == "describe_dispute")
    assert not any(word in story.lower() for word in ("the plaintiff", "the defendant", "原告", "被告"))
    answers = [turn.text for turn in turns if turn.act == "answer_question"]
    assert len(answers) == 2 and answers[0] != answers[1]
    lawyer = [turn.text for turn in turns if turn.seat.endswith("_lawyer")]
    assert len(lawyer) == len(set(lawyer)), "the lawyer never repeats a turn word for word"


@pytest.mark.django_db
def test_the_lawyer_answers_what_can_be_claimed_with_what_can_be_claimed():
    turns = simulated("en-civil-traffic-accident", until="LC").engine_state.turns
    first, second = (turn.text for turn in turns if turn.act == "answer_question")
    assert "you secondarily liable for crossing against the signal" in first, "the red light question: your own fault"
    assert "medical expenses of RMB 86,400" in second, "what can I claim: the heads of loss"
