"""Reading ratings files (CSV with header, or JSONL with the same keys) row by row, with
every problem reported as ``FILE:LINE: field: message``.

Every CSV cell goes through ``legalsim.spreadsheet.cell_unescape``, the inverse of the escape
``export_ratings`` applies against formula injection: a cell that starts with ``'`` followed
(after any further quotes) by ``=``, ``+``, ``-``, ``@``, tab or CR loses that one quote, so
``'=SUM(1)`` reads as ``=SUM(1)`` and ``''=x`` as ``'=x``; any other cell is read as written.
JSONL is not a spreadsheet format and is read as written."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from annotation.rubric import RubricDefinition, pair_split
from legalsim.json_input import Problem, UnreadableFile, file_text, read_records, shown
from legalsim.spreadsheet import cell_unescape

RATING_KEYS = ("trajectory_id", "rubric", "item", "rater", "source", "score", "reason")
MAX_NAME = 200  # trajectory ids and rater names, as the Rating model stores them


@dataclass(frozen=True)
class RatingRow:
    line: int
    trajectory_id: str
    rubric: str
    item: str
    rater: str
    source: str
    score: float
    reason: str

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.rubric, self.trajectory_id, self.item, self.rater, self.source)


def _raw_rows(path: Path) -> Iterator[tuple[int, object]]:
    """(line, row) in file order, a ``Problem`` for a line that could not be read; raises
    ``UnreadableFile`` for a file that is not UTF-8 text."""
    if path.suffix.lower() == ".jsonl":
        records, problems = read_records(path)
        rows = [(record.line, record.data) for record in records] + [(problem.line, problem) for problem in problems]
        yield from sorted(rows, key=lambda row: row[0])
        return
    # Lines end at LF (CRLF included), as in every other imported file; the csv module joins
    # the lines of a quoted cell itself. A file with no LF at all ends its lines with CR (old
    # Excel for Mac).
    text = file_text(path)
    lines = (text if "\n" in text else text.replace("\r", "\n")).split("\n")
    reader = csv.DictReader([line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else []))
    try:
        missing = [key for key in RATING_KEYS if key not in (reader.fieldnames or [])]
        if missing:
            yield 1, Problem(str(path), 1, "header", f"missing column(s): {', '.join(missing)}")
            return
        for row in reader:
            yield reader.line_num, {key: cell_unescape(value) for key, value in row.items()}
    except csv.Error as error:
        line = max(reader.reader.line_num, 1)  # DictReader.line_num lags a row that failed
        yield line, Problem(str(path), line, "csv", _csv_problem(error))


def _csv_problem(error: csv.Error) -> str:
    if "new-line character" in str(error):
        return "a carriage return (CR) outside quotes; quote the cell, or end lines with LF or CRLF"
    if "field limit" in str(error):
        return f"a cell is longer than {csv.field_size_limit()} characters"
    return f"cannot be read as CSV: {error}"


def read_ratings(path: Path, rubrics: Mapping[str, RubricDefinition]) -> tuple[list[RatingRow], list[Problem]]:
    """Parse and validate every row; a row with any problem is reported, never half-kept."""
    rows: list[RatingRow] = []
    problems: list[Problem] = []
    seen: dict[tuple, int] = {}
    try:
        raw_rows = list(_raw_rows(path))
    except UnreadableFile as error:
        return [], [error.problem]
    for line, raw in raw_rows:
        if isinstance(raw, Problem):
            problems.append(raw)
            continue
        row_problems: list[Problem] = []

        def problem(field: str, message: str, line: int = line, row_problems: list = row_problems) -> None:
            row_problems.append(Problem(str(path), line, field, message))

        if not isinstance(raw, dict):
            problem("row", "must be a JSON object")
            problems.extend(row_problems)
            continue
        values = {key: raw.get(key) for key in RATING_KEYS}
        for key in ("trajectory_id", "rubric", "item", "rater"):
            if not isinstance(values[key], str) or not values[key].strip():
                problem(key, "is required")
        rubric = rubrics.get(values["rubric"]) if isinstance(values["rubric"], str) else None
        if isinstance(values["rubric"], str) and values["rubric"].strip() and rubric is None:
            problem("rubric", f"unknown rubric {shown(values['rubric'])}; import it with import_rubric")
        if rubric is not None and values["item"] not in rubric.item_ids:
            problem("item", f"unknown item {shown(values['item'])} of rubric {rubric.id!r}")
        for key in ("trajectory_id", "rater"):
            if isinstance(values[key], str) and len(values[key].strip()) > MAX_NAME:
                problem(key, f"must be at most {MAX_NAME} characters, got {len(values[key].strip())}")
        source = values["source"]
        if source not in ("human", "llm"):
            problem("source", f"must be human or llm, got {shown(source)}")
        score = _number(values["score"])
        if score is None:
            problem("score", f"must be a number, got {shown(values['score'])}")
        elif rubric is not None:
            if not rubric.scale_min <= score <= rubric.scale_max:
                problem("score", f"{_show(score)} is outside the scale {rubric.scale_min}-{rubric.scale_max}")
            elif rubric.pairwise and score not in (-1, 0, 1):
                problem(
                    "score", f"a pairwise answer is 1 (first preferred), 0 (draw) or -1 (second), got {_show(score)}"
                )
            elif source == "human" and score != int(score):
                problem("score", f"a person's score must be a whole number, got {_show(score)}")
        if rubric is not None and rubric.pairwise and isinstance(values["trajectory_id"], str):
            if values["trajectory_id"].strip() and pair_split(values["trajectory_id"].strip()) is None:
                problem(
                    "trajectory_id",
                    f"a pairwise rating names two trajectories as FIRST|SECOND, got {shown(values['trajectory_id'])}",
                )
        reason = values["reason"] if values["reason"] is not None else ""
        if not isinstance(reason, str):
            problem("reason", "must be text")
        if row_problems:
            problems.extend(row_problems)
            continue
        row = RatingRow(
            line,
            values["trajectory_id"].strip(),
            rubric.id,
            values["item"],
            values["rater"].strip(),
            source,
            score,
            reason,
        )
        if row.key in seen:
            problem(
                "rater",
                f"duplicate rating of {row.item} on {row.trajectory_id} by {row.rater} (first on line {seen[row.key]})",
            )
            problems.extend(row_problems)
            continue
        seen[row.key] = line
        rows.append(row)
    return rows, problems


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (ValueError, OverflowError):  # OverflowError: an integer beyond a float's range
        return None
    return number if math.isfinite(number) else None


def _show(score: float) -> str:
    return str(int(score)) if score == int(score) else str(score)
