"""What moved the outcome: the offline court's rules (``civil_ruling``, ``criminal_ruling``)
replayed with each point a side could make flipped in turn (docs/offline-court.md, "What moved
the outcome"); the debrief shows what it finds."""

from __future__ import annotations

from dataclasses import dataclass, replace

from agents.scripted.civil_ruling import civil_decision
from agents.scripted.criminal_ruling import CIRCUMSTANCE_NAMES, RATES, criminal_decision
from agents.scripted.record import CIRCUMSTANCE_WORDS, PROBATION, CivilRecord, CriminalRecord, circumstances_in
from agents.scripted.wording import said


@dataclass(frozen=True)
class Counterfactual:
    kind: str
    """``exhibit`` (produced), ``claim`` (stated), ``defence`` or ``circumstance`` (raised), ``probation`` (asked)."""
    point: str
    """The point, in the case's language: the exhibit's name, the claim, the defence, the circumstance."""
    made: bool
    """True: the side made it and it moved the outcome; False: left on the table."""
    outcome: str
    """The outcome had the side done the opposite."""


def what_moved(record: CivilRecord | CriminalRecord, side: str) -> tuple[str, list[Counterfactual]]:
    """The outcome and, for each point ``side`` could make, whether making it or leaving it
    out changes the outcome: the points that moved it and those left on the table."""
    decide = civil_decision if isinstance(record, CivilRecord) else criminal_decision
    actual = decide(record).summary
    found = []
    for kind, point, made, other in _variants(record, side):
        outcome = decide(other).summary
        if outcome != actual:
            found.append(Counterfactual(kind, point, made, outcome))
    return actual, found


def _variants(record, side: str):
    for index, item in enumerate(record.exhibits):
        if item.side == side:
            exhibits = list(record.exhibits)
            exhibits[index] = replace(item, produced=not item.produced)
            yield "exhibit", item.name, item.produced, replace(record, exhibits=tuple(exhibits))
    if isinstance(record, CivilRecord):
        yield from _civil_variants(record, side)
    elif side in ("defendant", "prosecution"):
        yield from _criminal_variants(record, side)


def _civil_variants(record: CivilRecord, side: str):
    if side == record.claimant:
        for index, claim in enumerate(record.claims):
            claims = list(record.claims)
            claims[index] = replace(claim, stated=not claim.stated)
            yield "claim", claim.text, claim.stated, replace(record, claims=tuple(claims))
    else:
        for index, point in enumerate(record.defences):
            defences = list(record.defences)
            defences[index] = replace(point, raised=not point.raised)
            yield "defence", point.text, point.raised, replace(record, defences=tuple(defences))


def _criminal_variants(record: CriminalRecord, side: str):
    zh = record.language == "zh"
    words = record.defence_words if side == "defendant" else record.prosecution_words
    raised = circumstances_in(words)
    for name, (zh_name, en_name) in CIRCUMSTANCE_NAMES.items():
        if (RATES[name] < 0) != (side == "defendant"):
            continue
        phrase = zh_name if zh else en_name
        other = CIRCUMSTANCE_WORDS[name].sub("", words) if name in raised else f"{words}\n{phrase}"
        yield (
            "circumstance",
            phrase,
            name in raised,
            replace(record, **{"defence_words" if side == "defendant" else "prosecution_words": other}),
        )
    if side == "defendant" and not PROBATION.search(words):
        ask = said(
            zh,
            "请求适用缓刑，被告人有固定工作和监管条件",
            "we ask for probation; the defendant has a stable job and family supervision",
        )
        yield "probation", ask, False, replace(record, defence_words=f"{words}\n{ask}")
