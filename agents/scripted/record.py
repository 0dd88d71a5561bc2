"""The record as heard: what the scripted court reads before it decides (``ruling`` decides).

The court reads the hearing's dialogue as its own seat saw it, never the case file's counts:
which claims (or appeal requests) their side stated, which evidence items each side produced
in the evidence phase, which defences the other side raised, which sentencing circumstances
the defence argued, which articles each side cited. A statement struck by a sustained
objection is not part of the record (``heard``). Matching is by content terms (``court.legaltext.text``):
a claim, a defence or an item counts as stated, raised or produced when the side's words hold
at least ``COVERED`` of its terms (an evidence item's name, or a numbered line the side wrote).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from agents.scripted.claims import COSTS as COSTS_KIND
from agents.scripted.claims import COSTS_WORDS, ClaimItem, claim_items, claim_read
from agents.scripted.context import Ctx, as_list, disposition_of, split_sentences
from agents.scripted.heard import heard_of
from court.legaltext.text import article_citations, coverage, terms
from court.procedures.seats import COURT

COVERED = 0.5
"""The share of a claim's, a defence's or an item's content terms a side's words must hold."""
COSTS = COSTS_WORDS
"""How court costs are named (``claims.COSTS_WORDS``)."""
EVIDENCE_PHASES = frozenset({"evidence", "prosecution_evidence", "defence_evidence"})
"""Evidence is produced in the evidence phase and examined there (Civil Procedure Law art. 71,
Criminal Procedure Law art. 195): an item mentioned only in argument is not evidence."""
GENERIC = frozenset(
    "原告 被告 上诉人 被上诉人 本院 法院 判令 请求 要求 主张 证明 证据 事实 本案 双方 对方 我方 一方 支付 给付 "
    "plaintiff defendant appellant appellee court order claim claimant evidence prove fact case party side "
    "pay rmb yuan".split()
)
"""Words every claim, defence and exhibit shares: they tie nothing to anything."""
RECIDIVIST_ZH = r"(?<!不构成)(?<!不属于)(?<!不是)(?<!不系)(?<!非)累犯"
"""累犯 said of the defendant, not denied (虽不构成累犯: a prior record, no recidivism)."""
CIRCUMSTANCE_WORDS = {
    "surrender": re.compile(r"自首|投案|surrender|turned (?:him|her)self in|gave (?:him|her)self up", re.IGNORECASE),
    "confession": re.compile(r"坦白|如实供述|如实交代|confess|truthful|told the police everything", re.IGNORECASE),
    "guilty_plea": re.compile(r"认罪|plead(?:s|ed)? guilty|guilty plea|accepts? the recommend", re.IGNORECASE),
    "restitution": re.compile(
        r"退赔|退赃|赔偿|退还|返还|restitution|compensat|repaid|returned RMB|refund", re.IGNORECASE
    ),
    "forgiveness": re.compile(r"谅解|forgiv|forgave|letters? of understanding", re.IGNORECASE),
    "first_offence": re.compile(
        r"初犯|偶犯|无前科|没有前科|无犯罪记录|first offen[cs]e|first-time|no previous convictions?|no criminal record",
        re.IGNORECASE,
    ),
    "recidivism": re.compile(
        rf"{RECIDIVIST_ZH}|(?<!无)(?<!没有)前科|recidiv|(?<!no )previous convictions?|prior convictions?", re.IGNORECASE
    ),
}
"""How a sentencing circumstance is named in court, in either language (``ruling.RATES`` weighs it)."""
PROBATION = re.compile(r"缓刑|probation|suspended sentence|suspend", re.IGNORECASE)
SUPERVISION = re.compile(
    r"监管|社区|固定工作|固定住所|帮教|工作表现|家庭|stable job|employ|supervis|community|family", re.IGNORECASE
)
"""The conditions of probation argued: someone to supervise, a place in the community (art. 72)."""


@dataclass(frozen=True)
class Claim:
    """One item of the claims (``claims.claim_items``): ``amount`` is the sum it claims, never
    the base an accrual runs on."""

    text: str
    stated: bool
    amount: float | None = None

    @property
    def reading(self) -> ClaimItem:
        """What the item asks for, read as a court reads it (``claims.claim_read``)."""
        return claim_read(self.text)

    @property
    def kind(self) -> str:
        return self.reading.kind

    @property
    def costs(self) -> bool:
        return self.kind == COSTS_KIND


@dataclass(frozen=True)
class Exhibit:
    side: str
    name: str
    purpose: str
    produced: bool


@dataclass(frozen=True)
class Defence:
    text: str
    raised: bool


@dataclass(frozen=True)
class CivilRecord:
    """A civil hearing as heard: ``claimant`` is the plaintiff at first instance and the
    appellant at second; its ``claims`` are the claims or the appeal requests."""

    language: str
    claimant: str
    respondent: str
    claims: tuple[Claim, ...]
    exhibits: tuple[Exhibit, ...]
    defences: tuple[Defence, ...]
    cited: dict[str, frozenset[str]] = field(default_factory=dict)
    appeal: bool = False
    below: str = ""
    """On appeal: the orders of the first-instance judgment, the baseline the appeal varies."""
    claims_below: tuple[Claim, ...] = ()
    """On appeal: the plaintiff's claims at first instance (what an appeal may not exceed)."""
    record_below: tuple[Exhibit, ...] = ()
    """On appeal: the evidence examined at first instance, on which the judgment below rests."""
    cross: CivilRecord | None = None
    """On appeal, when both sides appealed: the other side's appeal as heard (its requests,
    its new evidence, the first appellant's answer to it), the first appellant its respondent."""


@dataclass(frozen=True)
class CriminalRecord:
    """A criminal trial as heard: the defence's words (counsel's and the defendant's) and the
    prosecution's, the exhibits each side produced, and the indictment as read."""

    language: str
    charges: tuple[str, ...]
    recommendation: dict
    indictment: str
    defendant_info: str
    exhibits: tuple[Exhibit, ...]
    defence_words: str
    prosecution_words: str
    cited: dict[str, frozenset[str]] = field(default_factory=dict)


def _side_of(seat: str) -> str:
    if seat in ("prosecutor",):
        return "prosecution"
    if seat in ("attorney", "defendant"):
        return "defendant"
    return seat.rsplit("_", 1)[0] if "_" in seat else COURT


def words_by_side(turns: list[dict], *, phases: frozenset[str] | None = None) -> dict[str, str]:
    spoken: dict[str, list[str]] = {}
    for turn in turns:
        if phases is None or turn.get("phase") in phases:
            spoken.setdefault(_side_of(turn["seat"]), []).append(turn["text"])
    return {side: "\n".join(texts) for side, texts in spoken.items()}


def mentioned(reference: str, words: str, language: str) -> bool:
    """``words`` mention ``reference``: they hold ``COVERED`` of its terms, or a line of them is
    mostly made of it (a numbered list of exhibits names each in a few words)."""
    if not words.strip():
        return False
    share = coverage(reference, words, language)
    if share is not None and share >= COVERED:
        return True
    return any((coverage(line, reference, language) or 0) >= 0.8 for line in words.splitlines() if len(line) > 3)


def civil_record(ctx: Ctx) -> CivilRecord:
    """The civil hearing the judge's seat has heard so far (FIT or SIT); on appeal, when the
    appellee appealed too, its appeal as ``cross``."""
    turns, struck = heard_of(ctx.view.dialogue)
    heard = _Heard(ctx, words_by_side(turns), words_by_side(turns, phases=EVIDENCE_PHASES), struck)
    claimant = ctx.opener()
    respondent = "defendant" if claimant == "plaintiff" else "plaintiff"
    if ctx.view.stage != "SIT":
        return heard.record(claimant, claim_items(ctx.claims()), ctx.facts("defendant"), ctx.evidence)
    new = _new_evidence(ctx)
    record = heard.record(claimant, claim_items(ctx.appeal_requests(claimant)), _answer(ctx, respondent), new)
    cross = claim_items(ctx.appeal_requests(respondent))
    below = _below(ctx, (claimant, respondent))
    if cross:
        below["cross"] = replace(heard.record(respondent, cross, _answer(ctx, claimant), new), appeal=True, **below)
    return replace(record, appeal=True, **below)


def _answer(ctx: Ctx, side: str) -> str:
    return ctx.field("appellee_defenses", side, "") or ""


def _new_evidence(ctx: Ctx) -> Callable[[str], list[dict]]:
    return lambda side: ctx.field("new_evidence", side, []) or []


@dataclass(frozen=True)
class _Heard:
    """What the court's seat heard, read for one claimant at a time."""

    ctx: Ctx
    said: dict[str, str]
    produced: dict[str, str]
    struck: frozenset[str]

    def record(
        self, claimant: str, requested: list[str], defence_text: str, evidence: Callable[[str], list[dict]]
    ) -> CivilRecord:
        """The record with ``claimant`` asking ``requested``, ``defence_text`` its answer and
        ``evidence(side)`` each side's items."""
        language = self.ctx.view.language
        respondent = "defendant" if claimant == "plaintiff" else "plaintiff"
        claims = tuple(
            Claim(text, mentioned(text, self.said.get(claimant, ""), language), claim_read(text).amount)
            for text in requested
        )
        exhibits = tuple(
            Exhibit(
                side,
                item["name"],
                item.get("purpose", ""),
                mentioned(item["name"], self.produced.get(side, ""), language) and item["name"] not in self.struck,
            )
            for side in (claimant, respondent)
            for item in evidence(side)
        )
        defences = tuple(
            Defence(point, mentioned(point, self.said.get(respondent, ""), language))
            for point in split_sentences(defence_text)
        )
        cited = {side: _cited(text) for side, text in self.said.items()}
        return CivilRecord(language, claimant, respondent, claims, exhibits, defences, cited)


def _below(ctx: Ctx, sides: tuple[str, str]) -> dict:
    """What an appeal court has from the first instance: the orders it varies, the claims it
    may not exceed, the evidence the judgment rests on."""
    judgment = ctx.artifact("first_instance_judgment")
    return {
        "below": disposition_of(judgment["text"]) if judgment else "",
        "claims_below": tuple(Claim(text, False, claim_read(text).amount) for text in claim_items(ctx.claims())),
        "record_below": tuple(
            Exhibit(side, item["name"], item.get("purpose", ""), True) for side in sides for item in ctx.evidence(side)
        ),
    }


def criminal_record(ctx: Ctx) -> CriminalRecord:
    """The criminal trial the judge's seat has heard so far."""
    turns, struck = heard_of(ctx.view.dialogue)
    said, produced = words_by_side(turns), words_by_side(turns, phases=EVIDENCE_PHASES)
    indictment = ctx.field("indictment") or {}
    language = ctx.view.language
    exhibits = tuple(
        Exhibit(
            side,
            item["name"],
            item.get("purpose", ""),
            mentioned(item["name"], produced.get(side, ""), language) and item["name"] not in struck,
        )
        for side in ("prosecution", "defendant")
        for item in ctx.field("evidence", side, []) or []
    )
    return CriminalRecord(
        language=language,
        charges=tuple(as_list(indictment.get("charges"))),
        recommendation=dict(indictment.get("sentencing_recommendation") or {}),
        indictment=indictment.get("indictment", ""),
        defendant_info=indictment.get("defendant_info", ""),
        exhibits=exhibits,
        defence_words=said.get("defendant", ""),
        prosecution_words=said.get("prosecution", ""),
        cited={side: _cited(text) for side, text in said.items()},
    )


@lru_cache(maxsize=256)
def _cited(words: str) -> frozenset[str]:
    """The articles a side's words cite: the scripted parties say the same of the same case
    at every run of it, so a batch of its copies reads them once."""
    return article_citations(words)


def circumstances_in(text: str) -> set[str]:
    """The sentencing circumstances ``text`` names."""
    return {name for name, pattern in CIRCUMSTANCE_WORDS.items() if pattern.search(text or "")}


def shared_terms(first: str, second: str, language: str) -> int:
    """How many content terms two texts share, leaving out the words every claim and defence
    uses and numbers of up to four digits (years, days, item numbers tie nothing together)."""
    return len(_content(first, language) & _content(second, language))


@lru_cache(maxsize=8192)
def _content(text: str, language: str) -> frozenset[str]:
    """The content terms of ``text``: a case's claims, defences and exhibits are compared
    with each other at every ruling, so each text is cut into terms once."""
    words = (_stem(term.replace(",", "")) for term in terms(text.replace("-", " "), language))
    return frozenset(word for word in words if not (word.isdigit() and len(word) <= 4)) - GENERIC


def _stem(term: str) -> str:
    """A crude English stem (crossed, crossing, crosses -> cross), enough to tie a defence to the
    exhibit proving it; Chinese terms are kept as jieba cut them."""
    for suffix in ("ing", "ed", "es", "s"):
        if term.isascii() and term.isalpha() and len(term) > len(suffix) + 3 and term.endswith(suffix):
            return term[: -len(suffix)]
    return term
