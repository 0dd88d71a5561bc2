"""The offline court's sentencing rule (docs/offline-court.md, "Criminal"; the civil rule is
``civil_ruling``, what moved an outcome ``counterfactuals``).

**Criminal**: no prosecution exhibit produced, acquittal (Criminal Procedure Law art. 200(3)).
Otherwise the sentence starts from the baseline the recommendation implies (the recommendation
with the circumstances the indictment states and the plea it presumes taken back out), then
moves by ``RATES`` for each circumstance the defence (or, for aggravation, the prosecution)
raised and the record supports (an exhibit produced, the indictment as read, or for the plea
the defendant's own words), within ``MAX_SHIFT`` either way and the charge's statutory range.
Probation needs a term of three years or less, no recidivism, remorse in the record, and either
the prosecution's recommendation of it or the defence asking for it with the supervision
conditions argued (Criminal Law art. 72).
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.scripted.record import PROBATION, SUPERVISION, CriminalRecord, circumstances_in
from agents.scripted.wording import exhibit_text, said
from court.legaltext.penalties import charge_brackets
from court.procedures.names import sentence_words

RATES = {
    "surrender": -0.20,
    "confession": -0.10,
    "guilty_plea": -0.10,
    "restitution": -0.10,
    "forgiveness": -0.10,
    "first_offence": -0.05,
    "recidivism": +0.20,
}
"""A circumstance's share of the baseline term (the Supreme People's Court's sentencing
guidelines give ranges; these are a midpoint each). Surrender includes confession."""
MAX_SHIFT = 0.5


@dataclass(frozen=True)
class CriminalDecision:
    language: str
    acquitted: bool
    sentence: dict
    counted: tuple[str, ...]
    reasons: tuple[str, ...]

    @property
    def summary(self) -> str:
        return sentence_words(self.sentence, self.language)


def criminal_decision(record: CriminalRecord) -> CriminalDecision:
    zh = record.language == "zh"
    prosecution = [item for item in record.exhibits if item.side == "prosecution" and item.produced]
    if not prosecution:
        reason = said(
            zh,
            "公诉机关未当庭出示任何证据，指控的犯罪事实不能成立",
            "the prosecution produced no evidence at the hearing; the charge is not proved",
        )
        return CriminalDecision(record.language, True, {"penalty": "acquitted"}, (), (reason,))
    recommendation = record.recommendation
    months = recommendation.get("imprisonment_months") or 0
    stated = circumstances_in(f"{record.indictment}\n{record.defendant_info}") | {"guilty_plea"}
    counted = _counted(record)
    base_factor = 1 + _shift(stated)
    factor = 1 + _shift(counted)
    reasons = [_circumstance_reason(name, zh) for name in sorted(counted)]
    term = max(1, round(months / base_factor * factor)) if months else 0
    ceiling = _ceiling(record.charges)
    term = min(term, ceiling or term)
    remorse = bool({"guilty_plea", "confession", "surrender"} & counted)
    asked = bool(PROBATION.search(record.defence_words)) and bool(
        SUPERVISION.search(
            record.defence_words + " ".join(exhibit_text(item) for item in record.exhibits if item.produced)
        )
    )
    probation = None
    if term and term <= 36 and "recidivism" not in counted and remorse and (recommendation.get("probation") or asked):
        probation = _probation_months(term, recommendation.get("probation"))
        reasons.append(
            said(
                zh, "被告人符合缓刑条件（刑法第七十二条）", "the conditions of probation are met (Criminal Law art. 72)"
            )
        )
    fine = recommendation.get("fine") or 0
    if fine:
        fine = max(1000, round(fine / base_factor * factor / 1000) * 1000)
    penalty = "criminal_detention" if term and (term < 6 or (ceiling or 7) <= 6) else "fixed_term"
    sentence = {"penalty": penalty, "imprisonment_months": term or None, "probation": probation or False, "fine": fine}
    return CriminalDecision(record.language, False, sentence, tuple(sorted(counted)), tuple(reasons))


def _counted(record: CriminalRecord) -> set[str]:
    """Circumstances raised by the side they favour and supported by the record."""
    produced = "\n".join(exhibit_text(item) for item in record.exhibits if item.produced)
    supported = circumstances_in(f"{produced}\n{record.indictment}\n{record.defendant_info}")
    raised = circumstances_in(record.defence_words)
    counted = {name for name in raised if RATES[name] < 0 and (name in supported or name == "guilty_plea")}
    aggravating = circumstances_in(record.prosecution_words)
    counted |= {name for name in aggravating if RATES[name] > 0 and name in supported}
    return counted


def _shift(names: set[str]) -> float:
    if "surrender" in names:
        names = names - {"confession"}
    total = sum(RATES[name] for name in names)
    return max(-MAX_SHIFT, min(MAX_SHIFT, total))


def _ceiling(charges: tuple[str, ...]) -> int | None:
    brackets = charge_brackets(charges)
    return max(upper for _, upper in brackets) if brackets else None


def _probation_months(term: int, recommended) -> int:
    if isinstance(recommended, int | float) and not isinstance(recommended, bool) and recommended >= term:
        return int(recommended)
    return min(12, max(term, 2)) if term < 6 else min(60, max(term, 12))


CIRCUMSTANCE_NAMES = {
    "surrender": ("自首", "surrender"),
    "confession": ("坦白", "truthful confession"),
    "guilty_plea": ("认罪认罚", "guilty plea"),
    "restitution": ("退赔、赔偿损失", "restitution"),
    "forgiveness": ("取得被害人谅解", "the victims' forgiveness"),
    "first_offence": ("初犯、偶犯", "first offence"),
    "recidivism": ("累犯", "recidivism"),
}


def circumstance_name(name: str, zh: bool) -> str:
    return CIRCUMSTANCE_NAMES[name][0 if zh else 1]


def _circumstance_reason(name: str, zh: bool) -> str:
    percent = round(abs(RATES[name]) * 100)
    if RATES[name] < 0:
        return said(
            zh,
            f"辩方提出{circumstance_name(name, zh)}且有证据支持，可以从轻处罚（约{percent}%）",
            f"the defence raised {circumstance_name(name, zh)} and the record supports it: about {percent} % less",
        )
    return said(
        zh,
        f"公诉人提出{circumstance_name(name, zh)}且有证据支持，应当从重处罚（约{percent}%）",
        f"the prosecution raised {circumstance_name(name, zh)} and the record supports it: about {percent} % more",
    )


# --- what moved the outcome -----------------------------------------------------------------
