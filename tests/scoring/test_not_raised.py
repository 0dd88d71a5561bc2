"""What a scorecard lists as "not raised" (issue 32, item 7; issue 41, item 5): reference
points of the case file that the student's side made nowhere in the trial, never the student's
own filed sentences, and never the court's findings, orders or articles."""

from __future__ import annotations

import pytest

from scoring.alignment import disposition_items
from scoring.items import side_record
from scoring.references import own_points, point_key, sentences
from scoring.report import seat_result
from scoring.scorers import RuleBasedScorer, points_raised
from tests.scoring.test_roles import played


def missing_points(result: dict, stage: str | None = None) -> list[str]:
    return [point for item in result["items"] if stage in (None, item["stage"]) for point in item["missing"]]


def test_not_raised_never_lists_the_students_own_filed_sentences():
    state = played("en-civil-commercial-lease", person="plaintiff_lawyer")
    for turn in state.turns:
        if turn.seat == "plaintiff_lawyer" and turn.stage in ("FIT", "SIT"):
            turn.text = "No comment."
    result = seat_result(state, "plaintiff_lawyer", scorer=RuleBasedScorer())
    filed = {
        sentence
        for artifact in state.artifacts
        if artifact.author_seat == "plaintiff_lawyer"
        for sentence in sentences(artifact.text)
    }
    missing = missing_points(result)
    assert missing, "the findings and law the side never argued are listed"
    assert not filed & set(missing), sorted(filed & set(missing))


def test_not_raised_lists_only_reference_points_the_side_made_nowhere():
    state = played("en-civil-commercial-lease", person="plaintiff_lawyer")
    for turn in state.turns:
        if turn.seat == "plaintiff_lawyer" and turn.stage == "FIT":
            turn.text = "No comment."
    result = seat_result(state, "plaintiff_lawyer", scorer=RuleBasedScorer())
    record = side_record(state, "plaintiff")
    missing = missing_points(result)
    made, _ = points_raised(missing, record, "en")
    assert made == [], "a point the complaint or the client made is not 'not raised'"
    claims = state.case["first_instance"]["claims"]
    assert not set(claims) & set(missing_points(result, "FIT")), "the complaint pleaded the claims"


def court_text(state) -> set[str]:
    """Every sentence the courts wrote: the real findings, orders and articles, and the
    trial's own judgments."""
    case = state.case
    blocks = [case, case.get("first_instance") or {}, case.get("second_instance") or {}]
    keys = ("court_findings", "appellate_findings", "disposition", "final_disposition", "affected_items")
    written = [
        text
        for block in blocks
        for key in keys
        for text in ([block.get(key)] if isinstance(block.get(key), str) else block.get(key) or [])
    ]
    written += [reference for block in blocks for reference in block.get("legal_references") or []]
    written += [artifact.text for artifact in state.artifacts if "judgment" in artifact.kind]
    sentences_written = {sentence for text in written for sentence in sentences(text)}
    items = {item for text in written for item in disposition_items(text)}
    return sentences_written | items | set(written)


@pytest.mark.parametrize(
    ("case_id", "seat", "side"),
    [
        ("en-civil-commercial-lease", "plaintiff_lawyer", "plaintiff"),
        ("en-civil-commercial-lease", "defendant_lawyer", "defendant"),
        ("en-civil-traffic-accident", "defendant_lawyer", "defendant"),
        ("zh-criminal-dangerous-driving", "attorney", "defendant"),
    ],
)
def test_not_raised_never_lists_the_courts_findings_orders_or_articles(case_id, seat, side):
    state = played(case_id, person=seat, target_side=side)
    for turn in state.turns:
        if turn.seat == seat:
            turn.text = "asdf"
    result = seat_result(state, seat, scorer=RuleBasedScorer())
    missing = set(missing_points(result))
    assert missing, "the side's own points it never made are listed"
    assert not missing & court_text(state), sorted(missing & court_text(state))[:3]
    own = own_points(state)
    assert all(point_key(point) in own for point in missing), "only the side's own points"
