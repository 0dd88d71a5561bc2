"""A model's answer to a deciding act: the ``DECISION:`` line, else the words, else the
conservative default (mediation declined, no appeal filed)."""

from __future__ import annotations

import pytest

from agents.decisions import decision_from_words, decision_parse
from court.procedures.civil import APPEAL_ANSWER, DECISIONS, MEDIATION_ANSWER
from legalsim.llm import ReplyFormatError

MEDIATION = DECISIONS[MEDIATION_ANSWER]
APPEAL = DECISIONS[APPEAL_ANSWER]


def test_the_decision_line_is_taken_and_left_out_of_the_words():
    assert decision_parse("We would settle.\nDECISION: accept", MEDIATION) == ("We would settle.", "accept")


def test_a_reply_without_the_line_is_refused_by_the_strict_reader():
    with pytest.raises(ReplyFormatError, match=r"DECISION: accept\|decline"):
        decision_parse("We would settle.", MEDIATION)


@pytest.mark.parametrize(
    ("words", "decision"),
    [
        ("My client is willing to settle by mediation.", "accept"),
        ("Yes, we agree to mediation.", "accept"),
        ("We accept the court's offer to mediate.", "accept"),
        ("我方同意调解。", "accept"),
        ("原告愿意接受调解。", "accept"),
        ("We do not agree to mediation.", "decline"),
        ("My client will not settle; we want a judgment.", "decline"),
        ("We decline the offer.", "decline"),
        ("The plaintiff is unwilling to compromise.", "decline"),
        ("我方不同意调解，请求依法判决。", "decline"),
        ("被告拒绝调解。", "decline"),
    ],
)
def test_a_mediation_answer_is_read_from_its_words(words, decision):
    assert decision_from_words(words, MEDIATION) == (decision, "words")


@pytest.mark.parametrize(
    ("words", "decision"),
    [
        ("We will appeal to the higher court.", "appeal"),
        ("Our client instructs us to file an appeal.", "appeal"),
        ("我方决定提起上诉。", "appeal"),
        ("We will not appeal.", "decline"),
        ("We accept the judgment as it stands.", "decline"),
        ("My client has decided to waive the appeal.", "decline"),
        ("我方服判，不上诉。", "decline"),
        ("当事人决定放弃上诉。", "decline"),
    ],
)
def test_an_appeal_decision_is_read_from_its_words(words, decision):
    assert decision_from_words(words, APPEAL) == (decision, "words")


@pytest.mark.parametrize(
    ("words", "choices"),
    [
        ("The weather in the courtroom is pleasant.", MEDIATION),
        ("", MEDIATION),
        ("I agree with nothing the other side says, and we refuse mediation.", MEDIATION),
        ("本案事实清楚。", APPEAL),
    ],
)
def test_words_that_say_nothing_clear_take_the_conservative_default(words, choices):
    assert decision_from_words(words, choices) == ("decline", "default")
