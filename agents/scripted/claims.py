"""Reading claims as a court does: a case file's claims (or an appeal's requests) split into
their items and each item told apart (docs/offline-court.md, "Civil").

A claim list comes in any shape: one sentence ("Order the defendant to pay RMB 80,000,
overdue-payment interest on RMB 80,000 from 1 June 2024 and bear the court fees"), a numbered
list, 1、…；2、…, costs folded into a sentence (…，并承担诉讼费). Each item is one of:

* ``sum``: a sum of money claimed (the principal, damages, a fixed penalty): ``amount`` is it;
* ``accrual``: interest or a penalty that runs on a ``base`` (interest on RMB 80,000,
  以80000元为基数, 按日万分之五) from a date: the base is never a sum claimed;
* ``costs``: who bears the court fees (they follow the outcome);
* ``declaration``: anything without a sum to pay (terminate the contract, 确认…).

The first-instance orders an appeal varies are read the same way (``orders_below``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from court.legaltext.text import amounts

SUM, ACCRUAL, COSTS, DECLARATION = "sum", "accrual", "costs", "declaration"

COSTS_WORDS = re.compile(
    r"诉讼费|诉讼[^，,；;。]{0,6}?费|受理费|上诉费|保全费|送达费|公告费|(?:litigation|appeal|court|legal) (?:costs|fees)"
    r"|costs of (?:the |this )?(?:action|appeal|proceedings|litigation|suit)",
    re.IGNORECASE,
)
ACCRUAL_WORDS = re.compile(
    r"利息|罚息|复利|违约金|滞纳金|资金占用|逾期付款损失|interest|penalt|liquidated damages|late[- ]payment (?:charge|fee)s?",
    re.IGNORECASE,
)
BASE = re.compile(
    r"以(?:[^，,；;。为]{0,12}?)(\d[\d,.]*\s*万?元)?[^，,；;。为]{0,12}为(?:计算)?(?:基数|本金)"
    r"|(?:on|upon) (?:the (?:unpaid |outstanding )?(?:sum|amount|price|principal|balance)s?(?: of)? )?RMB\s*(\d[\d,.]*)"
    r"|(?:on|upon) the (?:unpaid|outstanding|overdue) [a-z ]{0,30}",
    re.IGNORECASE,
)
"""The base an accrual runs on: 以80000元为基数, 以未付货款为基数, interest on RMB 80,000, on the unpaid price."""
RATE = re.compile(
    r"按(?:(?!基数)[^，,；;。]){0,30}?(?:利率(?:的?[\d.]+倍|[\d.]+\s*[%％])?|万分之[一二三四五六七八九十\d]+|千分之[一二三四五六七八九十\d]+|[\d.]+\s*[%％]|倍)(?:的[\d.]+倍)?(?:计算)?"
    r"|at (?:an? |the )?(?:annual |yearly |daily )?(?:rate of )?[\d.]+\s*%(?: (?:per|a) (?:annum|year|day))?"
    r"|at (?:\d(?:\.\d+)? times )?the (?:one-year )?(?:loan prime rate|LPR)(?: \(LPR\))?",
    re.IGNORECASE,
)
SINCE = re.compile(
    r"自\d{4}年\d{1,2}月\d{1,2}日起"
    r"|from (?:\d{1,2} [A-Z][a-z]+ \d{4}|[A-Z][a-z]+ \d{1,2},? \d{4}|\d{4}-\d{2}-\d{2})"
)
ACCRUAL_HEAD = re.compile(
    r"逾期付款利息|逾期还款利息|逾期利息|资金占用(?:费|损失)|逾期付款损失|滞纳金|违约金|罚息|复利|利息"
    r"|(?:overdue[- ](?:payment )?|late[- ]payment |default )?(?:interest|penalty|liquidated damages)",
    re.IGNORECASE,
)
DECLARE = re.compile(
    r"确认|解除|终止|撤销|继续履行|判令.{0,6}(?:交付|腾退|搬离|停止|拆除|办理)|赔礼|消除|恢复"
    r"|\b(?:declare|terminate|rescind|confirm|vacate|deliver|perform|apolog|restore|retain)",
    re.IGNORECASE,
)
ACCESSORY = re.compile(
    r"连带(?:清偿|偿还|给付|支付|赔偿)?责任|共同(?:清偿|偿还)责任|担保责任|保证责任|优先受偿|优先权"
    r"|jointly and severally|joint and several|(?:right of |in )priority|guarantee liability",
    re.IGNORECASE,
)
"""An item that secures the debt claimed above it: another's joint and several liability for
it, a guarantor's, a mortgagee's priority over the proceeds. It asks for no sum of its own."""
PAY = re.compile(
    r"支付|偿还|归还|赔偿|返还|给付|退还|补偿|分得|\bpay|repay|compensat|refund|reimburse|payment", re.IGNORECASE
)
NUMBERING = re.compile(
    r"(?:^|\s|[；;。])(?:\(?\d{1,2}[.、)）]|（\d{1,2}）|[一二三四五六七八九十]{1,2}[、.]|[①②③④⑤⑥⑦⑧⑨⑩])\s*(?=\D)"
)
STRONG_BREAK = re.compile(r"[；;\n]|。(?=.)")
WEAK_BREAK = re.compile(r"，|、|,\s*(?:and\s+)?|\s+and\s+|及|以及|并|和|，并")
STARTS_ITEM = re.compile(
    r"(?:判令|请求|要求|确认|解除|终止|支付|偿还|归还|赔偿|返还|给付|承担|负担|由被告|本案|一、二审|二审|一审|诉讼费|案件受理费"
    r"|逾期|利息|违约金|滞纳金|以\S{0,12}为基数|按照?\S{0,12}(?:利率|标准)"
    r"|(?:to |that )?(?:the (?:defendant|appellee|respondent) )?(?:shall |should )?"
    r"(?:order|pay|repay|bear|declare|terminate|rescind|confirm|return|refund|compensate|vacate|deliver)\b"
    r"|(?:overdue|late|default)[- ]|(?:the )?(?:interest|penalty|liquidated damages|litigation costs|court fees|costs)\b)",
    re.IGNORECASE,
)
"""A fragment after a comma, 、, "and" or 并 that starts a claim of its own, not a head of the
same sum ("nursing fees, lost income and nutrition costs of RMB 31,200" is one item)."""
OPEN, CLOSE = "（(“《", "）)”》"


@dataclass(frozen=True)
class ClaimItem:
    text: str
    kind: str
    amount: float | None = None
    """The sum claimed (``sum`` items only; a base is never a sum claimed)."""
    base: float | None = None
    """The sum an accrual runs on, when the item names it (None: the principal, e.g. 以未付货款为基数)."""
    head: str = ""
    """What accrues: 逾期利息, liquidated damages... On a ``sum`` item, interest or a penalty
    already computed to a sum (逾期付款利息15516.72元): it stands or falls with the principal."""
    rate: str = ""
    since: str = ""


def claim_items(claims: list[str]) -> list[str]:
    """The items of a case file's claims, in order, each once: every entry split at its
    numbering, its semicolons and the commas, 、, "and" or 并 that start a new claim."""
    items: list[str] = []
    for claim in claims:
        for piece in _numbered(claim):
            for strong in _outside_brackets(piece, STRONG_BREAK):
                items.extend(_weak_split(strong))
    cleaned = _amendments_applied(_qualifiers_joined([_tidy(item) for item in items]))
    kept = [item for index, item in enumerate(cleaned) if not _total_of(item, cleaned[:index])]
    return list(dict.fromkeys(item for item in kept if _meaningful(item)))


QUALIFIER = re.compile(r"利率|[\d.]+\s*[%％]|万分之|千分之|\brate\b", re.IGNORECASE)
AMENDMENT = re.compile(
    r"(?:诉讼请求|请求)?第([一二三四五六七八九十]|\d+)[项条]\D{0,12}?(?:变更|增加|减少|调整)(?:为|至)[：:]?\s*"
    r"(?:人民币)?(\d[\d,.]*\s*万?元)"
)
CHINESE_ORDINALS = "一二三四五六七八九十"
MONEY = re.compile(r"(?:人民币)?\d[\d,.]*\s*万?元")


def _amendments_applied(items: list[str]) -> list[str]:
    """An amendment (诉讼过程中原告将诉讼请求第三项的数额变更为1065492元) is no claim of its own:
    the sum it names replaces the sum of the item it numbers (MASER 154)."""
    kept: list[str] = []
    for item in items:
        amended = AMENDMENT.search(item)
        number = amended and amended.group(1)
        index = (int(number) if number.isdigit() else CHINESE_ORDINALS.index(number) + 1) - 1 if number else -1
        if amended and 0 <= index < len(kept) and MONEY.search(kept[index]):
            kept[index] = MONEY.sub(amended.group(2), kept[index], count=1)
        else:
            kept.append(item)
    return kept


SHARE_OF_DIVISION = re.compile(r"确认.{0,8}?(?:份额|比例|\d+\s*[%％]|[二三四五六七八九十]分之[一二三四五六七八九])")
"""A share of what the item before divides (分割…580万债权，确认享有50%的份额为290万元: MASER 458)."""


def _qualifiers_joined(items: list[str]) -> list[str]:
    """An item that only says how the accrual before it runs (支付利息；月利率0.5%，自2020年10月24日起算),
    or which share of a division before it is the claimant's, asks for nothing of its own: it
    is joined to that item."""
    joined: list[str] = []
    for item in items:
        if joined and (
            (ACCRUAL_WORDS.search(joined[-1]) and _qualifies(item))
            or ("分割" in joined[-1] and SHARE_OF_DIVISION.match(item))
        ):
            joined[-1] = f"{joined[-1]}，{item}"
        else:
            joined.append(item)
    return joined


def _qualifies(item: str) -> bool:
    return bool(QUALIFIER.search(item) or SINCE.search(item)) and not _is_claim(item)


def _without_totals(item: str) -> str:
    for total in reversed(list(TOTAL_PHRASE.finditer(item))):
        if amounts(item[: total.start()]):
            item = item[: total.start()] + item[total.end() :]
    return item


def _total_of(item: str, earlier: list[str]) -> bool:
    """``item`` only adds up the sums before it (合计45870.29元 after the principal and interest)."""
    return bool(TOTAL_ONLY.match(item)) and any(amounts(text) for text in earlier)


def _numbered(text: str) -> list[str]:
    marks = [match.end() for match in NUMBERING.finditer(text)]
    if len(marks) < 2:
        return [text]
    starts = [match.start() for match in NUMBERING.finditer(text)]
    return [
        text[mark : (starts[index + 1] if index + 1 < len(starts) else len(text))] for index, mark in enumerate(marks)
    ]


def _outside_brackets(text: str, pattern: re.Pattern[str]) -> list[str]:
    """``text`` cut at ``pattern``'s matches that lie outside brackets and quotes."""
    depth, cuts = _depths(text), []
    for match in pattern.finditer(text):
        if depth[match.start()] == 0:
            cuts.append((match.start(), match.end()))
    pieces, last = [], 0
    for start, end in cuts:
        pieces.append(text[last:start])
        last = end
    pieces.append(text[last:])
    return pieces


def _depths(text: str) -> list[int]:
    """How deep inside brackets or quotes each character of ``text`` lies."""
    depths, depth, quoted = [], 0, False
    for char in text:
        if char in CLOSE and depth:
            depth -= 1
        elif char == '"':
            quoted = not quoted
        depths.append(depth + quoted)
        if char in OPEN:
            depth += 1
    return depths


HEADS_TOTAL = re.compile(r"等(?:合计|共计|总计)\s*(?:人民币)?\s*\d[\d,.]*\s*万?元")
"""Heads listed and then added up in one sum (贷款本息、逾期罚息及提前还款违约金等合计106504.02元)."""


def _weak_split(text: str) -> list[str]:
    """Split at a weak break only where what follows starts a claim and what precedes is one;
    never inside a list of heads whose only sum is their total (MASER 98)."""
    if _heads_totalled(text):
        return [text]
    depth, pieces, last = _depths(text), [], 0
    for match in WEAK_BREAK.finditer(text):
        if depth[match.start()] or match.start() < last:
            continue
        before, after = text[last : match.start()], text[match.end() :].lstrip()
        following = _until_break(after)
        if _principal_then_accrual(before, after) or (
            len(before.strip()) > 3
            and (STARTS_ITEM.match(after) or (match[0] == "、" and amounts(before) and amounts(following)))
            and _is_claim(before)
            and not _unfinished_accrual(before)
            and not _unfinished_accrual(following)
            and not (_bare_accrual(following) and (_bare_accrual(before) or _accrual(before)))
            and _is_claim(following)
        ):
            pieces.append(before)
            last = match.end()
    pieces.append(text[last:])
    return pieces


def _principal_then_accrual(before: str, after: str) -> bool:
    """A sum and the interest that runs on it in one sentence (偿还借款本金5万元，并自2017年3月20日起按月利率2分
    给付利息; 工资14万元及自…起按…利率计算的利息): two items, the sum and the accrual on it."""
    if before[-1:].isdigit() and after[:1].isdigit():
        return False
    return (
        claim_read(before.strip()).kind == SUM
        and claim_read(before.strip()).amount is not None
        and claim_read(after.strip()).kind == ACCRUAL
        and _accrual(after)
    )


def _unfinished_accrual(text: str) -> bool:
    """A fragment that names a base but not what runs on it (判令被告以80000元为基数，按…利率支付…利息)."""
    return bool(BASE.search(text)) and not ACCRUAL_WORDS.search(text)


def _bare_accrual(text: str) -> bool:
    """Interest or a penalty named without a sum, base, rate or start: two such heads joined
    (借款利息及逾期利息，以…为基数…) share the base and rate that follow them."""
    return bool(ACCRUAL_WORDS.search(text)) and not (
        amounts(text) or BASE.search(text) or RATE.search(text) or SINCE.search(text)
    )


def _accrual(text: str) -> bool:
    """Interest or a penalty with what it runs on (…以本金为基数…的利息): a bare head after it
    (、逾期还款违约金) runs on the same."""
    return bool(ACCRUAL_WORDS.search(text)) and bool(BASE.search(text) or RATE.search(text) or SINCE.search(text))


def _until_break(text: str) -> str:
    return re.split(r"[，,；;、]|\s+and\s+", text, maxsplit=1)[0]


def _is_claim(text: str) -> bool:
    """A fragment that asks for something on its own: a sum, an accrual, costs, a declaration."""
    return bool(
        amounts(text) or ACCRUAL_WORDS.search(text) or COSTS_WORDS.search(text) or DECLARE.search(text)
    ) or bool(PAY.search(text) and len(text) > 6)


TOTAL_PHRASE = re.compile(
    r"[，,]\s*(?:以上|上述|前述)?(?:各项|款项|费用)?(?:合计|共计|总计)\s*(?:人民币)?\s*\d[\d,.]*\s*万?元"
)
"""A total inside an item (…罚息及复利1354.25元，合计2394644.21元，并自…起计算): it adds up the sums
before it."""
TOTAL_ONLY = re.compile(
    r"(?:以上|上述|前述)?(?:各项|款项|费用)?(?:合计|共计|总计)|(?:以上|上述|前述|各项)[^\d，,；;。]{0,6}?(?:合计|共计|总计)"
)
SUMMARY = re.compile(
    r"[，,]\s*(?:以上|上述|前述)?(?:各项|款项|费用)?(?:合计|共计|总计)(?:[^，,；;。]|(?<=\d),(?=\d))*$"
)
"""A tail that adds up the sums before it (…，以上合计165436.72元; 利息…、违约金…，合计…): a
total, not a claim or a sum of its own."""


DIGIT_GROUP = re.compile(r"(?<=\d) (?=\d{3}(?!\d))")
"""A thousands separator written as a space (借款本金110 000.00元): one number."""


def _tidy(item: str) -> str:
    item = DIGIT_GROUP.sub("", item).strip().strip("，,、；;。. ")
    total = SUMMARY.search(item)
    if total and amounts(item[: total.start()]):
        item = item[: total.start()]
    item = _without_totals(item)
    return item.strip().strip("，,、；;。. ").removeprefix("并").removeprefix("and ").strip()


def _meaningful(item: str) -> bool:
    return len(re.sub(r"\W", "", item)) >= 2


@lru_cache(maxsize=4096)
def claim_read(text: str) -> ClaimItem:
    """What one claim item asks for (its kind, its sum or its base, rate and start)."""
    if COSTS_WORDS.search(text) and not _money_beside_costs(text):
        return ClaimItem(text, COSTS)
    if ACCESSORY.search(text) and not amounts(_without_percent(text)):
        return ClaimItem(text, DECLARATION)
    if _heads_totalled(text):
        return ClaimItem(text, SUM, amount=max(amounts(HEADS_TOTAL.search(text)[0])))
    accrual = ACCRUAL_WORDS.search(text)
    base = BASE.search(text)
    rate, since = RATE.search(text), SINCE.search(text)
    if (accrual or _base_only(text)) and (base or rate or since):
        return ClaimItem(
            text,
            ACCRUAL,
            base=_base_sum(base),
            head=_head(text),
            rate=rate[0] if rate else "",
            since=since[0] if since else "",
        )
    found = amounts(_without_percent(text))
    if accrual and not found and not DECLARE.search(text):
        return ClaimItem(text, ACCRUAL, head=_head(text))
    if accrual and found and not DECLARE.search(text):
        return ClaimItem(text, SUM, amount=_claimed_sum(text, found), head=_head(text))
    if found and (PAY.search(text) or not DECLARE.search(text)):
        return ClaimItem(text, SUM, amount=_claimed_sum(text, found))
    if PAY.search(text) and not DECLARE.search(text):
        return ClaimItem(text, SUM)
    return ClaimItem(text, DECLARATION)


def _heads_totalled(text: str) -> bool:
    """Heads (principal, interest, penalties) listed and then added up in one sum: the sum is
    the claim, whatever accrues after it (MASER 98)."""
    total = HEADS_TOTAL.search(text)
    return total is not None and not amounts(text[: total.start()])


def _base_only(text: str) -> bool:
    """An item whose one sum is the base something runs on (；以10000元为基数，自起诉之日起…,
    the second base of the accrual before it); a base in brackets that measures a sum claimed
    (租金8048.33元（以每月租金550元为基数…）) is not one."""
    plain = re.sub(r"[（(][^（）()]*[）)]", "", text)
    base = BASE.search(plain)
    return base is not None and not amounts(plain[: base.start()] + plain[base.end() :])


def _money_beside_costs(text: str) -> bool:
    """An item naming both a sum to pay and the costs ("pay RMB 5,000 and bear the costs") that
    the splitter could not cut stays a sum; costs alone name no other sum."""
    return bool(amounts(text)) and bool(PAY.search(COSTS_WORDS.sub("", text)))


def _without_percent(text: str) -> str:
    return re.sub(r"\d[\d.]*\s*[%％]|百分之\S{1,4}", "", text)


def _claimed_sum(text: str, found: frozenset[float]) -> float:
    """The sum an item asks for: the one after 即/共计/"that is"/"in all", else the largest."""
    totals = list(
        re.finditer(
            r"(?:即|共计|合计|总计|that is|in all|in total|totalling|a total of)\s*(?:RMB\s*)?(\d[\d,.]*)", text
        )
    )
    if totals:
        total = totals[-1]
        value = amounts(text[total.start() :])
        if value:
            return min(value, key=lambda amount: abs(amount - float(total[1].replace(",", "").rstrip("."))))
    return max(found)


def _base_sum(base: re.Match[str] | None) -> float | None:
    if base is None:
        return None
    found = amounts(base[0])
    return max(found) if found else None


def _head(text: str) -> str:
    head = ACCRUAL_HEAD.search(text)
    return head[0].strip() if head else ""


def claims_read(claims: list[str]) -> list[ClaimItem]:
    """A case file's claims as items (``claim_items``), each read (``claim_read``)."""
    return [claim_read(item) for item in claim_items(claims)]


@dataclass(frozen=True)
class OrdersBelow:
    """The first-instance judgment's orders as an appeal court reads them: the sum the
    respondent was ordered to pay (None: nothing), the accruals ordered on a base, the
    orders themselves."""

    payable: float | None
    accruals: tuple[ClaimItem, ...]
    orders: tuple[str, ...]


ORDER_BREAK = re.compile(r"(?:^|\n|[；;。]\s*|\s)(?:\d{1,2}[.、)]|[一二三四五六七八九十]{1,2}、)\s*")
NET = re.compile(r"(?:即|合计|共计|that is|in all|in total)\s*(?:RMB\s*)?\d", re.IGNORECASE)
DISMISSAL = re.compile(r"驳回|dismiss", re.IGNORECASE)


def orders_below(orders: str) -> OrdersBelow:
    """Read the operative part of a first-instance judgment: what was ordered paid, on what
    base accruals run, costs and dismissals left aside."""
    clauses = [clause.strip(" ；;。.\n") for clause in ORDER_BREAK.split(orders or "") if clause.strip(" ；;。.\n")]
    payable, accruals = None, []
    for clause in clauses:
        if (COSTS_WORDS.search(clause) and not PAY.search(COSTS_WORDS.sub("", clause))) or DISMISSAL.search(clause):
            continue
        item = claim_read(clause)
        if item.kind == ACCRUAL:
            accruals.append(item)
        elif item.kind == SUM and PAY.search(clause):
            payable = (payable or 0.0) + _ordered_sum(clause)
    return OrdersBelow(payable, tuple(accruals), tuple(clauses))


def _ordered_sum(clause: str) -> float:
    """The sum a payment order orders: its net ("that is RMB 43,200", 共计…) when it states one,
    else its sums added up (rent of RMB 67,200 and liquidated damages of RMB 24,000)."""
    net = NET.search(clause)
    if net:
        return max(amounts(clause[net.start() :]) or {0.0})
    return sum(amounts(_without_percent(clause)))
