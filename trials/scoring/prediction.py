"""Judgment prediction for criminal cases (SimCourt, "Judgment Prediction Evaluation",
Table 1) and legal-article matching (AgentsCourt §5.1 and Appendix E.1); see docs/sources.md.

SimCourt compares the sentence of the simulated judgment with the real one on imprisonment,
probation and fine:

* **Hit rate**: a hit iff the predicted and the actual imprisonment fall in the same
  statutory sentencing range (its eq. 1, after CAIL2018's LJP track). The ranges are
  ``STATUTORY_RANGES`` below; a case file's ``sentence.statutory_range_months`` wins.
* **Accuracy** (probation, fine): both judgments say it applies, or both say it does not.
* **Relative error** |P - T| / T (its eq. 2), leaving out cases whose ground truth T is 0 or
  non-numeric (life imprisonment, death: ``None`` here) as the paper does; a prediction
  without a number (None) is left out too. Mean and population standard deviation.

AgentsCourt E.1 extracts the articles from free text by pattern, matches them strictly and
micro-averages: matched, predicted and reference counts are summed over cases first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from statistics import fmean, pstdev

from china_law_mcp.retrieval import cn2num

from trials.documents import document_sections
from trials.scoring.text import article_citations

Bracket = tuple[int, int]

# Statutory brackets of the Criminal Law of the PRC in months, bounds inclusive (以上/以下
# include the number). A fixed term tops out at 15 years (180 months); life and death are
# non-numeric. Article 347 is simplified to its fixed-term tiers.
_THREE_TIERS: tuple[Bracket, ...] = ((0, 36), (36, 120), (120, 180))
_CHARGES: tuple[tuple[tuple[str, ...], tuple[Bracket, ...]], ...] = (
    (("危险驾驶罪", "dangerous driving"), ((1, 6),)),  # art. 133-1: criminal detention
    (("诈骗罪", "fraud"), _THREE_TIERS),  # art. 266
    (("盗窃罪", "theft"), _THREE_TIERS),  # art. 264
    (("故意伤害罪", "intentional injury"), _THREE_TIERS),  # art. 234
    (("交通肇事罪", "traffic accident", "causing a traffic accident"), ((0, 36), (36, 84), (84, 180))),  # art. 133
    (("贩卖毒品罪", "走私、贩卖、运输、制造毒品罪", "drug trafficking"), ((0, 36), (36, 84), (84, 180))),  # art. 347
    (("抢劫罪", "robbery"), ((36, 120), (120, 180))),  # art. 263
    (("寻衅滋事罪", "picking quarrels and provoking trouble"), ((0, 60), (60, 120))),  # art. 293
    (("非法持有枪支罪", "illegal possession of firearms"), ((0, 36), (36, 84))),  # art. 128
    (("信用卡诈骗罪", "credit card fraud"), ((0, 60), (60, 120), (120, 180))),  # art. 196
    (("贪污罪", "embezzlement"), _THREE_TIERS),  # art. 383
    (("受贿罪", "bribery", "accepting bribes"), _THREE_TIERS),  # art. 386 punished under art. 383
    (("赌博罪", "gambling"), ((0, 36),)),  # art. 303(1)
    (("开设赌场罪", "operating a gambling house"), ((0, 60), (60, 120))),  # art. 303(2)
    (("帮助信息网络犯罪活动罪", "assisting information network criminal activities"), ((0, 36),)),  # art. 287-2
    (("容留他人吸毒罪", "harbouring others to take drugs"), ((0, 36),)),  # art. 354
)
STATUTORY_RANGES: dict[str, tuple[Bracket, ...]] = {name: brackets for names, brackets in _CHARGES for name in names}
GENERIC_RANGES: tuple[Bracket, ...] = _THREE_TIERS
"""For a charge not in ``STATUTORY_RANGES``: the Criminal Law's most common tiers, 三年以下 /
三年以上十年以下 / 十年以上 (theft, fraud, embezzlement and many more use them)."""


@dataclass(frozen=True)
class Sentence:
    """A criminal sentence. ``imprisonment_months`` is None for life or death (non-numeric)
    or when no sentence could be read; ``probation_months`` is 0 without probation and None
    when probation applies for an unstated period."""

    imprisonment_months: int | None
    probation: bool | None
    probation_months: int | None
    fine: float | None


LJPRecord = tuple[Sentence, Sentence, list[str], Bracket | None]
"""(predicted, actual, charges, the case's own statutory range)."""


def sentence_from_case(case: dict) -> Sentence:
    """The real sentence of a case seed; ``probation`` there is a number of months or a bool."""
    sentence = case.get("sentence") or {}
    probation = sentence.get("probation")
    if isinstance(probation, bool):
        probation_applies, probation_months = probation, (None if probation else 0)
    elif isinstance(probation, int | float):
        probation_applies, probation_months = probation > 0, int(probation)
    else:
        probation_applies, probation_months = None, None
    months = _numeric(sentence.get("imprisonment_months"))
    return Sentence(
        None if months is None else int(months), probation_applies, probation_months, _numeric(sentence.get("fine"))
    )


def case_statutory_range(case: dict) -> Bracket | None:
    """``sentence.statutory_range_months`` [L, U] of a case seed, when it gives one."""
    bounds = (case.get("sentence") or {}).get("statutory_range_months")
    return (int(bounds[0]), int(bounds[1])) if bounds else None


def _numeric(value: object) -> float | None:
    """A number of the case file; anything else ("life", "death", absent) is non-numeric."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


# --- reading a generated criminal judgment -------------------------------------------------

_ZH_N = r"\d+|[零〇一二两三四五六七八九十百]+"
_ZH_DURATION = rf"\s*(?:(?P<years>{_ZH_N})\s*年)?\s*零?\s*(?:(?P<months>{_ZH_N})\s*个?月)?"
_EN_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60}
_EN_WORDS = {**{word: value for value, word in enumerate(_EN_UNITS)}, **_EN_TENS}
_EN_N = rf"\d+|\b(?:{'|'.join(_EN_TENS)})(?:[- ](?:{'|'.join(_EN_UNITS[1:10])}))?\b|\b(?:{'|'.join(_EN_UNITS)})\b"
_EN_DURATION = rf"(?:(?P<years>{_EN_N})\s+years?)?(?:\s*(?:and\s+)?(?P<months>{_EN_N})\s+months?)?"


@dataclass(frozen=True)
class _Grammar:
    terms: tuple[re.Pattern[str], ...]
    probation: re.Pattern[str]
    non_numeric: re.Pattern[str]
    exempt: re.Pattern[str]
    fine: re.Pattern[str]
    aggregate: str


_GRAMMARS = {
    "zh": _Grammar(
        terms=(re.compile(rf"(?:有期徒刑|拘役|管制){_ZH_DURATION}"),),
        probation=re.compile(rf"缓刑(?:考验期限?为?)?{_ZH_DURATION}"),
        non_numeric=re.compile(r"无期徒刑|死刑"),
        exempt=re.compile(r"免[予于除]刑事处[罚分]"),
        fine=re.compile(
            r"罚金\s*(?:人民币)?\s*(?P<amount>\d[\d,]*(?:\.\d+)?|[零〇一二两三四五六七八九十百千万]+)\s*(?P<wan>万)?\s*元"
        ),
        aggregate="决定执行",
    ),
    "en": _Grammar(
        terms=(
            re.compile(rf"(?:imprisonment|criminal detention|public surveillance)\s+(?:of|for)\s+{_EN_DURATION}", re.I),
            re.compile(
                rf"{_EN_DURATION}(?:['’]s?)?\s+(?:of\s+)?(?:fixed-term\s+)?(?:imprisonment|criminal detention)", re.I
            ),
        ),
        probation=re.compile(rf"(?:suspended|probation(?:ary)?(?: period)?)(?:\s+(?:of|for)\s+{_EN_DURATION})?", re.I),
        non_numeric=re.compile(r"life imprisonment|imprisonment for life|death penalty|sentenced to death", re.I),
        exempt=re.compile(r"exempt(?:ed)? from criminal punishment", re.I),
        fine=re.compile(r"\bfine[sd]?\s+(?:of\s+)?(?:RMB|CNY|¥)?\s*(?P<amount>\d[\d,]*(?:\.\d+)?)", re.I),
        aggregate="decided to execute",
    ),
}


def sentence_extract(text: str, language: str) -> Sentence:
    """The sentence ordered by a generated criminal judgment, read from its orders section
    (the whole text when it has none) and, for several offences, from the aggregate sentence
    (决定执行…). Imprisonment is 0 for an exemption or a fine alone; all fields are None when
    no sentence can be read at all."""
    grammar = _GRAMMARS["zh" if language == "zh" else "en"]
    orders = unicodedata.normalize("NFKC", document_sections(text, "criminal_judgment").get("orders") or text or "")
    orders = orders[orders.rfind(grammar.aggregate) :] if grammar.aggregate in orders else orders
    term = next((months for pattern in grammar.terms if (months := _first_duration(pattern, orders)) is not None), None)
    probation = grammar.probation.search(orders)
    fine = _fine_amount(grammar.fine.search(orders))
    non_numeric = grammar.non_numeric.search(orders)
    if term is None and fine is None and not (probation or non_numeric or grammar.exempt.search(orders)):
        return Sentence(None, None, None, None)
    imprisonment = None if non_numeric else (term if term is not None else 0)
    probation_months = _duration_months(probation) if probation else 0
    return Sentence(imprisonment, bool(probation), probation_months, fine or 0.0)


def _first_duration(pattern: re.Pattern[str], text: str) -> int | None:
    """Months of the first match that names a duration (拘役 alone is no term)."""
    return next((months for match in pattern.finditer(text) if (months := _duration_months(match)) is not None), None)


def _duration_months(match: re.Match[str]) -> int | None:
    years, months = match["years"], match["months"]
    if years is None and months is None:
        return None
    return 12 * _count(years or "0") + _count(months or "0")


def _count(numeral: str) -> int:
    """一 / 十二 / 两 / 18 / eighteen / twenty-four as an int."""
    numeral = numeral.strip().lower()
    if numeral.isdigit():
        return int(numeral)
    parts = re.split(r"[- ]", numeral)
    if all(part in _EN_WORDS for part in parts):
        return sum(_EN_WORDS[part] for part in parts)
    return cn2num(numeral) or 0


def _fine_amount(match: re.Match[str] | None) -> float | None:
    if match is None:
        return None
    amount = match["amount"].replace(",", "")
    value = float(amount) if amount[0].isdigit() else float(cn2num(amount) or 0)
    return value * 10_000 if match.groupdict().get("wan") else value


# --- SimCourt metrics -----------------------------------------------------------------------


def statutory_brackets(charges: Iterable[str]) -> tuple[Bracket, ...]:
    """The brackets of every known charge, or ``GENERIC_RANGES`` when none is known."""
    index = _charge_index()
    found = tuple(bracket for charge in charges for bracket in index.get(_charge_key(charge), ()))
    return found or GENERIC_RANGES


@cache
def _charge_index() -> dict[str, tuple[Bracket, ...]]:
    return {_charge_key(name): brackets for name, brackets in STATUTORY_RANGES.items()}


def _charge_key(name: str) -> str:
    """诈骗罪 / 诈骗 / "Fraud" / "crime of fraud" → one key."""
    key = unicodedata.normalize("NFKC", name).strip().lower().removeprefix("the ").removeprefix("crime of ")
    return key.removesuffix("罪").strip()


def imprisonment_hit(
    predicted_months: int | None,
    actual_months: int | None,
    charges: Sequence[str],
    case_range: Bracket | None = None,
) -> bool:
    """SimCourt's hit: the prediction lies in the statutory range of the actual sentence
    (``case_range`` when the case gives it). Two non-numeric sentences (life, death) hit;
    one numeric and one not never do."""
    if predicted_months is None or actual_months is None:
        return predicted_months is None and actual_months is None
    if predicted_months == actual_months:
        return True
    if case_range is not None:
        return case_range[0] <= predicted_months <= case_range[1]
    return any(
        low <= actual_months <= high and low <= predicted_months <= high for low, high in statutory_brackets(charges)
    )


def ljp_metrics(records: list[LJPRecord]) -> dict:
    """Hit rate, accuracies and relative errors over (predicted, actual, charges, case range)
    records; a value is None when there is nothing to compute it on."""
    hits = [
        imprisonment_hit(p.imprisonment_months, a.imprisonment_months, charges, rng) for p, a, charges, rng in records
    ]
    pairs = [(predicted, actual) for predicted, actual, _charges, _range in records]
    return {
        "n_cases": len(records),
        "imprisonment": {
            "hit_rate": fmean(hits) if hits else None,
            **_error_summary((p.imprisonment_months, a.imprisonment_months) for p, a in pairs),
        },
        "probation": {
            "accuracy": _accuracy((_probation_applies(p), _probation_applies(a)) for p, a in pairs),
            **_error_summary((p.probation_months, a.probation_months) for p, a in pairs),
        },
        "fine": {
            "accuracy": _accuracy((_fine_applies(p), _fine_applies(a)) for p, a in pairs),
            **_error_summary((p.fine, a.fine) for p, a in pairs),
        },
    }


def _probation_applies(sentence: Sentence) -> bool | None:
    if sentence.probation is None and sentence.probation_months is None:
        return None
    return bool(sentence.probation) or (sentence.probation_months or 0) > 0


def _fine_applies(sentence: Sentence) -> bool | None:
    return None if sentence.fine is None else sentence.fine > 0


def _accuracy(pairs: Iterable[tuple[bool | None, bool | None]]) -> float | None:
    """Share of cases where both apply or both do not; cases whose truth is unknown are left
    out, and a prediction that says nothing (None) counts as "does not apply"."""
    judged = [bool(predicted) == actual for predicted, actual in pairs if actual is not None]
    return fmean(judged) if judged else None


def _error_summary(pairs: Iterable[tuple[float | None, float | None]]) -> dict[str, float | int | None]:
    errors = [abs(p - t) / t for p, t in pairs if p is not None and t is not None and t > 0]
    return {
        "relative_error_mean": fmean(errors) if errors else None,
        "relative_error_sd": pstdev(errors) if errors else None,
        "n_error": len(errors),
    }


# --- AgentsCourt legal articles ----------------------------------------------------------------


def article_prf(predicted_texts: list[str], references: list[list[str]]) -> dict[str, float | int | None]:
    """Strict, micro-averaged article matching: each case's articles are extracted from its
    free text and from each reference string; counts are summed before the ratios."""
    matched = predicted = reference = 0
    for text, case_references in zip(predicted_texts, references, strict=True):
        generated = article_citations(text)
        wanted = frozenset().union(*(article_citations(item) for item in case_references))
        matched, predicted, reference = (
            matched + len(generated & wanted),
            predicted + len(generated),
            reference + len(wanted),
        )
    precision = matched / predicted if predicted else None
    recall = matched / reference if reference else None
    f1 = None if recall is None else 2 * matched / (predicted + reference)  # = 2PR / (P + R)
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "matched": matched,
        "predicted": predicted,
        "reference": reference,
    }
