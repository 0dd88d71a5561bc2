"""Judgment prediction for criminal cases (SimCourt, "Judgment Prediction Evaluation",
formulas (1)-(2), Table 1) and legal-article matching (AgentsCourt §5.1 and Appendix E.1);
see docs/sources.md. Sentences are read from judgments by ``court.legaltext.sentences``.

Two rules decide an imprisonment **hit** (``HIT_RULES``):

* ``project`` (the default; LegalSim's reading of SimCourt's prose): the predicted and the
  actual imprisonment fall in the same statutory range: the case's
  ``sentence.statutory_range_months`` when it gives one (then the prediction must lie in it),
  else a bracket of ``STATUTORY_RANGES`` for the case's charges holding both, or, for a charge
  not there, ``GENERIC_RANGES``. A prediction equal to the truth always hits; two non-numeric
  sentences (life, death) hit each other.
* ``simcourt`` (SimCourt's formula (1)): a hit iff L <= P <= U, [L, U] the case's
  ``statutory_range_months``, else the bracket of ``STATUTORY_RANGES`` for its charges that
  holds the true sentence; a charge with no range there is reported as "no range" and left
  out of the hit rate, never given generic tiers. A life or death prediction counts as
  ``LIFE_OR_DEATH_MONTHS`` (so write the top of a range that reaches life or death as
  1000); an acquittal case never hits; a prediction without a number (nothing read) never
  hits and counts as 0 months in the relative error.

**Accuracy** (probation, fine; both rules): both judgments say it applies, or both say it does
not; a prediction that says nothing counts as "does not apply". **Relative error**
|P - T| / T (formula (2)), leaving out cases whose truth T is 0 or non-numeric (life, death) as
the paper does; under the project rule a prediction without a number is left out too. Means
and population standard deviations.

AgentsCourt E.1 extracts the articles from free text by pattern, matches them strictly and
micro-averages: matched, predicted and reference counts are summed over cases first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean, pstdev

from court.legaltext.penalties import (
    LIFE_OR_DEATH_MONTHS,
    NON_NUMERIC_PENALTIES,
    TERM_PENALTIES,
    Bracket,
    charge_brackets,
)
from court.legaltext.sentences import Sentence
from court.legaltext.text import article_citations

HIT_RULES = ("project", "simcourt")
GENERIC_RANGES: tuple[Bracket, ...] = ((0, 36), (36, 120), (120, 180))
"""For a charge not in ``STATUTORY_RANGES`` (project rule only): the Criminal Law's most common
tiers, 三年以下 / 三年以上十年以下 / 十年以上 (theft, fraud, embezzlement and many more use them)."""


def sentence_from_case(case: dict) -> Sentence:
    """The real sentence of a case seed (``sentence``: penalty, months, probation as months or
    a bool, fine)."""
    sentence = case.get("sentence") or {}
    probation = sentence.get("probation")
    if isinstance(probation, bool):
        probation_applies, probation_months = probation, (None if probation else 0)
    elif isinstance(probation, int | float):
        probation_applies, probation_months = probation > 0, probation
    else:
        probation_applies, probation_months = None, None
    penalty = sentence.get("penalty") or "fixed_term"
    months = _numeric(sentence.get("imprisonment_months"))
    if penalty in NON_NUMERIC_PENALTIES:
        months = None
    elif penalty not in TERM_PENALTIES:
        months = 0
    return Sentence(months, probation_applies, probation_months, _numeric(sentence.get("fine")), penalty)


def case_statutory_range(case: dict) -> Bracket | None:
    """``sentence.statutory_range_months`` [L, U] of a case seed, when it gives one."""
    bounds = (case.get("sentence") or {}).get("statutory_range_months")
    return (int(bounds[0]), int(bounds[1])) if bounds else None


def _numeric(value: object) -> float | None:
    """A number of the case file; anything else ("life", null, absent) is non-numeric."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if float(value).is_integer() else float(value)


# --- statutory ranges -----------------------------------------------------------------------


def statutory_brackets(charges: Iterable[str]) -> tuple[Bracket, ...]:
    """The brackets of every known charge, or ``GENERIC_RANGES`` when none is known."""
    return charge_brackets(charges) or GENERIC_RANGES


def imprisonment_hit(
    predicted_months: float | None,
    actual_months: float | None,
    charges: Sequence[str],
    case_range: Bracket | None = None,
) -> bool:
    """The project rule's hit (module docstring)."""
    if predicted_months is None or actual_months is None:
        return predicted_months is None and actual_months is None
    if predicted_months == actual_months:
        return True
    if case_range is not None:
        return case_range[0] <= predicted_months <= case_range[1]
    return any(
        low <= actual_months <= high and low <= predicted_months <= high for low, high in statutory_brackets(charges)
    )


def simcourt_range(actual: Sentence, charges: Sequence[str], case_range: Bracket | None) -> Bracket | None:
    """[L, U] of SimCourt's formula (1): the case's own range, else the charge's bracket
    holding the true sentence (the lower at a shared bound); None: no range."""
    if case_range is not None:
        return case_range
    truth = _simcourt_months(actual)
    if truth is None:
        return None
    return next(((low, high) for low, high in charge_brackets(charges) if low <= truth <= high), None)


def _simcourt_months(sentence: Sentence) -> float | None:
    """Months as SimCourt's hit compares them: life or death as ``LIFE_OR_DEATH_MONTHS``."""
    if sentence.penalty in NON_NUMERIC_PENALTIES:
        return LIFE_OR_DEATH_MONTHS
    return sentence.imprisonment_months


def simcourt_hit(predicted: Sentence, actual: Sentence, bracket: Bracket | None) -> bool | None:
    """SimCourt's hit (module docstring); None when there is no range to hit."""
    if actual.penalty == "acquitted":
        return False
    if bracket is None:
        return None
    months = _simcourt_months(predicted)
    return months is not None and bracket[0] <= months <= bracket[1]


# --- scoring --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseScore:
    """One case's figures: ``hit`` is None with no range to hit (simcourt rule); an error or
    a correctness is None when the case is left out of that figure."""

    hit: bool | None
    statutory_range_months: Bracket | None
    range_source: str
    imprisonment_rel_error: float | None
    probation_correct: bool | None
    probation_rel_error: float | None
    fine_correct: bool | None
    fine_rel_error: float | None


def case_score(
    predicted: Sentence,
    actual: Sentence,
    charges: Sequence[str],
    case_range: Bracket | None,
    hit_rule: str = "project",
) -> CaseScore:
    if hit_rule == "simcourt":
        bracket = simcourt_range(actual, charges, case_range)
        hit = simcourt_hit(predicted, actual, bracket)
        source = "case" if case_range else ("charges" if bracket else "no range")
        pairs = [
            (_simcourt_months(predicted) or 0, actual.imprisonment_months),
            (predicted.probation_months or 0, actual.probation_months),
            (predicted.fine or 0, actual.fine),
        ]
    else:
        bracket = case_range
        hit = imprisonment_hit(predicted.imprisonment_months, actual.imprisonment_months, charges, case_range)
        source = "case" if case_range else ("charges" if charge_brackets(charges) else "generic tiers")
        pairs = [
            (predicted.imprisonment_months, actual.imprisonment_months),
            (predicted.probation_months, actual.probation_months),
            (predicted.fine, actual.fine),
        ]
    imprisonment, probation, fine = (_relative_error(p, t) for p, t in pairs)
    return CaseScore(
        hit,
        bracket,
        source,
        imprisonment,
        _correct(_probation_applies(predicted), _probation_applies(actual)),
        probation,
        _correct(_fine_applies(predicted), _fine_applies(actual)),
        fine,
    )


def _relative_error(predicted: float | None, truth: float | None) -> float | None:
    if predicted is None or truth is None or truth <= 0:
        return None
    return abs(predicted - truth) / truth


def _probation_applies(sentence: Sentence) -> bool | None:
    if sentence.probation is None and sentence.probation_months is None:
        return None
    return bool(sentence.probation) or (sentence.probation_months or 0) > 0


def _fine_applies(sentence: Sentence) -> bool | None:
    return None if sentence.fine is None else sentence.fine > 0


def _correct(predicted: bool | None, actual: bool | None) -> bool | None:
    """Both apply or both do not; None when the truth is unknown (a prediction that says
    nothing counts as "does not apply")."""
    return None if actual is None else bool(predicted) == actual


LJPRecord = tuple[Sentence, Sentence, list[str], Bracket | None]
"""(predicted, actual, charges, the case's own statutory range)."""


def ljp_metrics(records: list[LJPRecord], hit_rule: str = "project") -> dict:
    """Hit rate, accuracies and relative errors over (predicted, actual, charges, case range)
    records, grouped per aspect; a value is None when there is nothing to compute it on."""
    scores = [case_score(*record, hit_rule=hit_rule) for record in records]
    return {
        "n_cases": len(records),
        "imprisonment": {
            "hit_rate": _mean([score.hit for score in scores]),
            **_error_summary([score.imprisonment_rel_error for score in scores]),
        },
        "probation": {
            "accuracy": _mean([score.probation_correct for score in scores]),
            **_error_summary([score.probation_rel_error for score in scores]),
        },
        "fine": {
            "accuracy": _mean([score.fine_correct for score in scores]),
            **_error_summary([score.fine_rel_error for score in scores]),
        },
    }


def ljp_summary(scores: list[CaseScore], articles: dict) -> dict:
    """The figures of ``ljp_metrics --pred`` (the contract's flat keys)."""
    summary: dict[str, float | int | None] = {
        "n": len(scores),
        "imprisonment_hit_rate": _mean([score.hit for score in scores]),
    }
    for aspect in ("imprisonment", "probation", "fine"):
        if aspect != "imprisonment":
            summary[f"{aspect}_accuracy"] = _mean([getattr(score, f"{aspect}_correct") for score in scores])
        errors = _error_summary([getattr(score, f"{aspect}_rel_error") for score in scores])
        summary[f"{aspect}_rel_error"] = errors["relative_error_mean"]
        summary[f"{aspect}_rel_error_sd"] = errors["relative_error_sd"]
    return summary | {f"articles_{key}": articles[key] for key in ("precision", "recall", "f1")}


def _mean(values: Iterable[bool | None]) -> float | None:
    counted = [value for value in values if value is not None]
    return fmean(counted) if counted else None


def _error_summary(errors: Iterable[float | None]) -> dict[str, float | int | None]:
    counted = [error for error in errors if error is not None]
    return {
        "relative_error_mean": fmean(counted) if counted else None,
        "relative_error_sd": pstdev(counted) if counted else None,
        "n_error": len(counted),
    }


# --- AgentsCourt legal articles ----------------------------------------------------------------


def article_prf(predicted_texts: list[str], references: list[list[str]]) -> dict[str, float | int | None]:
    """Strict, micro-averaged article matching: each case's articles are extracted from its
    free text and from each reference string; counts are summed before the ratios."""
    matched = predicted = reference = 0
    for text, case_references in zip(predicted_texts, references, strict=True):
        counts = article_counts(text, case_references)
        matched, predicted, reference = (
            matched + counts["matched"],
            predicted + counts["predicted"],
            reference + counts["reference"],
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


def article_counts(text: str, references: list[str]) -> dict[str, int]:
    """One case's article counts: matched, predicted (cited in ``text``), reference."""
    generated = article_citations(text)
    wanted = frozenset().union(*(article_citations(item) for item in references))
    return {"matched": len(generated & wanted), "predicted": len(generated), "reference": len(wanted)}
