"""The scripted drafter's complaint in 民事起诉状's template: the evidence with what each item
proves, the court addressed, the complainant and the date, so that it holds every section of
MASER's template (``scoring.complaint``) and adds no field to LegalWorld's formula 6."""

from __future__ import annotations

import copy
import json
import re
from datetime import date

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.engine.state import TrialState
from court.procedures import procedure_for
from scoring.capabilities import capability_items
from scoring.complaint import complaint_score, reference_complaint
from scoring.complaint_text import complaint_read
from scoring.scorers import RuleBasedScorer
from tests.conftest import CIVIL_CASE, DEMO_CASES


def drafted(case: dict) -> tuple[TrialState, str]:
    """The trial up to CD played by the scripted backend, and the complaint it filed."""
    state = trial_start(case=case, target_side="plaintiff", last_stage="CD")
    trial_run(state, {seat: ScriptedAgent() for seat in procedure_for("civil").seats})
    return state, next(artifact.text for artifact in state.artifacts if artifact.kind == "complaint")


def without_plaintiff_evidence(case: dict) -> dict:
    case = copy.deepcopy(case)
    first = case["first_instance"]
    first["evidence"] = [item for item in first["evidence"] if item["side"] != "plaintiff"]
    return case


@pytest.mark.parametrize("case", [CIVIL_CASE, DEMO_CASES / "zh-civil-private-lending.json"], ids=["en", "zh"])
def test_a_scripted_complaint_holds_every_section_of_the_template_in_order(case):
    if not isinstance(case, dict):
        case = json.loads(case.read_text(encoding="utf-8"))
    _state, text = drafted(case)
    score = complaint_score(text, reference_complaint(case), RuleBasedScorer())
    assert score["standardability"] == 1.0, complaint_read(text, case["language"]).order
    evidence = [item for item in case["first_instance"]["evidence"] if item["side"] == "plaintiff"]
    sections = complaint_read(text, case["language"]).sections
    for item in evidence:
        assert item["name"] in sections["evidence"] and item["purpose"] in sections["evidence"], item
    assert score["fields"]["evidence"] == 1.0 and score["fields"]["plaintiff_info"] == 1.0


def test_the_complaint_is_signed_by_the_plaintiff_and_dated_the_day_it_is_drafted():
    _state, text = drafted(CIVIL_CASE)
    today = date.today()
    assert text.endswith(f"Complainant: Zhang Wei\nDate: {today.day} {today:%B} {today.year}")
    assert "To: " in text and "Li Na" not in text.split("To: ")[1], "the court, then the plaintiff's signature"


def test_a_plaintiff_without_evidence_files_no_empty_evidence_list():
    case = without_plaintiff_evidence(CIVIL_CASE)
    _state, text = drafted(case)
    assert not re.search(r"^Evidence", text, re.MULTILINE)
    score = complaint_score(text, reference_complaint(case), RuleBasedScorer())
    assert score["standardability"] == round(6 / 7, 4), "every section but the evidence"


def test_the_new_sections_add_no_field_to_formula_6():
    """LegalWorld C.2 formula (6) for CD: party slots, the court addressed, claims, facts and
    reasons, evidence, the requested disposition and coherence; the signature is none of them."""
    state, _text = drafted(CIVIL_CASE)
    items = [item.id for item in capability_items(state, RuleBasedScorer())[0] if item.stage == "CD"]
    assert sorted(items) == sorted(
        [
            "CD.party.plaintiff",
            "CD.party.defendant",
            "CD.claims",
            "CD.facts",
            "CD.evidence",
            "CD.disposition",
            "CD.coherence",
        ]
    ), "the test case names no court, so it has no court slot"
