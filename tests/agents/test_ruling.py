"""The offline court's rule (``agents.scripted.civil_ruling``, ``criminal_ruling``) as a table: a record as heard
in, the orders out. Each row changes one thing a lawyer would argue and names the outcome a
lawyer would expect."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agents.scripted.civil_court import civil_decision
from agents.scripted.counterfactuals import what_moved
from agents.scripted.criminal_ruling import criminal_decision
from agents.scripted.record import CivilRecord, Claim, CriminalRecord, Defence, Exhibit

MEDICAL = "Order the defendant to pay medical expenses of RMB 80,000"
DISTRESS = "Order the defendant to pay RMB 20,000 for emotional distress"
COSTS = "Order the defendant to bear the litigation costs"
RED_LIGHT = "The plaintiff crossed against the red signal, so the defendant's share should be no more than 60%."
INSURER = "RMB 10,000 already paid by the insurer must be deducted."
TOO_MUCH = "The emotional distress claim is excessive."


def traffic(
    *,
    stated: bool = True,
    plaintiff_exhibits: bool = True,
    video: bool = True,
    insurance: bool = True,
    raised: bool = True,
    distress_exhibit: bool = False,
) -> CivilRecord:
    exhibits = (
        Exhibit(
            "plaintiff", "Accident liability determination", "the defendant bears primary liability", plaintiff_exhibits
        ),
        Exhibit("plaintiff", "Medical invoices", "medical expenses of RMB 80,000", plaintiff_exhibits),
        Exhibit("defendant", "Intersection surveillance video", "the plaintiff crossed against the red signal", video),
        Exhibit("defendant", "Insurance payment record", "RMB 10,000 paid by the insurer", insurance),
        Exhibit("defendant", "Psychologist's letter", "no lasting emotional distress", distress_exhibit),
    )
    return CivilRecord(
        language="en",
        claimant="plaintiff",
        respondent="defendant",
        claims=(Claim(MEDICAL, stated, 80000.0), Claim(DISTRESS, stated, 20000.0), Claim(COSTS, stated)),
        exhibits=exhibits,
        defences=(Defence(RED_LIGHT, raised), Defence(INSURER, raised), Defence(TOO_MUCH, raised)),
    )


@pytest.mark.parametrize(
    ("record", "total", "why"),
    [
        (traffic(), (100_000 - 10_000) * 0.6, "share and deduction proved: (80,000 + 20,000 - 10,000) x 60 %"),
        (traffic(video=False), 100_000 - 10_000, "the red light asserted without the video moves nothing"),
        (traffic(insurance=False), 100_000 * 0.6, "the insurer's payment unproved is not deducted"),
        (traffic(video=False, insurance=False), 100_000, "a defence without evidence: every claim in full"),
        (traffic(raised=False), 100_000, "evidence produced for points never raised proves nothing"),
        (traffic(plaintiff_exhibits=False), None, "no evidence from the plaintiff: every claim dismissed"),
        (
            traffic(video=False, insurance=False, distress_exhibit=True),
            80_000 + 20_000 * 0.5,
            "a proved contest of one claim halves it: support 3 against rebuttal 3",
        ),
    ],
)
def test_the_civil_orders_follow_what_each_side_argued_and_proved(record, total, why):
    decision = civil_decision(record)
    assert decision.total == (pytest.approx(total) if total is not None else None), why


def test_a_claim_without_evidence_is_dismissed_for_want_of_proof_and_the_reason_says_so():
    decision = civil_decision(traffic(plaintiff_exhibits=False))
    assert all(ruling.granted == 0 for ruling in decision.rulings)
    assert all("burden of proof" in " ".join(ruling.reasons) for ruling in decision.rulings)


def test_each_ruling_names_the_points_that_decided_it():
    medical = civil_decision(traffic()).rulings[0]
    assert "Medical invoices" in " ".join(medical.reasons)
    distress = civil_decision(traffic()).rulings[1]
    assert "produced no evidence of it" in " ".join(distress.reasons), "the bare contest is answered"


def test_court_costs_are_not_a_claim_the_court_grants_or_dismisses():
    assert [ruling.claim for ruling in civil_decision(traffic()).rulings] == [MEDICAL, DISTRESS]


def test_an_appeal_on_the_law_alone_succeeds_only_when_argued_and_unanswered():
    appeal = replace(
        traffic(plaintiff_exhibits=False, raised=False),
        appeal=True,
        claims=(Claim("Vary item 1 to order payment of RMB 20,000", True, 20000.0),),
        cited={"plaintiff": frozenset({"civil code#1179"})},
    )
    assert civil_decision(appeal).rulings[0].granted == 1
    uncited = replace(appeal, cited={})
    assert civil_decision(uncited).rulings[0].granted == 0
    answered = replace(appeal, defences=(Defence("The payment of RMB 20,000 was correctly refused.", True),))
    assert civil_decision(answered).rulings[0].granted == 0


def driving(
    *, defence: str = "", prosecution: str = "We ask the court to convict.", produced: bool = True
) -> CriminalRecord:
    return CriminalRecord(
        language="en",
        charges=("dangerous driving",),
        recommendation={"imprisonment_months": 4, "probation": 6, "fine": 6000},
        indictment="The defendant drove drunk. He confessed truthfully after arrest.",
        defendant_info="No previous convictions.",
        exhibits=(
            Exhibit("prosecution", "Blood alcohol report", "152mg/100ml", produced),
            Exhibit("defendant", "Compensation receipt", "the victim was compensated", True),
            Exhibit("defendant", "Letter of forgiveness", "the victim forgives the defendant", True),
        ),
        defence_words=defence,
        prosecution_words=prosecution,
    )


PLEA = "I plead guilty."
STRONG = (
    "I plead guilty. He confessed truthfully, compensated the victim, who forgave him in writing, and it is his "
    "first offence. We ask for probation: he has a stable job and family supervision."
)


@pytest.mark.parametrize(
    ("record", "months", "probation", "why"),
    [
        (
            driving(defence=PLEA),
            4 * 0.9 / 0.75,
            6,
            "the plea alone: the circumstances the recommendation assumed are lost",
        ),
        (
            driving(defence=STRONG),
            4 * 0.55 / 0.75,
            6,
            "every circumstance argued and supported: below the recommendation",
        ),
        (driving(defence="asdf"), 4 / 0.75, None, "no remorse on the record: no probation"),
        (
            driving(defence=STRONG, prosecution="He is a recidivist."),
            4 * 0.55 / 0.75,
            6,
            "aggravation asserted without support moves nothing",
        ),
    ],
)
def test_the_sentence_moves_with_each_circumstance_raised_and_supported(record, months, probation, why):
    decision = criminal_decision(record)
    assert decision.sentence["imprisonment_months"] == max(1, round(months)), why
    assert (decision.sentence["probation"] or None) == probation, why


def test_a_prosecution_that_produced_no_evidence_loses_the_case():
    decision = criminal_decision(driving(defence=STRONG, produced=False))
    assert decision.acquitted and "no evidence" in decision.reasons[0]


def test_probation_needs_its_conditions_argued_when_the_prosecution_did_not_recommend_it():
    record = replace(driving(defence=PLEA), recommendation={"imprisonment_months": 4, "fine": 6000})
    assert not criminal_decision(record).sentence["probation"]
    asked = replace(record, defence_words=f"{PLEA} We ask for probation; his family will supervise him.")
    assert criminal_decision(asked).sentence["probation"]


def test_what_moved_names_points_made_and_points_left_on_the_table():
    outcome, found = what_moved(traffic(video=False), "defendant")
    missed = {item.point: item.outcome for item in found if not item.made}
    assert "Intersection surveillance video" in missed, "producing the video would have cut the award"
    assert missed["Intersection surveillance video"] != outcome
    made = {item.point for item in found if item.made}
    assert "Insurance payment record" in made, "the insurer's payment record did move the award"
    _, criminal = what_moved(driving(defence=PLEA), "defendant")
    assert {"restitution", "the victims' forgiveness"} & {item.point for item in criminal if not item.made}


PRICE = "Order the defendant to pay the outstanding renovation price of RMB 80,000"
INTEREST = "Order the defendant to pay overdue-payment interest on RMB 80,000 from 1 June 2024"
FEES = "Order the defendant to bear the court fees"
DEFECT = "The bathroom waterproofing was defective and leaked into the flat below."
REPAIR = "RMB 18,000 spent repairing the defective work must be deducted from the price."


def renovation(*, raised: bool = True, proved: bool = True, contract: bool = True) -> CivilRecord:
    return CivilRecord(
        language="en",
        claimant="plaintiff",
        respondent="defendant",
        claims=(Claim(PRICE, True, 80000.0), Claim(INTEREST, True), Claim(FEES, True)),
        exhibits=(
            Exhibit("plaintiff", "Renovation contract", "the price of RMB 80,000 payable on completion", contract),
            Exhibit("plaintiff", "Completion acceptance record", "the work was completed and accepted", contract),
            Exhibit("defendant", "Photographs of the leaking bathroom", "the waterproofing was defective", proved),
            Exhibit(
                "defendant", "Repair invoice of RMB 18,000", "RMB 18,000 spent repairing the defective work", proved
            ),
        ),
        defences=(Defence(DEFECT, raised), Defence(REPAIR, raised)),
    )


@pytest.mark.parametrize(
    ("record", "total", "base", "why"),
    [
        (renovation(), 62_000, 62_000, "the repair deducted from the price, and interest runs on what is owed"),
        (renovation(proved=False), 80_000, 80_000, "a defect asserted without evidence deducts nothing"),
        (renovation(raised=False), 80_000, 80_000, "an 'asdf' defence: the price and interest on it, never 160,000"),
        (renovation(contract=False), None, None, "no contract produced: neither the price nor interest on it"),
    ],
)
def test_interest_is_a_base_ordered_on_the_principal_as_granted_not_a_second_sum(record, total, base, why):
    decision = civil_decision(record)
    assert decision.total == total, why
    assert [item.base for item in decision.accruals] == ([base] if base else []), why
    assert decision.costs == (FEES,), "the court fees are answered, not granted or dismissed"


def boilerplate_appeal(*requests: str, evidence: bool = False, cited: str = "civil procedure law#67") -> CivilRecord:
    """The plaintiff appeals a judgment of RMB 62,000 on a claim of RMB 80,000."""
    below = renovation()
    return replace(
        below,
        appeal=True,
        claims=tuple(Claim(text, True, None) for text in requests),
        exhibits=(
            Exhibit("plaintiff", "Plumber's work order", "the appellee's own plumber caused the leak", evidence),
        ),
        defences=(),
        cited={"plaintiff": frozenset({cited})},
        below="1. The defendant Li Na shall pay the plaintiff RMB 62,000 within ten days\n"
        "2. The plaintiff's other claims are dismissed",
        claims_below=below.claims,
        record_below=below.exhibits,
    )


SET_ASIDE = 'Set aside the order "The plaintiff\'s other claims are dismissed" of the first-instance judgment and decide it afresh'
FULL_PRICE = "Vary item 1 to order the appellee to pay RMB 80,000 for the leak was the appellee's own plumber's"


@pytest.mark.parametrize(
    ("record", "total", "varied", "why"),
    [
        (boilerplate_appeal(SET_ASIDE), 62_000, False, "boilerplate without evidence or law: affirmed"),
        (
            boilerplate_appeal(SET_ASIDE, evidence=True),
            80_000,
            True,
            "the dismissal set aside on new evidence: the claim in full, never more",
        ),
        (boilerplate_appeal(FULL_PRICE, evidence=True), 80_000, True, "the sum asked, proved by new evidence"),
        (
            boilerplate_appeal(FULL_PRICE.replace("80,000", "100,000"), evidence=True),
            80_000,
            True,
            "nothing above what was claimed at first instance",
        ),
        (
            boilerplate_appeal(FULL_PRICE, cited="civil code#577"),
            80_000,
            True,
            "on the law alone: a substantive article argued and left unanswered",
        ),
    ],
)
def test_an_appeal_varies_the_judgment_below_only_on_a_ground_and_never_beyond_the_claim(record, total, varied, why):
    decision = civil_decision(record)
    assert (decision.total, decision.varied, decision.below) == (total, varied, 62_000), why
    assert all(ruling.reasons for ruling in decision.rulings), "every request is answered with its reasons"


def test_the_appellees_response_proved_by_the_record_below_counts_as_a_defence():
    unanswered = civil_decision(boilerplate_appeal(FULL_PRICE, evidence=True))
    response = (Defence("The leak came from the defective waterproofing the repair invoice records.", True),)
    answered = civil_decision(replace(boilerplate_appeal(FULL_PRICE, evidence=True), defences=response))
    assert 62_000 < answered.total < unanswered.total, "the appellee's proved response halves the variation"
    bare = replace(boilerplate_appeal(FULL_PRICE, cited="civil code#577"), defences=response, record_below=())
    assert not civil_decision(bare).varied, "an answered point of law alone does not move the appeal court"


def test_a_sum_off_the_claim_needs_a_paper_that_states_it():
    """The insurer's record names the RMB 10,000 it paid: deducted. A paper proving another part
    of the same point (the insurer was notified) does not prove the sum: nothing comes off."""
    named = civil_decision(traffic(video=False))
    unnamed = replace(
        traffic(video=False),
        exhibits=tuple(
            replace(item, purpose="the insurer was notified of the accident")
            if item.name.startswith("Insurance")
            else item
            for item in traffic(video=False).exhibits
        ),
    )
    assert named.deductions == (10_000,) and named.total == 90_000
    assert civil_decision(unnamed).deductions == () and civil_decision(unnamed).total == 100_000


WALK_DEFECTS = "The bathroom waterproofing and the tiling were defective and leaked within weeks of completion."
WALK_REPAIRS = "The defendant spent RMB 18,000 repairing the defective work, which must be deducted from the price."
WALK_AT_MOST = "The defendant owes at most RMB 62,000."


def renovation_typed_fresh(*, invoice: bool, at_most: bool = True) -> CivilRecord:
    """The renovation case typed fresh in the authoring page (issue #41's walk)."""
    return CivilRecord(
        language="en",
        claimant="plaintiff",
        respondent="defendant",
        claims=(Claim(PRICE, True, 80_000.0), Claim(COSTS, True)),
        exhibits=(
            Exhibit("plaintiff", "Renovation contract of 1 March 2024", "proves the contract and the price", True),
            Exhibit(
                "defendant", "Photographs of cracked tiles and leaking bathroom", "proves the work was defective", True
            ),
            Exhibit(
                "defendant", "Repair invoice of RMB 18,000", "proves the defendant spent RMB 18,000 repairing", invoice
            ),
            Exhibit(
                "defendant", "Inspection report of the bathroom waterproofing", "proves it was not to standard", True
            ),
        ),
        defences=(Defence(WALK_DEFECTS, True), Defence(WALK_REPAIRS, True), Defence(WALK_AT_MOST, at_most)),
    )


@pytest.mark.parametrize(
    ("record", "total", "why"),
    [
        (renovation_typed_fresh(invoice=True), 62_000, "the invoice proves the RMB 18,000 deducted"),
        (
            renovation_typed_fresh(invoice=False),
            62_000,
            "the defects proved, the sum not: weighed, but never more off than the respondent asks (18,000)",
        ),
        (
            renovation_typed_fresh(invoice=False, at_most=False),
            62_000,
            "the RMB 18,000 asked deducted caps what a weighed contest takes off",
        ),
    ],
)
def test_proving_a_figure_never_costs_the_side_that_proves_it(record, total, why):
    assert civil_decision(record).total == pytest.approx(total), why
