"""The offline court's sentencing rule (docs/offline-court.md, "Criminal"; the civil rule is
``civil_ruling``, what moved an outcome ``counterfactuals``).

**Criminal**: no prosecution exhibit produced, acquittal (Criminal Procedure Law art. 200(3)).
Otherwise the sentence starts from the baseline the recommendation implies: the recommendation
as ``recommended`` reads it (the case file's, else the indictment's 建议 clause, with a fine the
charge's article requires), less the circumstances the indictment states and the plea it
presumes. It then moves by ``RATES`` for each circumstance the defence (or, for aggravation,
the prosecution) raised and the record supports (an exhibit produced, the indictment as read,
or for the plea the defendant's own words), within ``MAX_SHIFT`` either way and the charge's
statutory range.
Probation needs a term of three years or less, no recidivism, remorse in the record, and either
the prosecution's recommendation of it or the defence asking for it with the supervision
conditions argued (Criminal Law art. 72).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from agents.scripted.record import PROBATION, SUPERVISION, CriminalRecord, circumstances_in
from agents.scripted.wording import exhibit_text, said
from agents.tools.legal_circumstances import criminal_law_text
from agents.tools.statute_headings import charge_articles, charge_names
from court.legaltext.numerals import ZH_NUMERAL, number_parse
from court.legaltext.penalties import NON_NUMERIC_PENALTIES, TERM_PENALTIES, charge_brackets
from court.legaltext.sentences import sentence_extract
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


LEAST_FINE = 1000
"""A fine the law requires but nobody named a sum for ("并处罚金"): the least the law allows
(the Supreme People's Court's Provisions on the Application of Fines, art. 2). Tuned on
SimCourt's even-numbered cases: a higher rate per month of the term (RMB 250, 500, 1,000)
only raised the fine's relative error (docs/offline-court.md, "Criminal")."""
CORRUPTION_FINES = ((36, 100_000), (120, 200_000), (None, 500_000))
"""贪污罪 and 受贿罪: the floor of each tier of the Interpretation on Handling Criminal Cases of
Corruption and Bribery (2016) art. 19 (three years or less, up to ten years, more)."""
CORRUPTION = frozenset({"贪污罪", "受贿罪"})
DEFAULT_START = 6
"""The starting term (months) when nothing names one: no recommendation and the charge's lowest
statutory range starts at zero or is unknown."""
TIERS = (("特别巨大", 120), ("数额巨大", 36))
"""With no recommendation, the amount the indictment finds sets the Criminal Law's common tier
(数额巨大: three years up; 数额特别巨大: ten years up) and the term starts at its floor."""
_CLAUSE = re.compile(r"建议[^。；]*?(?:判处|量刑|罚金)[^。；]*")
_TERM = re.compile(rf"({ZH_NUMERAL})\s*(年|个月)(?:\s*[零又]?\s*({ZH_NUMERAL})\s*个月)?")
_UNIT_LATER = re.compile(rf"({ZH_NUMERAL})\s*([-—~～至到])\s*({ZH_NUMERAL})\s*(年|个月)")
_MANDATORY_FINE = re.compile(r"(?<!可以)并处(?:或者单处)?[^，。；]{0,20}罚金")
_REFERRED = re.compile(rf"依照本法第({ZH_NUMERAL})条(?:之({ZH_NUMERAL}))?的规定处罚")


@dataclass(frozen=True)
class CriminalDecision:
    language: str
    acquitted: bool
    sentence: dict
    counted: tuple[str, ...]
    reasons: tuple[str, ...]

    @property
    def summary(self) -> str:
        if not self.sentence.get("imprisonment_months") and self.sentence.get("penalty") in TERM_PENALTIES:
            fine = self.sentence.get("fine") or 0
            if fine:
                return said(self.language == "zh", f"罚金人民币{fine}元", f"a fine of RMB {fine:,}")
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
    recommendation = recommended(record)
    counted = _counted(record)
    reasons = [_circumstance_reason(name, zh) for name in sorted(counted)]
    if recommendation["penalty"] in NON_NUMERIC_PENALTIES:
        return CriminalDecision(record.language, False, recommendation, tuple(sorted(counted)), tuple(reasons))
    months = recommendation.get("imprisonment_months") or 0
    stated = circumstances_in(f"{record.indictment}\n{record.defendant_info}") | {"guilty_plea"}
    base_factor = 1 + _shift(stated)
    factor = 1 + _shift(counted)
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
    penalty = recommendation["penalty"]
    if penalty != "public_surveillance":
        penalty = "criminal_detention" if term and (term < 6 or (ceiling or 7) <= 6) else "fixed_term"
    sentence = {"penalty": penalty, "imprisonment_months": term or None, "probation": probation or False, "fine": fine}
    return CriminalDecision(record.language, False, sentence, tuple(sorted(counted)), tuple(reasons))


def recommended(record: CriminalRecord) -> dict:
    """The sentence the prosecution asks for, read as a court reads the indictment: the case
    file's recommendation; else its 建议 clause (a range starts at its lower bound: 一年以上三年
    以下 -> 12 months; a fine alone: 单处罚金五千元); else, with none, the floor of the charge's
    lowest statutory range (or of the tier the amount found sets). A fine the recommendation
    leaves open, or one the charge's article requires (并处罚金), is set by ``fine_for``."""
    given = dict(record.recommendation)
    clause = recommendation_clause(record.indictment)
    asked = clause.rpartition("判处")[2] or clause
    read = sentence_extract(f"判决如下：被告人犯罪，判处{asked}。", "zh") if clause else None
    penalty = given.get("penalty") or (read.penalty if read else None)
    if penalty in NON_NUMERIC_PENALTIES:
        return {"penalty": penalty, "imprisonment_months": None, "probation": False, "fine": given.get("fine") or 0}
    months = given.get("imprisonment_months")
    if not months:
        months = _clause_months(clause) if clause else None
    if months is None and not (clause and "罚金" in clause and read and read.fine):
        months = _starting_point(record)
    fine = given.get("fine") or (read.fine if read and read.fine else 0)
    if not fine and ((clause and "罚金" in clause) or fine_required(record.charges)):
        fine = fine_for(record.charges, months or 0)
    probation = given.get("probation") or bool(clause and "缓刑" in clause)
    kind = penalty if penalty in TERM_PENALTIES else _kind(clause)
    return {"penalty": kind, "imprisonment_months": months or None, "probation": probation, "fine": fine}


def fine_for(charges: tuple[str, ...], months: int) -> int:
    """The fine a court sets when the law requires one and nobody named a sum."""
    if CORRUPTION & set(charges):
        return next(fine for limit, fine in CORRUPTION_FINES if limit is None or months <= limit)
    return LEAST_FINE


def fine_required(charges: tuple[str, ...]) -> bool:
    """Whether the article punishing any of ``charges`` requires a fine (并处罚金, 并处或者单处
    罚金; not 可以并处), following an article that punishes "依照本法第N条的规定"."""
    for charge in charge_names("、".join(charges)):
        for label in charge_articles(charge):
            text = criminal_law_text(label)
            referred = _REFERRED.search(text)
            if referred:
                number = int(number_parse(referred.group(1)) or 0)
                text += criminal_law_text(
                    f"{number}之{int(number_parse(referred.group(2)) or 0)}" if referred.group(2) else str(number)
                )
            if _MANDATORY_FINE.search(text):
                return True
    return False


def recommendation_clause(indictment: str) -> str:
    """The indictment's last 建议…判处 clause (empty when it recommends nothing)."""
    clauses = _CLAUSE.findall(unicodedata.normalize("NFKC", indictment or ""))
    return clauses[-1] if clauses else ""


def _clause_months(clause: str) -> int | None:
    """The lower bound of the term a 建议 clause names (四至五个月, 6-10个月, 一年以上三年以下)."""
    head = re.split(r"缓刑|罚金|并处|剥夺", clause)[0]
    head = _UNIT_LATER.sub(r"\1\4\2\3\4", head)
    terms = [
        (number_parse(number) or 0) * (12 if unit == "年" else 1) + ((number_parse(extra) or 0) if extra else 0)
        for number, unit, extra in _TERM.findall(head)
    ]
    return round(min(terms)) if terms else None


def _kind(clause: str) -> str:
    return "criminal_detention" if "拘役" in clause else "public_surveillance" if "管制" in clause else "fixed_term"


def _starting_point(record: CriminalRecord) -> int:
    for words, months in TIERS:
        if words in record.indictment:
            return months
    brackets = charge_brackets(record.charges)
    low = min((low for low, _ in brackets), default=0)
    return low or DEFAULT_START


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
