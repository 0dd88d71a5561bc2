"""MILE interaction quality (MASER §3, Appendix B.1): the two-turn windows of the target
lawyer's dialogue, each aspect's mean over them, and logicality "without repeating any of the
previously discussed topics"."""

from __future__ import annotations

import copy

import pytest

from court.engine.state import TrialState
from scoring.interaction import interaction_quality, window_criteria, windows
from scoring.scorers import RuleBasedScorer
from tests.conftest import CIVIL_CASE
from tests.scoring.test_capabilities import FixedScorer, turn

CLIENT_ASKS = "Can I get my money back from Li Na?"
ANSWER = "Yes. The IOU proves the loan, so you can sue Li Na for the RMB 50,000."


def dialogue(*replies: str, author: str = "agent") -> TrialState:
    """An LC in which the client asks and the lawyer replies in turn, then a FIT statement
    (not a dialogue stage)."""
    turns = []
    for index, reply in enumerate(replies):
        turns.append(turn(2 * index + 1, "LC", "questions", "plaintiff_client", "ask_question", CLIENT_ASKS))
        turns.append(turn(2 * index + 2, "LC", "questions", "plaintiff_lawyer", "answer_question", reply, author))
    turns.append(turn(len(turns) + 1, "FIT", "debate", "judge", "invite", "Counsel, your argument."))
    turns.append(turn(len(turns) + 1, "FIT", "debate", "plaintiff_lawyer", "argue", "The loan is proved.", author))
    return TrialState(
        case=copy.deepcopy(CIVIL_CASE),
        procedure="civil",
        target_side="plaintiff",
        turns=turns,
        stage_history=["LC", "FIT"],
    )


def test_windows_pair_the_other_partys_turn_with_the_lawyers_reply_in_dialogue_stages_only_mile_b1():
    state = dialogue("First answer.", "Second answer.")
    pairs = [(before.seq, reply.seq) for before, reply in windows(state)]
    assert pairs == [(1, 2), (3, 4)], "the FIT statement is not a dialogue window"


def test_each_aspect_is_the_mean_over_the_windows_on_a_ten_point_scale_mile_section_3():
    scores = {
        "MILE.0.interactivity": 8,
        "MILE.0.professionality": 4,
        "MILE.0.logicality": 6,
        "MILE.1.interactivity": 6,
        "MILE.1.professionality": 2,
        "MILE.1.logicality": 10,
    }
    replies = ("The IOU proves the RMB 50,000 loan to Li Na.", "Keep the bank transfer record of the RMB 50,000 loan.")
    result = interaction_quality(dialogue(*replies), FixedScorer(scores))
    assert result == {
        "interactivity": pytest.approx(0.7),
        "professionality": pytest.approx(0.3),
        "logicality": pytest.approx(0.8),
        "windows": 2,
    }


def test_a_reply_without_legal_content_of_the_case_scores_zero_on_every_aspect_whoever_rates_it():
    scores = {f"MILE.0.{aspect}": 10 for aspect in ("interactivity", "professionality", "logicality")}
    result = interaction_quality(dialogue("asdf asdf asdf"), FixedScorer(scores))
    assert result == {"interactivity": 0.0, "professionality": 0.0, "logicality": 0.0, "windows": 1}


def test_without_a_dialogue_every_aspect_is_unavailable():
    state = dialogue()
    assert interaction_quality(state, FixedScorer({})) == {
        "interactivity": None,
        "professionality": None,
        "logicality": None,
        "windows": 0,
    }


def test_logicality_is_judged_against_the_other_partys_words_with_the_earlier_replies_as_already_said_mile_b1():
    criteria = {criterion.id: criterion for criterion in window_criteria(dialogue(ANSWER, "Keep the bank record."))}
    first, second = criteria["MILE.0.logicality"], criteria["MILE.1.logicality"]
    assert first.reference == second.reference == CLIENT_ASKS
    assert (first.already_said, second.already_said) == ("", ANSWER)
    assert criteria["MILE.1.interactivity"].already_said == "", "only logicality is about repeating"


def test_logicality_penalises_repeating_an_earlier_reply_instead_of_rewarding_it_mile_b1():
    moving_on = "Yes. To get the money back from Li Na, first send her a written demand."
    repeated = RuleBasedScorer().rate(window_criteria(dialogue(ANSWER, ANSWER)), "en")
    moved_on = RuleBasedScorer().rate(window_criteria(dialogue(ANSWER, moving_on)), "en")
    # the first windows are the same: the client's terms {get, my, money, back, li, na}, 2 covered → 3.333
    assert repeated["MILE.0.logicality"].score == moved_on["MILE.0.logicality"].score == pytest.approx(10 / 3, abs=1e-4)
    # the same reply again: both its sentences repeat the first reply → 2/6 coverage x (1 - 2/2) = 0
    assert repeated["MILE.1.logicality"].score == 0.0
    assert repeated["MILE.1.logicality"].reason.endswith("2 of 2 sentences repeat what was already said")
    # a reply that moves on: 5 of the 6 client terms covered, only "Yes." repeated → 5/6 x (1 - 1/2) → 4.167
    assert moved_on["MILE.1.logicality"].score == pytest.approx(25 / 6, abs=1e-4)
    # interactivity is not about repeating: the repeated reply keeps its coverage there
    assert repeated["MILE.1.interactivity"].score == pytest.approx(10 / 3, abs=1e-4)


def test_a_stage_an_agent_played_for_the_student_has_no_windows():
    state = dialogue("First answer.")
    state.turns[-1].author = "human"
    assert windows(state) == [], "the student played only FIT; the agent's consultation is not theirs"
