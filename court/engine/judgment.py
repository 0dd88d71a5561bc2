"""Reading the first-instance judgment a trial produced: which side lost anything by its
orders, and which orders each side lost (issue #17: in a trial with a person seated, who may
appeal follows the judgment as given, not the real case's appeal).

The judgment is the one written in the trial (the scripted judge's, a model's free text, a
student judge's), so this reads orders as courts write them, in Chinese or English: a claim
dismissed or not granted is the plaintiff's loss; an order that a party pay, return or do
anything is that party's loss; who bears the court costs counts for nobody.
"""

from __future__ import annotations

import re

from court.documents import ORDERS_ALIASES, document_sections
from court.procedures.seats import CIVIL_SIDES

SIDE_WORDS = {"原告": "plaintiff", "被告": "defendant", "plaintiff": "plaintiff", "defendant": "defendant"}

COSTS = re.compile(
    r"受理费|诉讼费|保全费|court fees?|litigation costs?|legal costs|costs of (?:the )?(?:action|proceedings|litigation|suit)"
    r"|(?:bear|borne)[^.;]{0,20}\bcosts\b|\bcosts\b[^.;]{0,20}(?:borne|bear)",
    re.IGNORECASE,
)
"""Who bears the court costs: no party's loss (nutrition costs awarded as damages are)."""
DISMISSED = re.compile(
    r"驳回|不予支持|\b(?:dismiss(?:ed|es)?|reject(?:ed|s)?|denied|refused|not (?:granted|supported|upheld))\b",
    re.IGNORECASE,
)
COUNTERCLAIM = re.compile(r"反诉|counterclaim|驳回被告|defendant'?s (?:other )?claims?", re.IGNORECASE)
GRANTED = re.compile(r"支持.{0,12}?诉讼请求|诉讼请求.{0,6}予以支持|\b(?:granted|upheld|allowed)\b", re.IGNORECASE)
OBLIGED = re.compile(
    r"支付|偿还|归还|赔偿|返还|给付|退还|交付|履行|补偿|腾退|搬离|停止|拆除|赔礼|消除|恢复|办理|协助|承担"
    r"|\b(?:shall|must|is ordered to|are ordered to|pay|repay|compensate|return|deliver|vacate|perform)\b",
    re.IGNORECASE,
)
SIDE = re.compile(r"原告|被告|\bplaintiff|\bdefendant", re.IGNORECASE)
GLOSS = re.compile(r"（[^）]*）|\([^)]*\)")
"""Parenthesised glosses (被告（反诉原告）) that would name the wrong side."""
ABBREVIATIONS = "".join(rf"(?<!\b{word}\.)" for word in ("Co", "Ltd", "Inc", "Corp", "No", "Art", "Mr", "Ms", "Dr"))
"""A full stop that ends an abbreviation (Co., Ltd., No.) ends no clause: a company's name is
no sentence's end."""
CLAUSE_BREAK = re.compile(rf"[；;。\n]|(?<=[.!?]){ABBREVIATIONS}\s+(?=[A-Z])")
ITEM_MARK = re.compile(r"^(?:[一二三四五六七八九十]+、|\d+[.、)]\s*)")


def judgment_orders(text: str) -> str:
    """The operative part of a judgment: its orders section (判决如下 / The court orders), or
    what follows the last such words in free text, or, failing both, the whole text."""
    orders = document_sections(text, "first_instance_judgment").get("orders")
    if orders:
        return orders
    lowered = text.lower()
    cut = max(
        (lowered.rfind(marker.lower()) + len(marker) for marker in ORDERS_ALIASES if marker.lower() in lowered),
        default=0,
    )
    return text[cut:]


def orders_lost(text: str) -> dict[str, list[str]]:
    """Per side, the clauses of the judgment's orders that side lost (court costs left out)."""
    lost: dict[str, list[str]] = {side: [] for side in CIVIL_SIDES}
    for clause in CLAUSE_BREAK.split(judgment_orders(text)):
        clause = ITEM_MARK.sub("", clause.strip(" \t:：,，、"))
        side = _loser(GLOSS.sub("", clause)) if clause else None
        if side is not None:
            lost[side].append(clause)
    return lost


def sides_that_lost(text: str) -> frozenset[str]:
    """The sides the judgment's orders went against in anything (costs alone do not count)."""
    return frozenset(side for side, clauses in orders_lost(text).items() if clauses)


def _loser(clause: str) -> str | None:
    """The side a clause of the orders goes against: a dismissal, the plaintiff (a
    counterclaim's, the defendant); a claim granted, the defendant; a duty (pay, return...),
    the party named first before it, its subject (被告向原告返还…)."""
    if COSTS.search(clause):
        return None
    if DISMISSED.search(clause):
        return "defendant" if COUNTERCLAIM.search(clause) else "plaintiff"
    if GRANTED.search(clause):
        return "plaintiff" if COUNTERCLAIM.search(clause) else "defendant"
    duty = OBLIGED.search(clause)
    named = SIDE.findall(clause[: duty.start()]) if duty else []
    return SIDE_WORDS[named[0].lower()] if named else None


def appeal_from_judgment(text: str, side: str, language: str) -> dict[str, object]:
    """An appeal drafted from the orders ``side`` lost: what a party that appeals without the
    real case's appeal (it was the other side's, or there was none) asks the appellate court."""
    lost = orders_lost(text)[side]
    if language == "zh":
        return {
            "appeal_requests": [f"撤销一审判决“{order}”一项，依法改判" for order in lost],
            "appeal_reasons": "一审判决上述判项认定事实不清、适用法律不当，损害了上诉人的合法权益。",
        }
    return {
        "appeal_requests": [
            f'Set aside the order "{order}" of the first-instance judgment and decide it afresh' for order in lost
        ],
        "appeal_reasons": "The first-instance judgment erred in fact and in law in the orders appealed, to the appellant's prejudice.",
    }
