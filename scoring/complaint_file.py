"""``score_complaint --pred FILE``: complaints written outside LegalSim, one a line
(``{"case_id", "complaint"}``; other keys are ignored), scored against each case's reference
complaint (``scoring.complaint``). A line that cannot be scored (not such an object, a
case id given twice, a case not in the library, a case without a reference complaint) is a
``Problem`` (``FILE:LINE: field: message``) and the others are scored all the same."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from legalsim.json_input import Problem, read_records, shown
from scoring.complaint import complaint_score, reference_complaint
from scoring.scorers import Scorer
from trials.models import Case


@dataclass(frozen=True)
class ComplaintLine:
    line: int
    case_id: str
    complaint: str


def complaints_read(path: Path) -> tuple[list[ComplaintLine], list[Problem]]:
    """The usable lines of the file, and a problem for every other one."""
    label = str(path)
    records, problems = read_records(path)
    lines: list[ComplaintLine] = []
    first_line: dict[str, int] = {}
    for record in records:
        found = [Problem(label, record.line, field, message) for field, message in _faults(record.data, first_line)]
        problems.extend(found)
        if not found:
            first_line[record.data["case_id"]] = record.line
            lines.append(ComplaintLine(record.line, record.data["case_id"], record.data["complaint"]))
    if not records and not problems:
        problems.append(Problem(label, 1, "file", "holds no complaints"))
    return lines, problems


def _faults(data: Any, first_line: dict[str, int]) -> list[tuple[str, str]]:
    """What is wrong with a line, as (field, message) pairs."""
    if not isinstance(data, dict):
        return [("record", 'must be a JSON object {"case_id", "complaint"}')]
    faults = []
    case_id, complaint = data.get("case_id"), data.get("complaint")
    if not isinstance(case_id, str) or not case_id.strip():
        faults.append(("case_id", f"must be a non-empty string, got {shown(case_id)}"))
    elif case_id in first_line:
        faults.append(("case_id", f"duplicate {case_id!r} (first on line {first_line[case_id]})"))
    if not isinstance(complaint, str):
        faults.append(("complaint", f"must be a string, got {shown(complaint)}"))
    return faults


def complaints_score(*, path: Path, scorer: Scorer) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Every scorable complaint of the file as ``{"case_id", "fields", "standardability",
    "professionalism"}``, in the file's order, and the lines that were not scored."""
    lines, problems = complaints_read(path)
    cases = Case.objects.in_bulk([line.case_id for line in lines])
    scored = []
    for line in lines:
        case = cases.get(line.case_id)
        reference = reference_complaint(case.seed) if case else None
        if reference is None:
            problems.append(Problem(str(path), line.line, "case_id", _unscorable(case, line.case_id)))
            continue
        scored.append({"case_id": line.case_id} | complaint_score(line.complaint, reference, scorer))
    return scored, sorted(problems, key=lambda problem: problem.line)


def _unscorable(case: Case | None, case_id: str) -> str:
    if case is None:
        return f"no case {case_id!r} in the library (import it with import_cases first)"
    if case.procedure != "civil":
        return f"case {case_id!r} is {case.procedure}; only a civil case has a reference complaint"
    return f"case {case_id!r} has no reference complaint (it needs a plaintiff, claims and facts_and_reasons)"
