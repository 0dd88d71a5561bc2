"""What a scorecard lists as "not raised" (issue 32, item 7): reference points of the case
file that the student's side made nowhere in the trial, never the student's own filed
sentences."""

from __future__ import annotations

from scoring.items import side_record
from scoring.references import sentences
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
