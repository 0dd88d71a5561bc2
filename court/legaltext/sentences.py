"""The sentence a criminal judgment orders, read as courts write it, in Chinese and English.

* **Where**: the orders, found after the last 判决如下 / 裁定如下 / "the court orders" that is
  followed by a sentence (mid-line too), up to 如不服本判决 / the judges' signatures; else the
  judgment's orders section (``court.documents``); else the whole text without its sentences
  about prior convictions, recommendations and the parties' submissions. So a prior
  conviction stated before 判决如下 is never read as the sentence.
* **Who**: per defendant (被告人张某犯…, 被告单位…, "Defendant Zhou Wei is guilty ...").
* **What**: the principal penalty (``PENALTIES``: 有期徒刑, 拘役, 管制 with their term,
  无期徒刑, 死刑缓期二年执行, 死刑, 免予刑事处罚, 无罪); a term in years, months and days
  (一年半 = 18, 一年又三个月 = 15, 三个月十日 = 3 + 10/30); an aggregate sentence
  (决定执行 over 合并执行 over 合并刑期) wins over the terms of the separate counts; several
  penalties without one: the most severe. Probation (缓刑, with its length), unless negated
  (不宜适用缓刑, 未宣告缓刑, 撤销缓刑) or part of a submission (辩护人……缓刑的意见不予采纳).
  Fines: 罚金, and 罚款 flagged as administrative; an aggregate fine (after 决定执行 /
  合并执行) wins, else the first fine of each count is summed (additional penalties of one
  kind are served together, Criminal Law art. 69). Amounts in any numeral
  (``court.legaltext.numerals``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from court.documents import document_sections
from court.legaltext.numerals import EN_NUMERAL, count_parse, number_parse
from court.legaltext.penalties import NON_NUMERIC_PENALTIES, TERM_PENALTIES

SEVERITY = {
    kind: rank
    for rank, kind in enumerate(
        (
            "acquitted",
            "exempt",
            "public_surveillance",
            "criminal_detention",
            "fixed_term",
            "life_imprisonment",
            "death_suspended",
            "death",
        )
    )
}
"""The principal penalties (``court.legaltext.penalties.PENALTIES``) from the lightest to the gravest."""


@dataclass(frozen=True)
class Sentence:
    """A criminal sentence. ``imprisonment_months`` is None for life or death (non-numeric)
    or when no sentence could be read, 0 for an exemption, an acquittal or a fine alone;
    ``probation_months`` is 0 without probation and None when probation applies for an
    unstated period; ``penalty`` is one of ``PENALTIES`` (None: none read);
    ``fine_administrative`` marks a fine read from 罚款 rather than 罚金."""

    imprisonment_months: float | None
    probation: bool | None
    probation_months: float | None
    fine: float | None
    penalty: str | None = None
    fine_administrative: bool = False


NOTHING_READ = Sentence(None, None, None, None)


@dataclass(frozen=True)
class _Mention:
    kind: str
    months: float | None
    start: int
    end: int


@dataclass(frozen=True)
class _Grammar:
    orders: re.Pattern[str]
    orders_end: re.Pattern[str]
    defendant: re.Pattern[str]
    aggregate: tuple[re.Pattern[str], ...]  # by precedence
    count: re.Pattern[str]
    probation: re.Pattern[str]
    probation_negated_before: re.Pattern[str]
    probation_negated_after: re.Pattern[str]
    submission: re.Pattern[str]
    fine: re.Pattern[str]
    prior: re.Pattern[str]
    sentence_end: str
    clause_end: str
    mentions: Callable[[str], list[_Mention]]
    duration_at: Callable[[str, int], float | None]


# --- durations ------------------------------------------------------------------------------

_ZH_N = r"\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百]+"
_ZH_DURATION = re.compile(
    rf"(?:(?P<half_year>半)年|(?P<years>{_ZH_N})\s*年(?P<years_half>半)?)?"
    rf"\s*[又零]?\s*(?:(?P<months>{_ZH_N})\s*个?月(?P<months_half>半)?)?"
    rf"\s*[又零]?\s*(?:(?P<days>{_ZH_N})\s*[日天])?"
)
_EN_DURATION = re.compile(
    rf"(?:(?P<half_year>half\s+a\s+year)|(?P<years>{EN_NUMERAL})(?P<years_half>\s+and\s+a\s+half)?[- ]years?"
    rf"(?P<years_half_after>\s+and\s+a\s+half)?)?"
    rf"(?:,?\s*(?:and\s+)?(?P<months>{EN_NUMERAL})[- ]months?)?"
    rf"(?:,?\s*(?:and\s+)?(?P<days>{EN_NUMERAL})[- ]days?)?",
    re.I,
)


def _months_of(match: re.Match[str]) -> float | None:
    """Years, months and days of a duration match in months (a day is 1/30 month); None when
    the match names no duration."""
    parts = match.groupdict()
    if not any(parts.values()):
        return None
    halves = sum(6 for key in ("half_year", "years_half", "years_half_after") if parts.get(key)) + (
        0.5 if parts.get("months_half") else 0
    )
    counts = [count_parse(parts[key]) if parts.get(key) else 0 for key in ("years", "months", "days")]
    if any(count is None for count in counts):
        return None
    years, months, days = (count or 0 for count in counts)
    total = round(12 * years + months + days / 30 + halves, 4)
    return int(total) if total == int(total) else total


def _duration_after(pattern: re.Pattern[str], lead: str) -> Callable[[str, int], float | None]:
    lead_pattern = re.compile(lead, re.I)

    def duration_at(text: str, position: int) -> float | None:
        lead_match = lead_pattern.match(text, position)
        position = lead_match.end() if lead_match else position
        match = pattern.match(text, position)
        return None if match is None or match.end() == position else _months_of(match)

    return duration_at


_zh_duration_at = _duration_after(_ZH_DURATION, r"[为是:：\s]*")
_en_duration_at = _duration_after(_EN_DURATION, r"\s*(?:(?:of|for|is)\s+)?(?:a\s+(?:term|period)\s+of\s+)?")


# --- principal penalties --------------------------------------------------------------------

_ZH_KINDS = re.compile(
    r"(?P<death_suspended>死刑[，,、\s]*缓期(?:[二两2]年)?执行|死缓)"
    r"|(?P<death>死刑(?![，,、\s]*缓期))"
    r"|(?P<life_imprisonment>无期徒刑)"
    r"|(?P<fixed_term>有期徒刑)"
    r"|(?P<criminal_detention>拘役)"
    r"|(?P<public_surveillance>管制)"
    r"|(?P<exempt>免[予于除]刑事处[罚分]|免除(?:刑事)?处罚)"
    r"|(?P<acquitted>无罪(?!辩护|推定|的))"
)
_EN_KINDS = re.compile(
    r"(?P<death_suspended>death(?:\s+(?:penalty|sentence))?,?\s+(?:with\s+a\s+|suspended\s+for\s+)(?:two|2)[- ]years?"
    r"(?:\s+(?:reprieve|suspension))?|suspended\s+death\s+(?:sentence|penalty))"
    r"|(?P<death>(?:sentenced\s+to\s+death|death\s+(?:penalty|sentence))(?![^.;]{0,25}(?:reprieve|suspen)))"
    r"|(?P<life_imprisonment>life\s+imprisonment|imprisonment\s+for\s+life)"
    r"|(?P<fixed_term>(?:fixed[- ]term\s+)?imprisonment|\bin\s+prison\b)"
    r"|(?P<criminal_detention>criminal\s+detention)"
    r"|(?P<public_surveillance>public\s+surveillance)"
    r"|(?P<exempt>exempt(?:ed|s)?\s+from\s+(?:criminal\s+)?(?:punishment|penalty))"
    r"|(?P<acquitted>\bnot\s+guilty\b|\bacquit(?:ted|s)?\b)",
    re.I,
)
_EN_DURATION_BEFORE = re.compile(
    rf"(?:{_EN_DURATION.pattern})(?:['’]s?)?\s+(?:of\s+)?$",
    re.I,
)


def _zh_mentions(text: str) -> list[_Mention]:
    found = []
    for match in _ZH_KINDS.finditer(text):
        kind = match.lastgroup or ""
        months = _zh_duration_at(text, match.end()) if kind in TERM_PENALTIES else None
        if kind in TERM_PENALTIES and months is None:
            continue  # 管制刀具, 有期徒刑以上刑罚: no term, no sentence
        found.append(_Mention(kind, months, match.start(), match.end()))
    return found


def _en_mentions(text: str) -> list[_Mention]:
    found = []
    for match in _EN_KINDS.finditer(text):
        kind = match.lastgroup or ""
        months = None
        if kind in TERM_PENALTIES:
            months = _en_duration_at(text, match.end())
            if months is None:
                before = _EN_DURATION_BEFORE.search(text[max(0, match.start() - 80) : match.start()])
                months = _months_of(before) if before else None
            if months is None:
                continue
        found.append(_Mention(kind, months, match.start(), match.end()))
    return found


# --- the two grammars ---------------------------------------------------------------------

_ZH_NUMERAL_RUN = r"[\d,.零〇一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟萬億]+"
_GRAMMARS = {
    "zh": _Grammar(
        orders=re.compile(r"(?:判决|裁定)如下\s*[:：]?"),
        orders_end=re.compile(r"如不服本(?:判决|裁定)|审\s*判\s*长|审\s*判\s*员|人民陪审员|书\s*记\s*员"),
        defendant=re.compile(
            r"被告(?:人|单位)(?P<name>(?![的所已均各之])[^\s，,。；;：:、（）()“”\"]{1,30}?)"
            r"(?=犯|无罪|不构成犯罪|免[予于除]刑事处罚)"
        ),
        aggregate=tuple(re.compile(marker) for marker in ("决定执行", "合并执行", "合并刑期")),
        count=re.compile(r"犯[^，,。；;]{1,25}?罪"),
        probation=re.compile(r"缓刑(?:考验期(?:限)?)?"),
        probation_negated_before=re.compile(r"不宜|不适用|不予|不能|不得|不符合|不再|未|没有|无|撤销|驳回"),
        probation_negated_after=re.compile(r"^[^，,。；;]*?(?:不予|不适用|不宜|不能|不得)"),
        submission=re.compile(r"意见|建议|请求|辩护|申请|公诉机关|起诉"),
        fine=re.compile(rf"(?P<kind>罚金|罚款)[^元，,。；;]{{0,8}}?(?P<amount>{_ZH_NUMERAL_RUN})\s*元"),
        prior=re.compile(r"曾因|曾于|曾被|前科|建议|起诉|辩护|请求|意见|以上|以下|量刑|可以|应当"),
        sentence_end="。；;\n",
        clause_end="，,。；;：:\n",
        mentions=_zh_mentions,
        duration_at=_zh_duration_at,
    ),
    "en": _Grammar(
        orders=re.compile(
            r"\b(?:the\s+court\s+(?:hereby\s+)?(?:orders|rules|adjudges|decides|sentences)(?:\s+as\s+follows)?"
            r"|it\s+is\s+(?:hereby\s+)?ordered(?:\s+that)?|judgment\s+is\s+(?:hereby\s+)?(?:rendered|entered)"
            r"(?:\s+as\s+follows)?)\s*[:：]?",
            re.I,
        ),
        orders_end=re.compile(r"\bif\s+(?:the\s+defendant|you)\s+(?:do(?:es)?\s+not|disagree)|presiding\s+judge", re.I),
        defendant=re.compile(
            r"\b[Dd]efendant\s+(?P<name>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3})"
            r"(?=,?\s+(?:is|was|shall|guilty|not\s+guilty|found|be)\b)"
        ),
        aggregate=(
            re.compile(
                r"\bdecided?s?\s+to\s+execute|\b(?:aggregate|combined|consolidated|total)\s+(?:sentence|term|punishment)",
                re.I,
            ),
        ),
        count=re.compile(r"\b(?:guilty|convicted)\s+of\s+[^,.;]{1,40}", re.I),
        probation=re.compile(r"\b(?:suspended|probation(?:ary)?(?:\s+period)?)\b", re.I),
        probation_negated_before=re.compile(
            r"\b(?:not|no|without|refuse[sd]?|denie[sd]|decline[sd]?|revoke[sd]?)\b", re.I
        ),
        probation_negated_after=re.compile(r"^[^,.;]*?\b(?:is|are)\s+(?:not|denied|refused|revoked)\b", re.I),
        submission=re.compile(r"\b(?:counsel|defen[cs]e|argue|request|recommend|submi|plea|prosecut)", re.I),
        fine=re.compile(
            r"(?P<kind>(?:administrative\s+)?\bfine[sd]?\b)(?:\s+(?:of|in\s+the\s+amount\s+of|totall?ing|amounting\s+to))?"
            r"\s*(?:RMB|CNY|¥|yuan)?\s*(?P<amount>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>thousand|million|万)?",
            re.I,
        ),
        prior=re.compile(r"\b(?:previous|prior|formerly|recommend|request|argu|submi|plead|counsel|defen[cs]e)", re.I),
        sentence_end=".;\n",
        clause_end=",.;:\n",
        mentions=_en_mentions,
        duration_at=_en_duration_at,
    ),
}
_UNITS = {"": 1, "thousand": 1_000, "million": 1_000_000, "万": 10_000}


# --- reading --------------------------------------------------------------------------------


def judgment_sentences(text: str, language: str) -> dict[str, Sentence]:
    """The sentence of each defendant the judgment orders, by name in order of appearance
    ("" for a judgment that names none); empty when nothing can be read."""
    grammar = _GRAMMARS["zh" if language == "zh" else "en"]
    text = unicodedata.normalize("NFKC", text or "")
    for orders in _orders_candidates(text, grammar):
        sentences = {name: _read(segment, grammar) for name, segment in _defendant_segments(orders, grammar)}
        sentences = {name: sentence for name, sentence in sentences.items() if sentence != NOTHING_READ}
        if sentences:
            return sentences
    return {}


def sentence_extract(text: str, language: str, defendant: str | None = None) -> Sentence:
    """The sentence a judgment orders for ``defendant`` (by name; any defendant named so in
    part), else for the first defendant it sentences; ``NOTHING_READ`` when none."""
    sentences = judgment_sentences(text, language)
    if defendant:
        for name, sentence in sentences.items():
            if name and (name in defendant or defendant in name):
                return sentence
    return next(iter(sentences.values()), NOTHING_READ)


def principal_penalty(text: str, language: str = "zh") -> tuple[str, float | None] | None:
    """The most severe principal penalty a phrase names, with its term (无期徒刑 →
    ``("life_imprisonment", None)``; 拘役三个月 → ``("criminal_detention", 3)``)."""
    grammar = _GRAMMARS["zh" if language == "zh" else "en"]
    mentions = grammar.mentions(unicodedata.normalize("NFKC", text or ""))
    if not mentions:
        return None
    chosen = _most_severe(mentions)
    return chosen.kind, chosen.months


def _orders_candidates(text: str, grammar: _Grammar) -> Iterator[str]:
    for marker in reversed(list(grammar.orders.finditer(text))):
        yield _until_end(text[marker.end() :], grammar)
    section = document_sections(text, "criminal_judgment").get("orders")
    if section:
        yield _until_end(section, grammar)
    yield "".join(piece for piece in _sentences(text, grammar) if not grammar.prior.search(piece))


def _until_end(orders: str, grammar: _Grammar) -> str:
    end = grammar.orders_end.search(orders)
    return orders[: end.start()] if end else orders


def _sentences(text: str, grammar: _Grammar) -> list[str]:
    return re.findall(rf"[^{re.escape(grammar.sentence_end)}]*[{re.escape(grammar.sentence_end)}]?", text)


def _defendant_segments(orders: str, grammar: _Grammar) -> list[tuple[str, str]]:
    """(name, text) per defendant, the items about one defendant joined; one unnamed
    segment when the orders name no defendant."""
    starts = [(match.start(), match["name"]) for match in grammar.defendant.finditer(orders)]
    if not starts:
        return [("", orders)]
    segments: dict[str, str] = {}
    for (start, name), (end, _next) in zip(starts, [*starts[1:], (len(orders), "")], strict=True):
        segments[name] = segments.get(name, "") + orders[start:end]
    return list(segments.items())


def _read(segment: str, grammar: _Grammar) -> Sentence:
    mentions = [mention for mention in grammar.mentions(segment) if not _in_submission(segment, mention.start, grammar)]
    principal = _aggregate(segment, mentions, grammar) or (_most_severe(mentions) if mentions else None)
    reprieves = [(mention.start, mention.end) for mention in mentions if mention.kind == "death_suspended"]
    probation_months = _probation(segment, grammar, reprieves)
    fine, administrative = _fine(segment, grammar)
    if principal is None and probation_months == 0 and fine is None:
        return NOTHING_READ
    kind = principal.kind if principal else None
    if kind in ("acquitted", "exempt"):
        probation_months = 0
    return Sentence(_term(principal), probation_months != 0, probation_months, fine or 0.0, kind, administrative)


def _term(principal: _Mention | None) -> float | None:
    """Months of a term penalty; None for life or death; 0 for an exemption, an acquittal or
    a fine alone."""
    if principal is None:
        return 0
    if principal.kind in TERM_PENALTIES:
        return principal.months
    return None if principal.kind in NON_NUMERIC_PENALTIES else 0


def _most_severe(mentions: list[_Mention]) -> _Mention:
    return max(mentions, key=lambda mention: (SEVERITY[mention.kind], mention.months or 0))


def _aggregate(segment: str, mentions: list[_Mention], grammar: _Grammar) -> _Mention | None:
    """The sentence to be executed for several counts: the penalty right after the
    strongest marker present (决定执行有期徒刑三年), or a bare term (合并刑期三年)."""
    for marker in grammar.aggregate:
        for match in reversed(list(marker.finditer(segment))):
            following = [mention for mention in mentions if 0 <= mention.start - match.end() <= 30]
            if following:
                return min(following, key=lambda mention: mention.start)
            months = grammar.duration_at(segment, match.end())
            if months is not None:
                terms = [mention for mention in mentions if mention.kind in TERM_PENALTIES]
                kind = _most_severe(terms).kind if terms else "fixed_term"
                return _Mention(kind, months, match.start(), match.end())
    return None


def _in_submission(text: str, position: int, grammar: _Grammar) -> bool:
    """Whether the sentence around ``position`` reports what a party asked for (辩护人……的意见)."""
    start = max(text.rfind(mark, 0, position) for mark in grammar.sentence_end) + 1
    ends = [found for mark in grammar.sentence_end if (found := text.find(mark, position)) >= 0]
    return bool(grammar.submission.search(text[start : min(ends, default=len(text))]))


def _probation(segment: str, grammar: _Grammar, reprieves: list[tuple[int, int]]) -> float | None:
    """Months of the probation ordered: 0 for none, None when ordered without a length (the
    two-year reprieve of a death sentence is not probation)."""
    ordered = False
    for match in grammar.probation.finditer(segment):
        if any(start <= match.start() < end for start, end in reprieves):
            continue
        clause_start = max(segment.rfind(mark, 0, match.start()) for mark in grammar.clause_end) + 1
        if grammar.probation_negated_before.search(segment[clause_start : match.start()]):
            continue
        if grammar.probation_negated_after.search(segment[match.end() :]) or _in_submission(
            segment, match.start(), grammar
        ):
            continue
        months = grammar.duration_at(segment, match.end())
        if months is not None:
            return months
        ordered = True
    return None if ordered else 0


def _administrative(kind: str) -> bool:
    return kind == "罚款" or kind.lower().startswith("administrative")


def _fine(segment: str, grammar: _Grammar) -> tuple[float | None, bool]:
    """The fine ordered and whether it is administrative (罚款): the aggregate fine, else
    the first fine of each count summed."""
    fines = [
        (match.start(), amount * _UNITS[(match.groupdict().get("unit") or "").lower()], _administrative(match["kind"]))
        for match in grammar.fine.finditer(segment)
        if not _in_submission(segment, match.start(), grammar) and (amount := number_parse(match["amount"])) is not None
    ]
    if not fines:
        return None, False
    markers = [match.end() for marker in grammar.aggregate for match in marker.finditer(segment)]
    after = [fine for fine in fines if markers and fine[0] > max(markers)]
    if after:
        return after[-1][1], after[-1][2]
    counts = [match.start() for match in grammar.count.finditer(segment)]
    firsts: dict[int, tuple[int, float, bool]] = {}
    for fine in fines:
        count = sum(1 for start in counts if start <= fine[0])
        firsts.setdefault(count, fine)
    chosen = list(firsts.values())
    return sum(fine[1] for fine in chosen), any(fine[2] for fine in chosen)
