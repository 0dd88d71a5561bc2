"""What moved the outcome: the offline court's rules (``civil_ruling``, ``criminal_ruling``)
replayed with each point a side could make flipped in turn (docs/offline-court.md, "What moved
the outcome"); the debrief shows what it finds.

Some points move the outcome only together: the court counts a sentencing circumstance only
when it is raised *and* an exhibit produced supports it (the victims' letters of forgiveness
and the plea of forgiveness), and a defence only with the evidence that proves it. So besides
each point alone, every pair of one exhibit the side left out and one point it did not make
that the exhibit supports is replayed (``_pairs``), at most ``MAX_PAIRS`` of them, and only
when neither step alone already changes the outcome.

The appeal is replayed as the first instance is, on its own record: the appellant's requests
stated, its new evidence produced, and its ground of law (a substantive article argued, which
alone makes out a request the appellee leaves unanswered); the appellee's response raised;
and, when both sides appealed, each side's own requests beside its answer to the other's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from agents.scripted.civil_appeal import PROCEDURAL
from agents.scripted.civil_court import civil_decision
from agents.scripted.criminal_ruling import CIRCUMSTANCE_NAMES, RATES, criminal_decision
from agents.scripted.record import (
    CIRCUMSTANCE_WORDS,
    PROBATION,
    CivilRecord,
    CriminalRecord,
    Exhibit,
    circumstances_in,
    shared_terms,
)
from agents.scripted.wording import exhibit_text, said

Record = CivilRecord | CriminalRecord
MAX_PAIRS = 40
"""The most pairs of missing steps replayed for one side (``tests/agents/test_counterfactuals.py``
counts the replays): a case file lists a handful of exhibits and points, and the whole
debrief of the demo fraud case, pairs included, replays in about 60 ms."""
SUBSTANTIVE = "substantive law"
"""A substantive article argued, as a replay adds it to a side's citations (any key the
procedural pattern does not match counts)."""


@dataclass(frozen=True)
class Counterfactual:
    kind: str
    """``exhibit`` (produced), ``claim`` (stated: a claim, or an appeal request), ``defence`` or
    ``circumstance`` (raised), ``probation`` (asked), ``law`` (an appellant's substantive article argued)."""
    point: str
    """The point, in the case's language: the exhibit's name, the claim, the defence, the circumstance."""
    made: bool
    """True: the side made it and it moved the outcome; False: left on the table."""
    outcome: str
    """The outcome had the side done the opposite (for a pair, had it made both)."""
    also_kind: str = ""
    also: str = ""
    """For a pair of steps that move the outcome only together: the second step's kind and
    point (the exhibit is the first); empty for a single step."""


@dataclass(frozen=True)
class Variant:
    """One point a side could make, and the record with it flipped."""

    kind: str
    point: str
    made: bool
    flip: Callable[[Record], Record]
    supports: str = ""
    """What an exhibit's name and purpose say, which the points it supports share."""
    circumstance: str = ""
    """A sentencing circumstance's name (``RATES``), which an exhibit supports when it names it."""


def what_moved(record: Record, side: str) -> tuple[str, list[Counterfactual]]:
    """The outcome and, for each point ``side`` could make, whether making it or leaving it
    out changes the outcome: the points that moved it and those left on the table, then the
    pairs of missing steps (an exhibit and a point it supports) that move it only together."""
    decide = _decider(record)
    actual = decide(record).summary
    found, still = [], []
    for variant in _variants(record, side):
        outcome = decide(variant.flip(record)).summary
        if outcome != actual:
            found.append(Counterfactual(variant.kind, variant.point, variant.made, outcome))
        elif not variant.made:
            still.append(variant)
    for exhibit, point in _pairs(record, still):
        outcome = decide(point.flip(exhibit.flip(record))).summary
        if outcome != actual:
            found.append(Counterfactual(exhibit.kind, exhibit.point, False, outcome, point.kind, point.point))
    return actual, found


def _decider(record: Record) -> Callable:
    return civil_decision if isinstance(record, CivilRecord) else criminal_decision


def _pairs(record: Record, missing: list[Variant]) -> list[tuple[Variant, Variant]]:
    """Each exhibit left out, with each point not made that it supports (a circumstance its
    name or purpose shows, a claim or defence sharing its terms), at most ``MAX_PAIRS``."""
    exhibits = [variant for variant in missing if variant.kind == "exhibit"]
    points = [variant for variant in missing if variant.kind in ("circumstance", "claim", "defence")]
    pairs = [(exhibit, point) for exhibit in exhibits for point in points if _supports(record, exhibit, point)]
    return pairs[:MAX_PAIRS]


def _supports(record: Record, exhibit: Variant, point: Variant) -> bool:
    if point.kind == "circumstance":
        return point.circumstance in circumstances_in(exhibit.supports)
    return shared_terms(exhibit.supports, point.point, record.language) > 0


def _variants(record: Record, side: str) -> Iterator[Variant]:
    for index, item in enumerate(record.exhibits):
        if item.side == side:
            flip = _exhibit_flip(item) if isinstance(record, CivilRecord) else _flip("exhibits", index, "produced")
            yield Variant("exhibit", item.name, item.produced, flip, exhibit_text(item))
    if isinstance(record, CivilRecord):
        yield from _civil_variants(record, side)
        if record.cross is not None and side == record.cross.claimant:
            yield from (
                replace(variant, flip=_in_cross(variant.flip)) for variant in _civil_variants(record.cross, side)
            )
        yield from _law_variants(record, side)
    elif side in ("defendant", "prosecution"):
        yield from _criminal_variants(record, side)


def _exhibit_flip(item: Exhibit) -> Callable[[Record], Record]:
    """The civil record with ``item`` produced the other way, in the appeal heard and in the
    other side's own appeal alike (both read the same new evidence)."""

    def flip(record: Record) -> Record:
        exhibits = tuple(
            replace(other, produced=not other.produced) if (other.side, other.name) == (item.side, item.name) else other
            for other in record.exhibits
        )
        cross = flip(record.cross) if record.cross is not None else None
        return replace(record, exhibits=exhibits, cross=cross)

    return flip


def _in_cross(flip: Callable[[Record], Record]) -> Callable[[Record], Record]:
    """A flip of the other side's own appeal (``CivilRecord.cross``), applied there."""
    return lambda record: replace(record, cross=flip(record.cross))


def _law_variants(record: CivilRecord, side: str) -> Iterator[Variant]:
    """On appeal, an appellant's ground of law: a substantive article argued, which alone can
    make out a request the appellee leaves unanswered (``civil_appeal``)."""
    appeals = [heard for heard in (record, record.cross) if heard is not None and heard.appeal]
    if side not in {heard.claimant for heard in appeals}:
        return
    cited = {key for key in record.cited.get(side, frozenset()) if not PROCEDURAL.search(key)}
    point = said(
        record.language == "zh",
        "上诉请求所依据的实体法条文",
        "an article of substantive law on which the appeal requests rest",
    )
    yield Variant("law", point, bool(cited), _law_flip(side, cited))


def _law_flip(side: str, cited: set[str]) -> Callable[[Record], Record]:
    """The record with ``side``'s substantive articles taken out, or, when it cited none, one
    argued (``SUBSTANTIVE``), in the appeal heard and the other side's own appeal alike."""

    def flip(record: Record) -> Record:
        keys = record.cited.get(side, frozenset())
        changed = keys - cited if cited else keys | {SUBSTANTIVE}
        cross = flip(record.cross) if record.cross is not None else None
        return replace(record, cited={**record.cited, side: frozenset(changed)}, cross=cross)

    return flip


def _flip(items: str, index: int, made: str) -> Callable[[Record], Record]:
    """The record with the ``index``-th of its ``items`` (exhibits, claims, defences) made the
    other way (``made``: produced, stated, raised)."""

    def flip(record: Record) -> Record:
        changed = list(getattr(record, items))
        changed[index] = replace(changed[index], **{made: not getattr(changed[index], made)})
        return replace(record, **{items: tuple(changed)})

    return flip


def _civil_variants(record: CivilRecord, side: str) -> Iterator[Variant]:
    if side == record.claimant:
        for index, claim in enumerate(record.claims):
            yield Variant("claim", claim.text, claim.stated, _flip("claims", index, "stated"))
    else:
        for index, point in enumerate(record.defences):
            yield Variant("defence", point.text, point.raised, _flip("defences", index, "raised"))


def _criminal_variants(record: CriminalRecord, side: str) -> Iterator[Variant]:
    zh = record.language == "zh"
    field = "defence_words" if side == "defendant" else "prosecution_words"
    raised = circumstances_in(getattr(record, field))
    for name, (zh_name, en_name) in CIRCUMSTANCE_NAMES.items():
        if (RATES[name] < 0) != (side == "defendant"):
            continue
        phrase = zh_name if zh else en_name
        yield Variant("circumstance", phrase, name in raised, _words_flip(field, name, phrase), circumstance=name)
    if side == "defendant" and not PROBATION.search(record.defence_words):
        ask = said(
            zh,
            "请求适用缓刑，被告人有固定工作和监管条件",
            "we ask for probation; the defendant has a stable job and family supervision",
        )
        yield Variant("probation", ask, False, _words_flip(field, "", ask))


def _words_flip(field: str, name: str, phrase: str) -> Callable[[Record], Record]:
    """Raise ``phrase`` in the side's words, or, when they name circumstance ``name``
    already, take it out."""

    def flip(record: Record) -> Record:
        words = getattr(record, field)
        if name and name in circumstances_in(words):
            return replace(record, **{field: CIRCUMSTANCE_WORDS[name].sub("", words)})
        return replace(record, **{field: f"{words}\n{phrase}"})

    return flip
