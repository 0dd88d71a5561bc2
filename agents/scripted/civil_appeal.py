"""The offline court's civil rule at second instance (``civil_ruling`` holds the first, and
what both weigh alike); ``civil_decision`` answers a record as heard at either instance.
docs/offline-court.md ("Civil") states it in words and ``tests/agents/test_ruling.py`` holds
its table.

**Second instance**: the first-instance orders (``claims.orders_below``) stand unless a request
is made out by new evidence, or on the law alone (a substantive article, argued, unanswered);
a request granted in a share moves the sum payable that share of the way to the sum asked,
never beyond the claim below; the appellee's response is weighed as a defence is. When both
sides appealed, each side's requests are answered so, and the sum moves by both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from agents.scripted.civil_ruling import (
    CITED,
    PER_EXHIBIT,
    RAISED,
    STATED,
    CivilDecision,
    ClaimRuling,
    _closest,
    _contest_reasons,
    _produced,
    _share_granted,
    _support_reasons,
    _texts,
    _ties,
    _ties_point,
)
from agents.scripted.claims import ACCRUAL, DISMISSAL, RATE, SUM, ClaimItem, OrdersBelow, orders_below
from agents.scripted.record import CivilRecord, Claim, Defence, Exhibit, shared_terms
from agents.scripted.wording import exhibit_text, said
from court.legaltext.text import amounts

PAYMENT = re.compile(r"支付|偿还|归还|赔偿|返还|给付|退还|\bpay\b|repay|compensat|refund", re.IGNORECASE)
PROCEDURAL = re.compile(r"诉讼法|procedure", re.IGNORECASE)
"""A procedural article (the burden of proof, the appeal's scope) is no ground of appeal."""
NEGATE = re.compile(
    r"无需|不应|不予|不承担|免除|驳回.{0,12}诉讼请求|need not|not (?:liable|owe|pay)|no liability|dismiss the (?:plaintiff'?s |appellee'?s )?claims",
    re.IGNORECASE,
)
QUOTED = re.compile(r"[“\"]([^”\"]+)[”\"]")


def appeal_decision(record: CivilRecord) -> CivilDecision:
    """Second instance: the first-instance orders stand unless an appellant shows them wrong.
    A request is made out by new evidence tied to it, or on the law alone (a substantive
    article cited, argued, and left unanswered by the appellee); boilerplate moves nothing.
    A money request granted moves the sum payable toward the sum asked (all of the way when
    granted in full), never beyond what was claimed at first instance nor below nothing. When
    both sides appealed (``record.cross``), each side's requests are answered the same way and
    the sum payable moves by both."""
    below = orders_below(record.below)
    baseline = below.payable or 0.0
    ceiling = sum(claim.amount or 0 for claim in record.claims_below if claim.kind == SUM) or None
    answered = [_answered(heard, below, ceiling) for heard in (record, record.cross) if heard is not None]
    rulings = [ruling for part in answered for ruling in part.rulings]
    appellants = tuple(heard.claimant for heard in (record, record.cross) if heard is not None)
    payable = baseline + sum(part.payable - baseline for part in answered)
    payable = max(0.0, min(payable, ceiling) if ceiling and "plaintiff" in appellants else payable)
    rulings = [
        replace(ruling, amount=round(payable, 2)) if ruling.granted > 0 and ruling.amount is not None else ruling
        for ruling in rulings
    ]
    accruals = next((part.accruals for part in answered if part.accruals != below.accruals), below.accruals)
    set_aside = tuple(dict.fromkeys(order for part in answered for order in part.set_aside))
    return CivilDecision(
        record.language,
        tuple(rulings),
        1.0,
        (),
        round(payable, 2) if payable or below.payable is not None else None,
        appeal=True,
        accruals=tuple(item for item in (_rebased(item, baseline, payable) for item in accruals) if item.base),
        costs=tuple(
            dict.fromkeys(
                claim.text for heard in (record, record.cross) if heard for claim in heard.claims if claim.costs
            )
        ),
        below=below.payable,
        below_orders=set_aside,
        kept_orders=tuple(order for order in below.orders if _pays(order) and order not in set_aside),
        appellants=appellants,
    )


@dataclass(frozen=True)
class _Answered:
    """One appellant's requests answered: the rulings, the sum payable they alone would leave,
    the accruals as they would vary them, the orders below they set aside."""

    rulings: tuple[ClaimRuling, ...]
    payable: float
    accruals: tuple[ClaimItem, ...]
    set_aside: tuple[str, ...]


def _answered(record: CivilRecord, below: OrdersBelow, ceiling: float | None) -> _Answered:
    """One appellant's requests (``record.claims``) against the orders below."""
    baseline = below.payable or 0.0
    requests = [claim for claim in record.claims if not claim.costs]
    own = _produced(record, record.claimant)
    cited = any(not PROCEDURAL.search(key) for key in record.cited.get(record.claimant, frozenset()))
    contests = [(point, _proof_of(point, record), False) for point in record.defences if point.raised]
    rulings, payable, accruals, set_aside = [], baseline, below.accruals, []
    for request in requests:
        target = _target(request, record, below, ceiling)
        ruling = _request_ruling(request, requests, own, contests, cited, target, record)
        if ruling.granted > 0 and target is not None:
            payable += ruling.granted * (target - baseline)
            set_aside.extend(order for order in below.orders if _pays(order) or _quoted(request.text, order))
        elif ruling.granted > 0 and request.kind == ACCRUAL:
            accruals = tuple(replace(item, rate=_rate(request.text) or item.rate) for item in accruals)
            set_aside.extend(item.text for item in below.accruals)
        elif ruling.granted > 0:
            set_aside.extend(order for order in below.orders if _quoted(request.text, order))
        rulings.append(ruling)
    return _Answered(tuple(rulings), payable, tuple(accruals), tuple(set_aside))


def _proof_of(point: Defence, record: CivilRecord) -> list[Exhibit]:
    """What proves a point of the appellee's response: its new evidence, or the evidence below
    the judgment under appeal rests on (the appellee may stand on the record below)."""
    below = [item for item in record.record_below if item.side == record.respondent]
    return [
        item
        for item in _produced(record, record.respondent) + below
        if _closest(exhibit_text(item), point.text, _texts(record.defences), record.language)
    ]


def _request_ruling(
    request: Claim,
    requests: list[Claim],
    own: list[Exhibit],
    contests: list[tuple[Defence, list[Exhibit], bool]],
    cited: bool,
    target: float | None,
    record: CivilRecord,
) -> ClaimRuling:
    """One appeal request: made out by new evidence or on the law alone, scaled by the
    appellee's proved response as a claim is by a defence."""
    zh, language = record.language == "zh", record.language
    proof = [item for item in own if _ties(item, request, requests, language)]
    against = [contest for contest in contests if _ties_point(contest[0], request, requests, language)]
    reasons = _support_reasons(request, proof, zh, appeal=True) + _contest_reasons(against, zh)
    if not proof and not (request.stated and cited and not against):
        reasons.append(
            said(
                zh,
                "上诉人未提交新的证据，也未提出对方未予反驳的法律理由，一审判决该部分并无不当",
                "the appellant produced no new evidence and gave no ground of law left unanswered; "
                "the judgment below stands on it",
            )
        )
        return ClaimRuling(request.text, 0.0, None, tuple(reasons), request.kind)
    if not proof:
        reasons.append(
            said(zh, "上诉人引用的法律依据成立，对方未予反驳", "the law the appellant cited stands unanswered")
        )
    support = PER_EXHIBIT * len(proof) + STATED * request.stated + CITED * cited
    rebuttal = sum(RAISED + PER_EXHIBIT * len(items) for _, items, _ in against if items)
    granted = _share_granted(support, rebuttal) if rebuttal else 1.0
    if target is None:
        granted = 1.0 if granted >= 0.5 else 0.0
    amount = target if target is not None and granted > 0 else None
    return ClaimRuling(request.text, granted, amount, tuple(reasons), request.kind)


def _target(request: Claim, record: CivilRecord, below: OrdersBelow, ceiling: float | None) -> float | None:
    """The sum payable the request asks for: the sum it names; nothing, or the judgment below
    less the claim it contests, when it asks that a sum not be paid; the claims in full when
    the plaintiff asks that their dismissal be set aside; None for a request without a sum."""
    baseline = below.payable or 0.0
    asked = request.amount if request.amount is not None else request.reading.amount
    if request.kind == SUM and asked is not None:
        return asked
    if NEGATE.search(QUOTED.sub("", request.text)):
        contested = [
            claim.amount
            for claim in record.claims_below
            if claim.amount and shared_terms(claim.text, request.text, record.language) >= 2
        ]
        return max(0.0, baseline - sum(contested)) if contested else 0.0
    for order in QUOTED.findall(request.text):
        if DISMISSAL.search(order) and record.claimant == "plaintiff":
            return ceiling
        if _pays(order) and record.claimant != "plaintiff":
            return max(0.0, baseline - (orders_below(order).payable or 0.0))
    return None


def _pays(order: str) -> bool:
    return bool(PAYMENT.search(order)) and not DISMISSAL.search(order) and bool(amounts(order))


def _quoted(request: str, order: str) -> bool:
    return any(quote.strip() in order or order in quote for quote in QUOTED.findall(request))


def _rate(text: str) -> str:
    found = RATE.search(text)
    return found[0] if found else ""


def _rebased(item: ClaimItem, baseline: float, payable: float) -> ClaimItem:
    """An accrual below that ran on the sum payable runs on the sum as varied."""
    if item.base is None or abs(item.base - baseline) < 1:
        return replace(item, base=round(payable, 2))
    return replace(item, base=min(item.base, payable))
