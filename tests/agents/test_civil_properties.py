"""Properties of the offline civil court over generated case files (issue 41, item 6): claims in
every shape a person types them (a list, one sentence with the costs at its end, a numbered
list; English and Chinese), a principal, interest on it, costs, a declaration, a deduction.
Whatever the shape: nothing is granted above what was claimed, every claim is answered, the
reasoning is never empty and agrees with the orders, an argued side never fares worse than an
"asdf" side, and a boilerplate appeal leaves the judgment below as it was."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.scripted.civil_court import civil_decision
from agents.scripted.claims import ACCRUAL, claim_items, claims_read
from agents.scripted.record import CivilRecord, Claim, Defence, Exhibit
from agents.scripted.wording import money
from court.legaltext.text import amounts
from tests.agents.test_offline_court import (
    OWNER,
    RENOVATION_DEFENCE,
    RENOVATION_DEFENCE_ZH,
    Student,
    judgment,
    orders_of,
    renovation,
    renovation_zh,
)


@dataclass(frozen=True)
class Typed:
    """A case file's claims as typed, and what they ask for."""

    language: str
    claims: list[str]
    principal: int
    interest: bool
    costs: bool
    declaration: bool
    deduction: int


def _english(principal: int, interest: bool, costs: bool, declaration: bool, shape: str) -> list[str]:
    sum_text = f"pay the outstanding renovation price of RMB {principal:,}"
    accrual = f"overdue-payment interest on RMB {principal:,} from 1 June 2024"
    if shape == "sentence":
        parts = [sum_text] + ([accrual] if interest else [])
        sentence = "Order the defendant to " + ", ".join(parts)
        if declaration:
            sentence = "Terminate the renovation contract and order the defendant to " + ", ".join(parts)
        return [sentence + (", and bear the court fees" if costs else "")]
    items = (
        (["Declare the renovation contract terminated"] if declaration else [])
        + [f"Order the defendant to {sum_text}"]
        + ([f"Order the defendant to pay {accrual}"] if interest else [])
        + (["Order the defendant to bear the court fees"] if costs else [])
    )
    return [" ".join(f"{index}. {item};" for index, item in enumerate(items, 1))] if shape == "numbered" else items


def _chinese(principal: int, interest: bool, costs: bool, declaration: bool, shape: str) -> list[str]:
    accrual = f"以{principal}元为基数，按一年期贷款市场报价利率支付自2024年6月1日起至实际清偿之日止的逾期付款利息"
    if shape == "sentence":
        sentence = f"判令被告支付工程款{principal}元"
        if interest:
            sentence += f"及逾期付款利息（以{principal}元为基数，自2024年6月1日起计算）"
        if declaration:
            sentence = "确认双方的装修合同已于2024年7月1日解除，" + sentence
        return [sentence + ("，并承担诉讼费" if costs else "")]
    items = (
        (["确认双方的装修合同已于2024年7月1日解除"] if declaration else [])
        + [f"判令被告支付工程款{principal}元"]
        + ([f"判令被告{accrual}"] if interest else [])
        + (["本案诉讼费由被告负担"] if costs else [])
    )
    return ["；".join(f"{index}. {item}" for index, item in enumerate(items, 1))] if shape == "numbered" else items


@st.composite
def typed(draw) -> Typed:
    language = draw(st.sampled_from(["en", "zh"]))
    principal = draw(st.integers(100, 5000)) * 100
    interest, costs, declaration = draw(st.booleans()), draw(st.booleans()), draw(st.booleans())
    shape = draw(st.sampled_from(["list", "sentence", "numbered"]))
    write = _english if language == "en" else _chinese
    deduction = draw(st.integers(10, principal // 200)) * 100
    return Typed(
        language,
        write(principal, interest, costs, declaration, shape),
        principal,
        interest,
        costs,
        declaration,
        deduction,
    )


def record_of(case: Typed, *, claimant_argued: bool, respondent_argued: bool) -> CivilRecord:
    zh = case.language == "zh"
    defect = "工程存在质量问题，卫生间漏水。" if zh else "The work was defective and the bathroom leaked."
    deduct = (
        f"因工程质量问题，被告支出维修费用{case.deduction}元，应从工程款中扣除。"
        if zh
        else f"RMB {case.deduction:,} spent repairing the defective work must be deducted from the price."
    )
    exhibits = (
        Exhibit(
            "plaintiff",
            "装修合同" if zh else "Renovation contract",
            "工程款及付款期限" if zh else "the price",
            claimant_argued,
        ),
        Exhibit("defendant", "漏水照片" if zh else "Photographs of the leak", defect, respondent_argued),
        Exhibit(
            "defendant", f"维修费用发票（{case.deduction}元）" if zh else "Repair invoice", deduct, respondent_argued
        ),
    )
    claims = tuple(Claim(item.text, claimant_argued, item.amount) for item in claims_read(case.claims))
    defences = (Defence(defect, respondent_argued), Defence(deduct, respondent_argued))
    return CivilRecord(case.language, "plaintiff", "defendant", claims, exhibits, defences)


@settings(max_examples=60, deadline=None)
@given(typed())
def test_the_claims_read_are_the_claims_typed_whatever_their_shape(case):
    items = claims_read(case.claims)
    assert [item.amount for item in items if item.amount] == [case.principal], case.claims
    assert sum(item.kind == ACCRUAL for item in items) == case.interest, case.claims
    assert all(item.base in (None, case.principal) for item in items if item.kind == ACCRUAL)
    assert sum(item.kind == "costs" for item in items) == case.costs, case.claims
    assert sum(item.kind == "declaration" for item in items) == case.declaration, case.claims


@settings(max_examples=80, deadline=None)
@given(typed(), st.booleans(), st.booleans())
def test_nothing_above_the_claim_every_claim_answered_and_arguing_never_hurts(case, plaintiff, defendant):
    decision = civil_decision(record_of(case, claimant_argued=plaintiff, respondent_argued=defendant))
    assert (decision.total or 0) <= case.principal, "nothing above what was claimed"
    assert all(item.base <= case.principal for item in decision.accruals), "interest on no more than its base"
    answered = [ruling.claim for ruling in decision.rulings] + list(decision.costs)
    assert sorted(answered) == sorted(claim_items(case.claims)), "every claim answered, once"
    assert all(ruling.reasons for ruling in decision.rulings), "each ruling gives its reasons"
    if plaintiff and defendant:
        assert decision.total == case.principal - case.deduction, "the deduction comes off the principal alone"
    asdf_defence = civil_decision(record_of(case, claimant_argued=plaintiff, respondent_argued=False))
    assert (decision.total or 0) <= (asdf_defence.total or 0), "an argued defence never pays more than asdf"
    asdf_claimant = civil_decision(record_of(case, claimant_argued=False, respondent_argued=defendant))
    assert (decision.total or 0) >= (asdf_claimant.total or 0), "an argued claimant never gets less than asdf"


@settings(max_examples=60, deadline=None)
@given(typed(), st.booleans())
def test_a_boilerplate_appeal_leaves_the_judgment_below_and_a_proved_one_stays_within_the_claim(case, proved):
    below = record_of(case, claimant_argued=True, respondent_argued=True)
    first = civil_decision(below)
    zh = case.language == "zh"
    orders = f"1. {'被告支付原告' if zh else 'The defendant shall pay the plaintiff '}{money(first.total, zh)}"
    request = (
        "撤销一审判决“驳回原告的其他诉讼请求”一项，依法改判"
        if zh
        else 'Set aside the order "The plaintiff\'s other claims are dismissed" of the first-instance judgment and decide it afresh'
    )
    appeal = replace(
        below,
        appeal=True,
        claims=(Claim(request, True),),
        exhibits=(
            Exhibit(
                "plaintiff", "维修责任说明" if zh else "Plumber's work order", "漏水原因" if zh else "the leak", proved
            ),
        ),
        defences=(),
        cited={"plaintiff": frozenset({"民事诉讼法#177" if zh else "civil procedure law#177"})},
        below=orders,
        claims_below=below.claims,
        record_below=below.exhibits,
    )
    decision = civil_decision(appeal)
    assert decision.below == first.total
    if not proved:
        assert decision.total == first.total and not decision.varied, "boilerplate moves no appeal court"
    assert first.total <= decision.total <= case.principal, "varied toward the claim, never beyond it"
    assert all(ruling.reasons for ruling in decision.rulings)


SECTIONS = {"en": ("4. Reasoning", "5. Legal basis"), "zh": ("四、本院认为", "五、法律依据")}
ANSWERED = {"en": 'As to "', "zh": "关于“"}
BASE_GRANTED = {
    "en": re.compile(r"granted: [^;\n]*?interest on (RMB [\d,]+)"),
    "zh": re.compile(r"予以支持：以(\d+元)为基数"),
}
BASE_ORDERED = {"en": "interest on {}", "zh": "以{}为基数"}
IN_ALL = {
    "en": re.compile(r"In all, the defendant shall pay (RMB [\d,]+)"),
    "zh": re.compile(r"综上，被告应支付(\d+元)"),
}
DISMISSED_IN_FULL = {"en": "dismissed in full", "zh": "驳回原告的全部诉讼请求"}


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(typed().filter(lambda case: case.principal > 18_000))
def test_a_judgment_answers_each_claim_typed_and_its_orders_say_what_its_reasoning_does(case):
    zh = case.language == "zh"
    build, defence = (renovation_zh, RENOVATION_DEFENCE_ZH) if zh else (renovation, RENOVATION_DEFENCE)
    argued = judgment(build(case.claims), student=Student(defence), **OWNER)
    empty = judgment(build(case.claims), student=Student(), **OWNER)
    begin, end = SECTIONS[case.language]
    for text in (argued, empty):
        reasoning, orders = text.split(begin, 1)[1].split(end, 1)[0].strip(), orders_of(text)
        assert reasoning.count(ANSWERED[case.language]) == len(claim_items(case.claims)), reasoning
        for base in BASE_GRANTED[case.language].findall(reasoning):
            assert BASE_ORDERED[case.language].format(base) in orders, (reasoning, orders)
        for total in IN_ALL[case.language].findall(reasoning):
            assert total in orders, (reasoning, orders)
    assert DISMISSED_IN_FULL[case.language] not in orders_of(argued) + orders_of(empty), "a proven claim is granted"
    assert max(amounts(orders_of(argued))) <= max(amounts(orders_of(empty))), "arguing never costs the defence"
