"""The offline court's rule: the record as heard (``record``) in, the orders and the points
that decided each of them out. One transparent rule for both civil instances and the criminal
trial; docs/offline-court.md states it in words and ``tests/agents/test_ruling.py``
holds its table.

**Civil** (each claim, or appeal request, on its own; court costs follow the outcome):

* support = 2 per exhibit of the claimant's produced in the evidence phase and tied to the claim
  (its name or purpose shares a term with the claim; an exhibit tied to no claim proves the
  relationship the whole action rests on and supports every claim) + 1 if the claimant stated
  the claim at the hearing + 1 if the claimant cited an article;
* rebuttal = for each defence point the respondent raised against the claim (tied to it, or
  to no claim at all): 1 + 2 per exhibit of the respondent's produced and tied to the point.
  A point no exhibit proves is a bare denial: noted, and it moves nothing.
* No exhibit of the claimant's tied to it: dismissed, the burden of proof unmet (Interpretation
  of the Civil Procedure Law art. 90). An appeal request may instead rest on argument alone:
  stated and argued with an article while the appellee raised nothing against it.
* Proven rebuttal: granted in the share support / (support + rebuttal), to the nearest tenth;
  all of it from nine tenths up, dismissed under three tenths. A proven point naming a sum
  (RMB 9,800 of the expenses were unnecessary) takes that sum off the claim instead.
* A proven point naming a share of liability (no more than 60 %, 次要责任) scales every money
  claim; a proven point that a sum was already paid (已归还8万元, RMB 18,000 paid by the
  insurer) is deducted from the total first.

"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.scripted.record import CivilRecord, Claim, Defence, Exhibit, shared_terms
from agents.scripted.wording import exhibit_names, exhibit_text, money, said
from court.legaltext.text import amounts

PER_EXHIBIT, STATED, CITED, RAISED = 2, 1, 1, 1
FULL, NOTHING = 0.9, 0.3
PAID = re.compile(r"已.{0,12}(?:归还|偿还|支付|赔偿|赔付|给付|转账)|扣除|\bpaid\b|repaid|deduct", re.IGNORECASE)
PAYMENT = re.compile(r"支付|偿还|归还|赔偿|返还|给付|退还|\bpay\b|repay|compensat|refund", re.IGNORECASE)
PERCENT = re.compile(r"(\d{1,3})\s*[%％]|百分之(\d{1,3})")
RESPONSIBILITY = {"次要责任": 0.7, "同等责任": 0.5, "主要责任": 0.3, "secondary liability": 0.7, "equal liability": 0.5}
"""A defence that the claimant bears this responsibility leaves the respondent this share."""
RESPONDENT_WORDS = re.compile(r"被告|我方|被上诉人|defendant|our|appellee", re.IGNORECASE)


@dataclass(frozen=True)
class ClaimRuling:
    claim: str
    granted: float
    """The share of the claim granted: 1 in full, 0 dismissed."""
    amount: float | None
    """The sum granted (before deductions and shares of liability), for a money claim."""
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class CivilDecision:
    language: str
    rulings: tuple[ClaimRuling, ...]
    share: float
    """The respondent's share of liability for the money claims (1 unless a defence proved less)."""
    deductions: tuple[float, ...]
    total: float | None
    share_reason: str = ""
    appeal: bool = False
    """The rulings answer the appellant's appeal requests, not the plaintiff's claims."""

    @property
    def summary(self) -> str:
        """The outcome in a line that says what it answers: 诉讼请求：… / the claims: … at first
        instance, 上诉请求：… / the appeal: … at second, where the requests are the appellant's
        and "every request granted" means the judgment below was varied as asked."""
        zh = self.language == "zh"
        parts = []
        for ruling in self.rulings:
            if ruling.granted <= 0:
                parts.append(f"“{ruling.claim}”驳回" if zh else f'"{ruling.claim}" dismissed')
            elif ruling.granted < 1:
                parts.append(
                    f"“{ruling.claim}”支持{round(ruling.granted * 100)}%"
                    if zh
                    else f'"{ruling.claim}" {round(ruling.granted * 100)} % granted'
                )
        if self.total is not None:
            parts.insert(0, f"共计{money(self.total, zh)}" if zh else f"{money(self.total, zh)} in all")
        if self.appeal:
            label = said(zh, "上诉请求：", "the appeal: ")
            everything = said(
                zh, "全部予以支持，一审判决依上诉请求改判", "every request granted, the judgment below varied as asked"
            )
        else:
            label = said(zh, "诉讼请求：", "the claims: ")
            everything = said(zh, "全部予以支持", "every claim granted")
        return label + (("；" if zh else "; ").join(parts) or everything)


def civil_decision(record: CivilRecord) -> CivilDecision:
    zh = record.language == "zh"
    claims = [claim for claim in record.claims if not claim.costs]
    own = [item for item in record.exhibits if item.side == record.claimant and item.produced]
    theirs = [item for item in record.exhibits if item.side == record.respondent and item.produced]
    cited = bool(record.cited.get(record.claimant))
    contests, share, share_reason, deductions = [], 1.0, "", []
    for point in (point for point in record.defences if point.raised):
        proof = [
            item
            for item in theirs
            if _closest(exhibit_text(item), point.text, _texts(record.defences), record.language)
        ]
        kind, value = _point_kind(point.text)
        if kind == "share" and proof:
            share = min(share, value)
            share_reason = said(
                zh,
                f"对方提出“{point.text}”，并以{exhibit_names(proof, zh)}证明，本院予以采纳",
                f'the respondent argued "{point.text}" and proved it with {exhibit_names(proof, zh)}; the court accepts it',
            )
        elif kind == "paid" and proof:
            deductions.append(value)
        else:
            contests.append((point, proof))
    rulings = tuple(_claim_ruling(claim, claims, own, contests, cited, record) for claim in claims)
    payable = [ruling for ruling in rulings if ruling.amount is not None and ruling.granted > 0]
    total = None
    if payable:
        total = max(0.0, sum(ruling.amount for ruling in payable) - sum(deductions)) * share
    return CivilDecision(record.language, rulings, share, tuple(deductions), total, share_reason, record.appeal)


def _claim_ruling(
    claim: Claim, claims: list[Claim], own: list[Exhibit], contests, cited: bool, record: CivilRecord
) -> ClaimRuling:
    zh, language = record.language == "zh", record.language
    proof = [item for item in own if _ties(item, claim, claims, language)]
    reasons = []
    support = PER_EXHIBIT * len(proof) + STATED * claim.stated + CITED * cited
    if proof:
        reasons.append(
            said(
                zh,
                f"请求方以{exhibit_names(proof, zh)}证明该项主张",
                f"the claimant proved it with {exhibit_names(proof, zh)}",
            )
        )
    elif not claim.stated:
        reasons.append(said(zh, "该项请求未在庭审中主张", "the claim was not pursued at the hearing"))
    against = [(point, items) for point, items in contests if _ties_point(point, claim, claims, language)]
    rebuttal = sum(RAISED + PER_EXHIBIT * len(items) for point, items in against if items)
    for point, items in against:
        if items:
            reasons.append(
                said(
                    zh,
                    f"对方提出“{point.text}”并以{exhibit_names(items, zh)}证明",
                    f'the other side argued "{point.text}" and proved it with {exhibit_names(items, zh)}',
                )
            )
        else:
            reasons.append(
                said(
                    zh,
                    f"对方提出“{point.text}”，但未提交证据证明，本院不予采纳",
                    f'the other side argued "{point.text}" but produced no evidence of it; the court does not accept it',
                )
            )
    if not proof and not (record.appeal and claim.stated and cited and not against):
        reasons.append(said(zh, "主张方未完成举证责任，应承担不利后果", "the burden of proof was not met"))
        return ClaimRuling(claim.text, 0.0, None, tuple(reasons))
    granted, amount = 1.0, claim.amount if PAYMENT.search(claim.text) else None
    for point, items in against:
        reduction = _sum_named(point.text, claim.amount)
        if items and reduction and amount is not None:
            amount -= reduction
    if rebuttal and not any(items and _sum_named(point.text, claim.amount) for point, items in against):
        granted = round(support / (support + rebuttal), 1)
        granted = 1.0 if granted >= FULL else 0.0 if granted < NOTHING else granted
    return ClaimRuling(claim.text, granted, None if amount is None else amount * granted, tuple(reasons))


def _ties(item: Exhibit, claim: Claim, claims: list[Claim], language: str) -> bool:
    """An exhibit supports the claims it shares most terms with (at least half as many as the
    closest), or every claim when it shares none (it proves the relationship the action rests on)."""
    return _closest(exhibit_text(item), claim.text, _texts(claims), language, fallback=True)


def _ties_point(point: Defence, claim: Claim, claims: list[Claim], language: str) -> bool:
    """A defence point answers the claims it shares most terms with, or every claim."""
    return _closest(point.text, claim.text, _texts(claims), language, fallback=True)


def _closest(text: str, target: str, candidates: list[str], language: str, *, fallback: bool = False) -> bool:
    """``target`` shares terms with ``text``, at least half as many as the closest of the
    ``candidates`` does (when none shares any, ``fallback``): a lease names rent, deposit and
    termination and proves all three, while a defence about the written contract answers the
    double-wage claim, not every claim that mentions the contract."""
    best = max((shared_terms(text, candidate, language) for candidate in candidates), default=0)
    if best == 0:
        return fallback
    shared = shared_terms(text, target, language)
    return shared > 0 and 2 * shared >= best


def _texts(items) -> list[str]:
    return [item.text for item in items]


def _point_kind(text: str) -> tuple[str, float]:
    """What a defence point asks for: a ``share`` of liability, a sum already ``paid``, or a contest."""
    percent = PERCENT.search(text)
    if percent:
        value = int(percent[1] or percent[2]) / 100
        before = text[max(0, percent.start() - 16) : percent.start()]
        return "share", value if RESPONDENT_WORDS.search(before) or value >= 0.5 else 1 - value
    for words, value in RESPONSIBILITY.items():
        if words in text.lower():
            return "share", value
    if PAID.search(text) and amounts(text):
        return "paid", min(amounts(text))
    return "contest", 0.0


def _sum_named(text: str, claimed: float | None) -> float | None:
    """A sum a contest names that is part of the claim's (RMB 9,800 of RMB 86,400)."""
    found = [value for value in amounts(text) if claimed and value < claimed]
    return min(found) if found else None
