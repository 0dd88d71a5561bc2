"""LongJud-Bench formulas 5-7 on a small hand-built trial, with a scorer that gives fixed
ratings so every figure can be computed by hand."""

from __future__ import annotations

import copy

import pytest

from court.engine.state import ArtifactRecord, TrialState, TurnRecord
from scoring.capabilities import capability_items, capability_scores, stage_scores
from scoring.scorers import Criterion, Rating
from tests.conftest import CIVIL_CASE


class FixedScorer:
    """Rates each criterion with the score given for its id (the formulas, not the scorer,
    are under test here)."""

    label = "fixed"

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores

    def rate(self, criteria: list[Criterion], language: str) -> dict[str, Rating]:
        return {criterion.id: Rating(self.scores[criterion.id], "fixed") for criterion in criteria}


def turn(seq: int, stage: str, phase: str, seat: str, act: str, text: str, author: str = "agent") -> TurnRecord:
    return TurnRecord(seq, stage, phase, seat, seat.split("_")[-1], seat.split("_")[0], seat, author, act, text)


YES = "Yes: Zhang Wei lent Li Na RMB 50,000 on 1 March 2022, and the IOU and bank transfer record prove the loan."
IT_HELPS = "The IOU proves the loan of RMB 50,000 to Li Na; keep the bank transfer record of the delivery too."
CLAIM = "We claim the RMB 50,000 principal Zhang Wei lent Li Na, with interest at the LPR from 1 March 2023."
ARGUMENT = "The IOU and the bank transfer record prove Zhang Wei lent Li Na RMB 50,000; she has not repaid the loan."
"""Statements about the case: what a person says is scored as far as it is (``grounding``)."""


def small_trial(author: str = "agent", fit_author: str | None = None) -> TrialState:
    """LC with both plaintiff questions answered, a complaint, and a FIT in which counsel says
    nothing in the evidence phase. ``author`` played the target seat in LC and CD,
    ``fit_author`` (the same by default) in FIT."""
    fit_author = fit_author or author
    case = copy.deepcopy(CIVIL_CASE)
    case["consultation"].append({"question": "Is the IOU enough?", "reference_answer": "Yes.", "side": "plaintiff"})
    complaint = ArtifactRecord(
        "CD",
        "complaint",
        "Civil complaint",
        "Civil complaint\nparties: Zhang Wei\nclaims: repay the RMB 50,000 principal with interest at the LPR\n"
        "facts and reasons: Zhang Wei lent the borrower RMB 50,000 on 1 March 2022; the IOU proves the loan.",
        "plaintiff_lawyer",
        "plaintiff",
    )
    turns = [
        turn(1, "LC", "questions", "plaintiff_client", "ask_question", "Can I get my money back?"),
        turn(2, "LC", "questions", "plaintiff_lawyer", "answer_question", YES, author),
        turn(3, "LC", "questions", "plaintiff_client", "ask_question", "Is the IOU enough?"),
        turn(4, "LC", "questions", "plaintiff_lawyer", "answer_question", IT_HELPS, author),
        turn(5, "CD", "pronouncement", "plaintiff_lawyer", "draft_complaint", "Filed.", author),
        turn(6, "FIT", "investigation", "judge", "invite_statement", "Plaintiff, state your claims."),
        turn(7, "FIT", "investigation", "plaintiff_lawyer", "state_claims", CLAIM, fit_author),
        turn(8, "FIT", "evidence", "judge", "invite_evidence", "Present your evidence."),
        turn(9, "FIT", "debate", "plaintiff_lawyer", "argue", ARGUMENT, fit_author),
    ]
    return TrialState(
        case=case,
        procedure="civil",
        target_side="plaintiff",
        turns=turns,
        artifacts=[complaint],
        stage_history=["LC", "CD", "FIT"],
    )


RATINGS = {
    # formula 5: question 1 (8+6+4+10)/4 = 7 -> 0.7; question 2 all 5 -> 0.5
    **dict(zip(("LC.q1.relationship", "LC.q1.rule", "LC.q1.risk", "LC.q1.advice"), (8, 6, 4, 10), strict=True)),
    **{f"LC.q2.{dimension}": 5 for dimension in ("relationship", "rule", "risk", "advice")},
    # formula 6 (semantic part)
    "CD.claims": 8,
    "CD.facts": 6,
    "CD.evidence": 4,
    "CD.disposition": 7,
    "CD.coherence": 9,
    # formula 7: investigation (9, 6, 3), evidence missing, debate (10, 8, 6)
    "FIT.investigation.position_consistency": 9,
    "FIT.investigation.evidentiary_advocacy": 6,
    "FIT.investigation.legal_reasoning": 3,
    "FIT.debate.position_consistency": 10,
    "FIT.debate.evidentiary_advocacy": 8,
    "FIT.debate.legal_reasoning": 6,
}

COHERENCE = min(0.9, (0.8 + 0.6 + 0.4 + 0.7) / 4)
"""A document is coherent only as far as it pleads the case: its coherence is at most the
mean of its content fields (``drafting.coherence_capped``)."""


def test_the_three_stage_formulas_match_a_hand_computation():
    items, skipped = capability_items(small_trial(), FixedScorer(RATINGS))
    stages = stage_scores(items)
    assert skipped == {}
    # S_LC = (0.7 + 0.5) / 2
    assert stages["LC"] == pytest.approx(0.6)
    # S_CD = (exact: plaintiff 1 + defendant 0; semantic: claims 0.8 + facts 0.6 + evidence 0.4
    #   + requested disposition 0.7 + coherence 0.9, capped at the mean of the four content fields) / 7
    assert stages["CD"] == pytest.approx((1 + 0 + 0.8 + 0.6 + 0.4 + 0.7 + COHERENCE) / 7)
    # S_FIT = (0.6 + 0 + 0.8) / 3: the evidence phase without a statement scores 0
    assert stages["FIT"] == pytest.approx((0.6 + 0 + 0.8) / 3)


def test_capabilities_group_the_items_and_keep_the_halves_apart():
    capabilities = capability_scores(capability_items(small_trial(), FixedScorer(RATINGS))[0])
    assert capabilities["issue_spotting"] == pytest.approx(0.6)
    assert capabilities["party_identification"] == {"first": pytest.approx(0.5), "second": None}
    assert capabilities["claim_construction"]["first"] == pytest.approx((0.8 + 0.7) / 2)
    assert capabilities["fact_marshalling"]["first"] == pytest.approx((0.6 + COHERENCE) / 2)
    assert capabilities["evidence_marshalling"]["first"] == pytest.approx(0.4)
    assert capabilities["position_consistency"]["first"] == pytest.approx((0.9 + 0 + 1.0) / 3)
    assert capabilities["evidentiary_advocacy"]["first"] == pytest.approx((0.6 + 0 + 0.8) / 3)
    assert capabilities["legal_reasoning"] == {"first": pytest.approx((0.3 + 0 + 0.6) / 3), "second": None}


def test_a_missing_phase_statement_is_a_deduction_linked_to_the_judges_invitation():
    items, _ = capability_items(small_trial(), FixedScorer(RATINGS))
    missing = [item for item in items if item.id.startswith("FIT.evidence.")]
    assert [item.score for item in missing] == [0.0, 0.0, 0.0]
    assert all(item.links == [{"turn": 8, "stage": "FIT", "phase": "evidence"}] for item in missing)
    debate = next(item for item in items if item.id == "FIT.debate.legal_reasoning")
    assert debate.links == [{"turn": 9, "stage": "FIT", "phase": "debate"}]


def test_stages_an_agent_played_for_the_student_are_marked_and_not_scored():
    items, skipped = capability_items(small_trial(author="agent", fit_author="human"), FixedScorer(RATINGS))
    assert {item.stage for item in items} == {"FIT"}
    assert set(skipped) == {"LC", "CD"}
    capabilities = capability_scores(items)
    assert capabilities["issue_spotting"] is None
    assert capabilities["claim_construction"] == {"first": None, "second": None}


def test_an_all_agent_trial_scores_every_stage_for_the_agent():
    items, skipped = capability_items(small_trial(author="agent"), FixedScorer(RATINGS))
    assert skipped == {} and {item.stage for item in items} == {"LC", "CD", "FIT"}
