from __future__ import annotations

import copy

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.engine.state import TrialState
from court.procedures.civil import CIVIL_SEATS


def consultation(seed: dict, **persona: str) -> TrialState:
    seed["personas"]["plaintiff"].update(persona)
    state = trial_start(case=seed, target_side="plaintiff", last_stage="LC")
    trial_run(state, {seat: ScriptedAgent() for seat in CIVIL_SEATS})
    return state


def client_words(state: TrialState) -> str:
    return " ".join(turn.text for turn in state.turns if turn.seat == "plaintiff_client")


def test_a_forthcoming_client_names_all_their_evidence_and_a_guarded_one_does_not(civil_seed):
    open_client = client_words(consultation(copy.deepcopy(civil_seed), disclosure_willingness="high"))
    guarded = client_words(consultation(copy.deepcopy(civil_seed), disclosure_willingness="low"))
    assert "IOU" in open_client and "Bank transfer record" in open_client
    assert "Bank transfer record" not in guarded


def test_an_anxious_client_sounds_anxious(civil_seed):
    assert "upset" in client_words(consultation(civil_seed, emotional_stability="low"))


def test_the_client_asks_its_own_consultation_questions_in_order(civil_seed):
    civil_seed["consultation"].append({"question": "What if he has no money?", "side": "plaintiff"})
    state = consultation(civil_seed)
    asked = [turn.text for turn in state.turns if turn.act == "ask_question"]
    assert asked == ["Can I get my money back?", "What if he has no money?"]
    assert "Must I pay interest?" not in client_words(state), "the other side's question is not the client's"


def test_lawyer_answers_are_grounded_in_the_case_and_cite_the_burden_of_proof(civil_seed):
    state = consultation(civil_seed)
    answer = next(turn.text for turn in state.turns if turn.act == "answer_question")
    assert "private lending dispute" in answer and "IOU" in answer
    assert "Civil Procedure Law of the People's Republic of China, Article 67" in answer


def test_the_case_language_picks_the_agents_language(civil_seed):
    english = consultation(civil_seed)
    assert not any("\u4e00" <= char <= "\u9fff" for turn in english.turns for char in turn.text)
    civil_seed["language"] = "zh"
    chinese = consultation(civil_seed)
    assert "律师您好" in chinese.turns[0].text
