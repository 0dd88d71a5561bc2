"""What moved the outcome (``agents.scripted.counterfactuals``): a point that needs two steps,
an exhibit and the circumstance or defence it supports, is left on the table as a pair with the
outcome the two together give; the pairs replayed are bounded."""

from __future__ import annotations

import pytest

from agents.scripted import counterfactuals
from agents.scripted.counterfactuals import MAX_PAIRS, what_moved
from agents.scripted.criminal_ruling import criminal_decision
from agents.scripted.record import CivilRecord, Claim, CriminalRecord, Defence, Exhibit

PLEAS = {"en": "The defendant pleads guilty and accepts the recommendation.", "zh": "被告人认罪认罚。"}
LETTERS = {"en": ("Letters of forgiveness", "the victims forgive the defendant"), "zh": ("谅解书", "被害人出具谅解书")}
FORGIVENESS = {"en": "the victims' forgiveness", "zh": "取得被害人谅解"}


def fraud(language: str, *, letters: bool = False, words: str = "") -> CriminalRecord:
    name, purpose = LETTERS[language]
    return CriminalRecord(
        language=language,
        charges=("诈骗罪",) if language == "zh" else ("fraud",),
        recommendation={"imprisonment_months": 36, "probation": False, "fine": 20000},
        indictment="被告人骗取他人财物。" if language == "zh" else "The defendant obtained money by deception.",
        defendant_info="",
        exhibits=(
            Exhibit("prosecution", "Bank records", "the transfers", True),
            Exhibit("defendant", name, purpose, letters),
        ),
        defence_words=f"{PLEAS[language]}\n{words}",
        prosecution_words="",
    )


@pytest.mark.parametrize("language", ["en", "zh"])
def test_letters_of_forgiveness_and_the_plea_of_forgiveness_left_out_together_are_left_on_the_table(language):
    record = fraud(language)
    alone = {
        criminal_decision(fraud(language, letters=True)).summary,
        criminal_decision(fraud(language, words=FORGIVENESS[language])).summary,
    }
    actual = criminal_decision(record).summary
    assert alone == {actual}, "neither step alone moves the sentence"
    both = criminal_decision(fraud(language, letters=True, words=FORGIVENESS[language])).summary
    assert both != actual

    outcome, found = what_moved(record, "defendant")
    pairs = [item for item in found if item.also]
    assert outcome == actual
    assert [(item.kind, item.point, item.also_kind, item.also, item.made) for item in pairs] == [
        ("exhibit", LETTERS[language][0], "circumstance", FORGIVENESS[language], False)
    ]
    assert pairs[0].outcome == both, "the outcome the two steps give together"


def test_a_pair_is_not_reported_when_one_step_alone_already_moves_the_outcome():
    record = fraud("en", letters=True)
    _, found = what_moved(record, "defendant")
    assert [item.point for item in found if not item.made and item.kind == "circumstance"] == [FORGIVENESS["en"]]
    assert not [item for item in found if item.also]


def test_a_defence_needs_its_exhibit_and_the_pair_is_found_in_a_civil_case():
    video = Exhibit(
        "defendant", "Intersection surveillance video", "the plaintiff crossed against the red signal", False
    )
    record = CivilRecord(
        language="en",
        claimant="plaintiff",
        respondent="defendant",
        claims=(Claim("Order the defendant to pay medical expenses of RMB 80,000", True, 80000.0),),
        exhibits=(Exhibit("plaintiff", "Medical invoices", "medical expenses of RMB 80,000", True), video),
        defences=(Defence("The plaintiff crossed against the red signal; our share is 60%.", False),),
    )
    actual, found = what_moved(record, "defendant")
    pairs = [item for item in found if item.also]
    assert [(item.point, item.also_kind) for item in pairs] == [("Intersection surveillance video", "defence")]
    assert pairs[0].outcome != actual


def test_the_pairs_replayed_are_bounded_however_many_steps_were_missed(monkeypatch):
    exhibits = tuple(Exhibit("defendant", f"Receipt {n} of the repair", "the repair work", False) for n in range(30))
    record = CivilRecord(
        language="en",
        claimant="plaintiff",
        respondent="defendant",
        claims=(Claim("Order the defendant to pay RMB 80,000 for the repair work", True, 80000.0),),
        exhibits=(Exhibit("plaintiff", "Repair contract", "the repair work of RMB 80,000", True), *exhibits),
        defences=tuple(Defence(f"The repair work was defective in room {n}.", False) for n in range(30)),
    )
    calls = []
    decide = counterfactuals.civil_decision
    monkeypatch.setattr(counterfactuals, "civil_decision", lambda each: calls.append(1) or decide(each))
    what_moved(record, "defendant")
    singles = 1 + len(exhibits) + len(record.defences)
    assert len(calls) <= singles + MAX_PAIRS, "900 possible pairs, at most MAX_PAIRS replayed"
