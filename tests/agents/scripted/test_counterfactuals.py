"""The debrief replays the appeal like the first instance (issue "The offline court as a lawyer
reads it", item 3): at second instance ``what_moved`` finds what would have moved the appeal
court for either side: the appellant's new evidence, its requests, its ground of law; the
appellee's response; each side's own requests when both sides appealed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agents.scripted.counterfactuals import what_moved
from agents.scripted.record import CivilRecord, Claim, Defence, Exhibit

CLAIMS = (
    Claim("Order the defendant to pay the renovation price of RMB 80,000", True, 80_000),
    Claim("Order the defendant to bear the litigation costs", True, None),
)
BELOW = "1. The defendant Li Na shall pay the plaintiff RMB 62,000 within ten days\n2. The plaintiff's other claims are dismissed"
FULL_PRICE = "Vary item 1 to order the appellee to pay RMB 80,000 for the leak was the appellee's own plumber's"
WORK_ORDER = Exhibit("plaintiff", "Plumber's work order", "the leak was the appellee's own plumber's", True)
RESPONSE = Defence("The leak came from the defective waterproofing the repair invoice records.", True)
INVOICE = Exhibit(
    "defendant", "Repair invoice for the defective waterproofing", "the leak came from the waterproofing", True
)
LOWER = "Vary item 1 to order the appellant to pay RMB 50,000, the work less the waterproofing repair"


def appeal(
    *,
    produced: bool = False,
    stated: bool = True,
    cited: str = "civil procedure law#67",
    response: bool = False,
    cross: bool = False,
) -> CivilRecord:
    """The plaintiff appeals an award of RMB 62,000 on its RMB 80,000 claim for renovation work."""
    record = CivilRecord(
        "en",
        "plaintiff",
        "defendant",
        (Claim(FULL_PRICE, stated, 80_000),),
        (replace(WORK_ORDER, produced=produced), INVOICE),
        (replace(RESPONSE, raised=response),),
        {"plaintiff": frozenset({cited})},
        appeal=True,
        below=BELOW,
        claims_below=CLAIMS,
        record_below=(INVOICE,),
    )
    if not cross:
        return record
    own = CivilRecord(
        "en",
        "defendant",
        "plaintiff",
        (Claim(LOWER, True, 50_000),),
        (INVOICE, replace(WORK_ORDER, produced=produced)),
        (),
        {},
        appeal=True,
        below=BELOW,
        claims_below=CLAIMS,
        record_below=(INVOICE,),
    )
    return replace(record, cross=own)


@pytest.mark.parametrize(
    ("record", "side", "kind", "made", "why"),
    [
        (appeal(), "plaintiff", "exhibit", False, "the new evidence it held back would have moved the appeal"),
        (appeal(produced=True), "plaintiff", "exhibit", True, "the new evidence produced moved it"),
        (appeal(cited="civil code#577"), "plaintiff", "claim", True, "on the law alone the request must be stated"),
        (appeal(), "plaintiff", "law", False, "a substantive article argued would have made the request out alone"),
        (appeal(cited="civil code#577"), "plaintiff", "law", True, "the article argued, unanswered, moved it"),
        (appeal(produced=True), "defendant", "defence", False, "the appellee's response left unraised"),
        (appeal(produced=True, response=True), "defendant", "defence", True, "the appellee's response raised"),
        (appeal(cross=True), "defendant", "exhibit", True, "its invoice proved its own appeal: RMB 50,000"),
    ],
)
def test_the_appeal_is_replayed_for_either_side(record, side, kind, made, why):
    outcome, found = what_moved(record, side)
    assert any(item.kind == kind and item.made is made for item in found), (why, outcome, found)
    assert all(item.outcome != outcome for item in found), "each point found changes the outcome"


def test_boilerplate_answered_by_nothing_leaves_the_appellee_nothing_that_moved_it():
    """The appellant shows nothing: the appeal fails whatever the appellee says, and the debrief
    says its response moved nothing (never credit for an outcome it did not cause)."""
    _, found = what_moved(appeal(response=True), "defendant")
    assert not [item for item in found if item.made]
