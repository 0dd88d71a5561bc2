"""The offline court's civil rule: the record as heard (``record``, its claims read by
``claims``) in, the orders and the points that decided each of them out; docs/offline-court.md
("Civil") states it in words and ``tests/agents/test_ruling.py`` holds its table. This module
holds the first instance and what both instances weigh alike; ``civil_appeal`` the second,
and ``civil_decision``, which answers a record at either.

**First instance** (each claim item on its own; court costs follow the outcome):

* support = 2 per exhibit of the claimant's produced in the evidence phase and tied to the item
  (it names the item's sum, or its name or purpose shares a term with it, or it is the contract
  or note creating the debt the item claims; an exhibit tied to no item proves the
  relationship the whole action rests on and supports every item) + 1 if the claimant stated
  the item at the hearing + 1 if the claimant cited an article;
* rebuttal = for each defence point the respondent raised against the item (tied to it, or
  to no item at all): 1 + 2 per exhibit of the respondent's produced and tied to the point.
  A point no exhibit proves is a bare denial: noted, and it moves nothing.
* No exhibit of the claimant's tied to it: dismissed, the burden of proof unmet (Interpretation
  of the Civil Procedure Law art. 90). Interest, a computed penalty and the security for a debt
  (joint liability, priority) stand on the exhibits proving the principal.
* Proven rebuttal: a sum granted in the share support / (support + rebuttal), to the nearest
  tenth; all of it from nine tenths up, dismissed under three tenths; an accrual or a
  declaration all or nothing. A proven point naming a sum (RMB 9,800 of the expenses were
  unnecessary) takes that sum off the item instead.
* A proven share of liability (no more than 60 %, 次要责任) scales the sums; a proven sum paid or
  to be deducted (已归还8万元, a repair bill) comes off the principal; interest runs on the
  principal as granted, never on more than the base claimed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from agents.scripted.claims import ACCESSORY, ACCRUAL, SUM, ClaimItem
from agents.scripted.damage_heads import names_purpose, proves_head
from agents.scripted.record import CivilRecord, Claim, Defence, Exhibit, shared_terms
from agents.scripted.wording import exhibit_names, exhibit_text, money, said
from court.legaltext.text import amounts

PER_EXHIBIT, STATED, CITED, RAISED = 2, 1, 1, 1
FULL, NOTHING = 0.9, 0.3
PAID = re.compile(
    r"已.{0,12}(?:归还|偿还|支付|赔偿|赔付|给付|转账)|扣除|抵扣|抵销|\bpaid\b|repaid|deduct|set[- ]off", re.IGNORECASE
)
AT_MOST = re.compile(r"最多|至多|仅应|只应|不超过|at most|no more than|only owes?", re.IGNORECASE)
"""What the respondent says it owes at most (被告最多只应支付62000元)."""
PERCENT = re.compile(r"(\d{1,3})\s*[%％]|百分之(\d{1,3})")
RESPONSIBILITY = {"次要责任": 0.7, "同等责任": 0.5, "主要责任": 0.3, "secondary liability": 0.7, "equal liability": 0.5}
"""A defence that the claimant bears this responsibility leaves the respondent this share."""
RESPONDENT_WORDS = re.compile(r"被告|我方|被上诉人|defendant|our|appellee", re.IGNORECASE)
SHARE_WORDS = re.compile(r"责任|比例|承担|过错|share|liab|fault|responsib|\bbear", re.IGNORECASE)
"""A percentage names a share of liability only beside these words (3.45 % interest does not)."""
CONTRACT = re.compile(r"合同|协议|契约|借条|欠条|借据|欠据|\b(?:contract|agreement|lease|IOU)\b", re.IGNORECASE)
"""An exhibit that is the parties' contract or the debtor's note."""
CONTRACT_DEBT = re.compile(
    r"违约金|租金|价款|货款|购车款|借款|本金|利息|欠款|工资|劳务费|报酬|物业(?:服务)?费|[取供]暖费|水电费|水费|电费|燃气费"
    r"|\b(?:rent|price|loan|principal|interest|penalty|liquidated damages|wages|utilit(?:y|ies)|service charges?)\b",
    re.IGNORECASE,
)
"""What a contract or a note itself proves owed: the price, rent, loan, wages, the charges a
lease puts on the tenant (heating, water, power, property management), and the interest and
penalty it agrees (not damages, which need proof of the loss)."""


@dataclass(frozen=True)
class ClaimRuling:
    claim: str
    granted: float
    """The share of the claim granted: 1 in full, 0 dismissed."""
    amount: float | None
    """The sum granted (before deductions and shares of liability), for a money claim; on
    appeal, the sum payable as varied by the request."""
    reasons: tuple[str, ...]
    kind: str = SUM
    """What the claim asks for (``claims``): ``sum``, ``accrual``, ``declaration``."""
    base: float | None = None
    """An accrual granted: the sum it runs on (the principal as granted, never above the base claimed)."""


@dataclass(frozen=True)
class CivilDecision:
    language: str
    rulings: tuple[ClaimRuling, ...]
    share: float
    """The respondent's share of liability for the money claims (1 unless a defence proved less)."""
    deductions: tuple[float, ...]
    total: float | None
    """The sum payable: the sums granted, less deductions, times the share; on appeal, the sum
    the judgment orders paid once varied (or affirmed)."""
    share_reason: str = ""
    appeal: bool = False
    """The rulings answer the appellant's appeal requests, not the plaintiff's claims."""
    accruals: tuple[ClaimItem, ...] = ()
    """The interest and penalties ordered, each on the base granted (``ClaimItem.base``)."""
    costs: tuple[str, ...] = ()
    """The claims (or requests) about court costs: answered, and borne as the outcome falls."""
    below: float | None = None
    """On appeal: the sum the first-instance judgment ordered paid."""
    below_orders: tuple[str, ...] = ()
    """On appeal: the first-instance orders varied (set aside) by the requests granted."""
    kept_orders: tuple[str, ...] = ()
    """On appeal: the first-instance orders to pay that the appeal leaves standing."""
    appellants: tuple[str, ...] = ()
    """On appeal: the sides whose requests the rulings answer, the appellant first (both when
    both sides appealed)."""

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

    @property
    def granted_all(self) -> bool:
        return all(ruling.granted >= 1 for ruling in self.rulings)

    @property
    def varied(self) -> bool:
        """On appeal: some request was granted, so the judgment below is varied."""
        return any(ruling.granted > 0 for ruling in self.rulings)


def first_instance_decision(record: CivilRecord) -> CivilDecision:
    zh = record.language == "zh"
    claims = [claim for claim in record.claims if not claim.costs]
    own = _produced(record, record.claimant)
    cited = bool(record.cited.get(record.claimant))
    contests, share, share_reason, deductions = _defences(record)
    rulings = [_claim_ruling(claim, claims, own, contests, cited, record) for claim in claims]
    sums = [ruling for ruling in rulings if ruling.kind == SUM and ruling.amount is not None and ruling.granted > 0]
    total = None
    if sums:
        gross = sum(ruling.amount for ruling in sums)
        total = max(0.0, gross - sum(deductions)) * share
    rulings, accruals = _accruals(rulings, claims, sums, total, zh)
    return CivilDecision(
        record.language,
        tuple(rulings),
        share,
        tuple(deductions),
        total,
        share_reason,
        accruals=accruals,
        costs=tuple(claim.text for claim in record.claims if claim.costs),
    )


def _produced(record: CivilRecord, side: str) -> list[Exhibit]:
    return [item for item in record.exhibits if item.side == side and item.produced]


def _defences(record: CivilRecord) -> tuple[list, float, str, list[float]]:
    """The respondent's points raised, sorted: a proved share of liability, proved sums paid or
    to be deducted (off the principal, the claim they answer), and the contests of single
    claims. A contest proved by the exhibit that proves a deduction is that deduction's
    ground (defective work, and the repair bill deducted for it): the sum measures it."""
    zh = record.language == "zh"
    theirs = _produced(record, record.respondent)
    points, share, share_reason, deductions, measuring = [], 1.0, "", [], {}
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
        elif kind == "paid" and _naming(proof, value):
            deductions.append(value)
            measuring.update((item.name, point.text) for item in proof)
        elif kind == "paid":
            points.append((point, []))  # a payment no paper states is a bare assertion
        else:
            points.append((point, proof))
    contests = [(point, proof, bool(proof) and _measured(point, proof, measuring, record)) for point, proof in points]
    return contests, share, share_reason, deductions


def _measured(point: Defence, proof: list[Exhibit], measuring: dict[str, str], record: CivilRecord) -> bool:
    """A contest about what a proved deduction is for (it shares its exhibits or its terms)."""
    return any(item.name in measuring for item in proof) or any(
        shared_terms(point.text, deduction, record.language) for deduction in set(measuring.values())
    )


def _claim_ruling(
    claim: Claim, claims: list[Claim], own: list[Exhibit], contests, cited: bool, record: CivilRecord
) -> ClaimRuling:
    zh, language, kind = record.language == "zh", record.language, claim.kind
    proof = [item for item in own if _ties(item, claim, claims, language)]
    if not proof and (kind == ACCRUAL or (kind == SUM and claim.reading.head) or ACCESSORY.search(claim.text)):
        proof = _principal_proof(claims, own, language)
    elif not proof and kind == SUM:
        proof = _accessory_proof(claims, own, language)
    support = PER_EXHIBIT * len(proof) + STATED * claim.stated + CITED * cited
    against = [contest for contest in contests if _ties_point(contest[0], claim, claims, language)]
    reasons = _support_reasons(claim, proof, zh) + _contest_reasons(against, zh)
    if not proof and not (record.appeal and claim.stated and cited and not against):
        reasons.append(said(zh, "主张方未完成举证责任，应承担不利后果", "the burden of proof was not met"))
        return ClaimRuling(claim.text, 0.0, None, tuple(reasons), kind)
    amount = claim.amount if kind == SUM else None
    for point, items, _ in against:
        reduction = _proved_sum(point.text, items, claim.amount)
        if reduction and amount is not None:
            amount -= reduction
    rebuttal = sum(RAISED + PER_EXHIBIT * len(items) for point, items, measured in against if items and not measured)
    granted = 1.0
    if rebuttal and not any(_proved_sum(point.text, items, claim.amount) for point, items, _ in against):
        granted = _share_granted(support, rebuttal)
    if kind != SUM or amount is None:
        granted = 1.0 if granted >= 0.5 else 0.0
    elif granted < 1 and (asked := _asked_off(record, claim, claims)):
        granted = max(granted, round((amount - asked) / amount, 4))
    return ClaimRuling(claim.text, granted, None if amount is None else amount * granted, tuple(reasons), kind)


def _asked_off(record: CivilRecord, claim: Claim, claims: list[Claim]) -> float | None:
    """The most the respondent's own points ask taken off the item: a sum to deduct (RMB 18,000
    spent on repairs) or the gap to what it says it owes at most (RMB 62,000 of 80,000). A court
    weighing a proved contest never takes off more than the respondent asks, so proving the
    figure (the repair invoice) never costs the respondent more than leaving it unproved."""
    asked = []
    for point in (point for point in record.defences if point.raised):
        if not claim.amount or not _ties_point(point, claim, claims, record.language):
            continue
        kind, value = _point_kind(point.text)
        if kind == "paid" and 0 < value < claim.amount:
            asked.append(value)
        elif kind == "contest" and AT_MOST.search(point.text):
            asked.extend(claim.amount - owed for owed in amounts(point.text) if 0 < owed < claim.amount)
    return max(asked, default=None)


def _principal_proof(claims: list[Claim], own: list[Exhibit], language: str) -> list[Exhibit]:
    """The exhibits proving the principal: interest or a penalty, computed to a sum or running on
    a base, is proved by the debt it accrues on (the delivery notes prove the price and its
    overdue interest)."""
    principals = [claim for claim in claims if claim.kind == SUM and not claim.reading.head]
    return [item for item in own if any(_ties(item, claim, claims, language) for claim in principals)]


def _accessory_proof(claims: list[Claim], own: list[Exhibit], language: str) -> list[Exhibit]:
    """The exhibits proving the interest or penalty on a debt prove the debt it accrues on (the
    loan contract the court reads the overdue interest from proves the loan)."""
    accessories = [claim for claim in claims if claim.kind == ACCRUAL or (claim.kind == SUM and claim.reading.head)]
    return [item for item in own if any(_ties(item, claim, claims, language, contract=False) for claim in accessories)]


def _share_granted(support: int, rebuttal: int) -> float:
    granted = round(support / (support + rebuttal), 1)
    return 1.0 if granted >= FULL else 0.0 if granted < NOTHING else granted


def _support_reasons(claim: Claim, proof: list[Exhibit], zh: bool, *, appeal: bool = False) -> list[str]:
    if proof:
        who = said(zh, "上诉人" if appeal else "请求方", "the appellant" if appeal else "the claimant")
        return [
            said(
                zh, f"{who}以{exhibit_names(proof, zh)}证明该项主张", f"{who} proved it with {exhibit_names(proof, zh)}"
            )
        ]
    if not claim.stated:
        return [said(zh, "该项请求未在庭审中主张", "the claim was not pursued at the hearing")]
    return []


def _contest_reasons(against, zh: bool) -> list[str]:
    reasons = []
    for point, items, measured in against:
        if items and measured:
            reasons.append(
                said(
                    zh,
                    f"对方提出“{point.text}”并以{exhibit_names(items, zh)}证明，以应扣除的数额计",
                    f'the other side argued "{point.text}" and proved it with {exhibit_names(items, zh)}; '
                    "the sum deducted for it measures it",
                )
            )
        elif items:
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
    return reasons


def _accruals(
    rulings: list[ClaimRuling], claims: list[Claim], sums: list[ClaimRuling], total: float | None, zh: bool
) -> tuple[list[ClaimRuling], tuple[ClaimItem, ...]]:
    """Interest and penalties run on the principal as granted (after deductions and the share
    of liability), never on more than the base claimed; with no principal owed, none runs."""
    ordered, decided = [], []
    for ruling, claim in zip(rulings, claims, strict=True):
        if ruling.kind != ACCRUAL or ruling.granted <= 0:
            decided.append(ruling)
            continue
        reading = claim.reading
        base = _principal_for(reading.base, sums, total)
        if not base:
            reason = said(zh, "本金未获支持，利息无从计算", "no principal is owed for it to run on")
            decided.append(replace(ruling, granted=0.0, reasons=(*ruling.reasons, reason)))
            continue
        decided.append(replace(ruling, base=base))
        ordered.append(replace(reading, base=base))
    return decided, tuple(ordered)


def _principal_for(claimed_base: float | None, sums: list[ClaimRuling], total: float | None) -> float | None:
    """The principal granted that an accrual claimed on ``claimed_base`` runs on: the whole sum
    payable, or (several sums claimed) the one it names, with its part of the deductions."""
    if not total:
        return None
    gross = sum(ruling.amount or 0 for ruling in sums)
    named = [ruling for ruling in sums if claimed_base and ruling.amount and abs(ruling.amount - claimed_base) < 1]
    principal = total if not named or len(sums) == 1 else total * named[0].amount / gross
    return round(min(principal, claimed_base) if claimed_base else principal, 2)


def _ties(item: Exhibit, claim: Claim, claims: list[Claim], language: str, *, contract: bool = True) -> bool:
    """An exhibit supports the sum it names (a note for RMB 28,900 proves the RMB 28,900
    claimed), a debt the contract it is creates (the loan agreement proves the loan, its agreed
    interest and penalty; the lease the rent), the claims it shares most terms with (at least
    half as many as the closest), or every claim when it shares none (it proves the
    relationship the action rests on). ``contract=False``: by the sum or the terms alone (an
    agreed penalty proved by the contract says nothing of a loss claimed beside it)."""
    if claim.amount and claim.amount in amounts(exhibit_text(item)):
        return True
    if contract and CONTRACT.search(item.name) and CONTRACT_DEBT.search(claim.text):
        return True
    if proves_head(exhibit_text(item), claim.text) or (language == "zh" and names_purpose(item.name, claim.text)):
        return True
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
    if percent and SHARE_WORDS.search(text):
        value = int(percent[1] or percent[2]) / 100
        before = text[max(0, percent.start() - 16) : percent.start()]
        return "share", value if RESPONDENT_WORDS.search(before) or value >= 0.5 else 1 - value
    for words, value in RESPONSIBILITY.items():
        if words in text.lower():
            return "share", value
    if PAID.search(text) and amounts(text):
        return "paid", min(amounts(text))
    return "contest", 0.0


def _naming(proof: list[Exhibit], value: float) -> list[Exhibit]:
    """The exhibits of ``proof`` that name ``value``: a sum is proved by a paper that states it
    (the insurer's record of RMB 18,000), not by one that proves another part of the point."""
    return [item for item in proof if value in amounts(exhibit_text(item))]


def _proved_sum(text: str, proof: list[Exhibit], claimed: float | None) -> float | None:
    """A sum a contest names that is part of the claim's, when an exhibit of its proof names it."""
    named = _sum_named(text, claimed)
    return named if named and _naming(proof, named) else None


def _sum_named(text: str, claimed: float | None) -> float | None:
    """A sum a contest names that is part of the claim's (RMB 9,800 of RMB 86,400)."""
    found = [value for value in amounts(text) if claimed and value < claimed]
    return min(found) if found else None
