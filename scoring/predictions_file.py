"""Predictions files for ``ljp_metrics --pred`` (JSONL, one prediction a line): a published
system's judgments, ``{"case_id", "judgment"}`` (free text, read by
``court.legaltext.sentences``), or its sentences, ``{"case_id", "imprisonment_months",
"penalty", "probation_months", "fine"}`` (``penalty`` as in the case format, default
``fixed_term``; a null or absent number: none given). Other keys are ignored. Every line that
cannot be used is a ``Problem`` (``FILE:LINE: field: message``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from court.legaltext.penalties import NON_NUMERIC_PENALTIES, PENALTIES, TERM_PENALTIES
from court.legaltext.sentences import Sentence
from legalsim.json_input import Problem, read_records, shown

SENTENCE_FIELDS = ("imprisonment_months", "penalty", "probation_months", "fine")


@dataclass(frozen=True)
class PredictionLine:
    """A usable line: its case, and a judgment to read or the sentence it gives."""

    line: int
    case_id: str
    judgment: str | None
    sentence: Sentence | None


def predictions_read(path: Path) -> tuple[list[PredictionLine], list[Problem]]:
    """The usable lines of a predictions file and a problem for every other one (a case id
    given twice included)."""
    label = str(path)
    records, problems = read_records(path)
    lines: list[PredictionLine] = []
    first_line: dict[str, int] = {}
    for record in records:
        line_problems: list[Problem] = []
        prediction = _prediction(record.data, record.line, label, line_problems)
        if prediction is not None and prediction.case_id in first_line:
            message = f"duplicate {prediction.case_id!r} (first on line {first_line[prediction.case_id]})"
            line_problems.append(Problem(label, record.line, "case_id", message))
        problems.extend(line_problems)
        if prediction is not None and not line_problems:
            first_line[prediction.case_id] = record.line
            lines.append(prediction)
    if not records and not problems:
        problems.append(Problem(label, 1, "file", "holds no predictions"))
    return lines, problems


def _prediction(data: object, line: int, label: str, problems: list[Problem]) -> PredictionLine | None:
    def problem(field: str, message: str) -> None:
        problems.append(Problem(label, line, field, message))

    if not isinstance(data, dict):
        problem("record", 'must be a JSON object {"case_id", "judgment"} or {"case_id", "imprisonment_months", ...}')
        return None
    case_id = data.get("case_id")
    if not isinstance(case_id, str) or not case_id.strip():
        problem("case_id", f"must be a non-empty string, got {shown(case_id)}")
    given = [key for key in SENTENCE_FIELDS if key in data]
    judgment = data.get("judgment")
    if judgment is not None and not isinstance(judgment, str):
        problem("judgment", f"must be a string, got {shown(judgment)}")
    if judgment is not None and given:
        problem("judgment", f"give the judgment or the sentence ({', '.join(given)}), not both")
    elif judgment is None and not given:
        problem("record", f"needs judgment or the sentence fields {', '.join(SENTENCE_FIELDS)}")
    sentence = _sentence(data, problem) if given and judgment is None else None
    if problems or not isinstance(case_id, str):
        return None
    return PredictionLine(line, case_id, judgment, sentence)


def _sentence(data: dict, problem: Callable[[str, str], None]) -> Sentence:
    penalty = data.get("penalty") or "fixed_term"
    if penalty not in PENALTIES:
        problem("penalty", f"must be one of {', '.join(PENALTIES)}, got {shown(penalty)}")
    numbers = {}
    for key in ("imprisonment_months", "probation_months", "fine"):
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value < 0):
            problem(key, f"must be a number >= 0 or null, got {shown(value)}")
            value = None
        numbers[key] = value
    months = numbers["imprisonment_months"]
    if penalty in NON_NUMERIC_PENALTIES:
        months = None
    elif penalty not in TERM_PENALTIES:
        months = 0
    probation = numbers["probation_months"] or 0
    return Sentence(months, probation > 0, probation, numbers["fine"], penalty)
