"""LegalWorld C.2 formula (6) on hand-built pleadings: the exact fields F and the semantic
fields G of CD/DD and AD/AR, rated by a scorer with fixed ratings so every figure can be
computed by hand."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from court.engine.state import ArtifactRecord, TrialState
from scoring.capabilities import capability_items, capability_scores, stage_scores
from scoring.scorers import Criterion, Rating
from tests.conftest import CIVIL_CASE
from tests.scoring.test_capabilities import COHERENCE, RATINGS, FixedScorer, small_trial, turn

APPEAL = """Notice of appeal

Appellant (original defendant): Li Na
Appellee (original plaintiff): Zhang Wei

Appeal requests:
1. Set aside item 1 of the judgment and order that nothing more is owed

Grounds:
The repayment of RMB 30,000 was not credited.

New evidence:
1. Bank statement showing a further repayment"""
APPEAL_RATINGS = {"AD.reasons": 6, "AD.linkage": 5, "AD.new_evidence": 8, "AD.coherence": 7}


class RecordingScorer(FixedScorer):
    """A fixed scorer that keeps the criteria it was asked to rate."""

    def __init__(self, scores: dict[str, float]) -> None:
        super().__init__(scores)
        self.criteria: dict[str, Criterion] = {}

    def rate(self, criteria: list[Criterion], language: str) -> dict[str, Rating]:
        self.criteria |= {criterion.id: criterion for criterion in criteria}
        return super().rate(criteria, language)


def appeal_trial(text: str = APPEAL) -> TrialState:
    """The defendant's counsel drafting the appeal (the defendant appealed, as in the case)."""
    appeal = ArtifactRecord("AD", "appeal", "Notice of appeal", text, "defendant_lawyer", "defendant")
    return TrialState(
        case=copy.deepcopy(CIVIL_CASE),
        procedure="civil",
        target_side="defendant",
        appellant_side="defendant",
        turns=[turn(1, "AD", "interview", "defendant_lawyer", "draft_appeal", "Filed.")],
        artifacts=[appeal],
        stage_history=["AD"],
    )


def by_id(items) -> dict:
    return {item.id: item for item in items}


def test_coherence_and_the_requested_disposition_are_semantic_fields_rated_by_the_scorer_formula_6():
    scorer = RecordingScorer(RATINGS)
    items = by_id(capability_items(small_trial(), scorer)[0])
    assert (items["CD.coherence"].kind, items["CD.coherence"].score) == ("semantic", pytest.approx(COHERENCE))
    assert (items["CD.disposition"].kind, items["CD.disposition"].score) == ("semantic", 0.7)
    assert items["CD.disposition"].capability == "claim_construction"
    disposition = scorer.criteria["CD.disposition"]
    assert disposition.reference == CIVIL_CASE["first_instance"]["disposition"]
    assert disposition.candidate == "repay the RMB 50,000 principal with interest at the LPR", (
        "the candidate is the pleading's claims section"
    )
    assert "CD.sections" not in items and "CD.coherence" in scorer.criteria


def test_a_drafting_stage_closed_without_the_subjects_pleading_scores_zero_formula_6():
    trial = small_trial()
    unfiled = replace(trial, artifacts=[])
    items = [item for item in capability_items(unfiled, FixedScorer(RATINGS))[0] if item.stage == "CD"]
    # F (plaintiff, defendant) and G (claims, facts, evidence, disposition, coherence), all 0
    assert sorted(item.id for item in items) == sorted(
        f"CD.{name}"
        for name in ("party.plaintiff", "party.defendant", "claims", "facts", "evidence", "disposition", "coherence")
    )
    assert stage_scores(items) == {"CD": 0.0}
    assert capability_scores(items)["claim_construction"]["first"] == 0.0
    drafting = replace(unfiled, stage_history=["LC", "CD"], stage_status="running")
    still_drafting = capability_items(drafting, FixedScorer(RATINGS))[0]
    assert not [item for item in still_drafting if item.stage == "CD"], "a pleading not yet due is not scored"


def test_another_sides_drafting_stage_and_a_consultation_not_given_are_not_the_subjects():
    as_defendant = replace(small_trial(), target_side="defendant")
    items, skipped = capability_items(as_defendant, FixedScorer(RATINGS))
    assert {item.stage for item in items} == {"FIT"} and skipped == {}


def test_appeal_fields_are_the_appellate_role_parties_and_the_request_slot_exact_formula_6_table_9():
    scorer = RecordingScorer(APPEAL_RATINGS)
    items = by_id(capability_items(appeal_trial(), scorer)[0])
    exact = {item_id: item.score for item_id, item in items.items() if item.kind == "exact"}
    # the requests ask to set aside item 1 (vary), as the real appeal does
    assert exact == {"AD.appellate_role": 1.0, "AD.party.defendant": 1.0, "AD.party.plaintiff": 1.0, "AD.requests": 1.0}
    assert set(scorer.criteria) == set(APPEAL_RATINGS), "requests are matched, not rated"
    assert items["AD.appellate_role"].capability == "party_identification"
    assert items["AD.requests"].capability == "claim_construction"
    # S_AD = (4 exact + 0.6 + 0.5 + 0.8 + coherence 0.7, capped at the content fields' mean) / 8
    coherence = min(0.7, (0.6 + 0.5 + 0.8) / 3)
    assert stage_scores(list(items.values()))["AD"] == pytest.approx((4 + 0.6 + 0.5 + 0.8 + coherence) / 8)


def test_a_wrong_appellate_role_or_another_requested_action_scores_zero_formula_6():
    wrong = APPEAL.replace("Appellant (original defendant): Li Na", "Appellee: Li Na").replace(
        "Set aside item 1 of the judgment and order that nothing more is owed", "Remand the case for a retrial"
    )
    items = by_id(capability_items(appeal_trial(wrong), FixedScorer(APPEAL_RATINGS))[0])
    assert items["AD.appellate_role"].score == 0.0
    assert (items["AD.requests"].score, items["AD.requests"].reason) == (0.0, "requests remand against vary")
    assert items["AD.requests"].missing == CIVIL_CASE["second_instance"]["appeal_requests"]


def test_the_appellee_answers_as_appellee_and_asks_for_the_judgment_to_be_affirmed_formula_6():
    response = ArtifactRecord(
        "AR",
        "appeal_response",
        "Response to appeal",
        "Response to appeal\nRespondent (appellee): Zhang Wei\nAnswer to each ground:\nThe repayment was credited.\n"
        "Relief sought:\nThe appeal should be dismissed and the judgment affirmed.",
        "plaintiff_lawyer",
        "plaintiff",
    )
    trial = replace(
        appeal_trial(),
        target_side="plaintiff",
        turns=[turn(1, "AR", "interview", "plaintiff_lawyer", "draft_appeal_response", "Filed.")],
        artifacts=[response],
        stage_history=["AR"],
    )
    ratings = {"AR.reasons": 5, "AR.linkage": 5, "AR.coherence": 5}
    items = by_id(capability_items(trial, FixedScorer(ratings))[0])
    assert items["AR.appellate_role"].score == 1.0
    assert (items["AR.requests"].score, items["AR.requests"].reason) == (1.0, "requests affirm against affirm")
    assert items["AR.party.plaintiff"].score == 1.0 and items["AR.party.defendant"].score == 0.0
