"""Reading ratings files (CSV with header, or JSONL with the same keys) row by row, with
every problem reported as ``FILE:LINE: field: message``.

Every CSV cell goes through ``legalsim.spreadsheet.cell_unescape``, the inverse of the escape
``export_ratings`` applies against formula injection: a cell that starts with ``'`` followed
(after any further quotes) by ``=``, ``+``, ``-``, ``@``, tab or CR loses that one quote, so
``'=SUM(1)`` reads as ``=SUM(1)`` and ``''=x`` as ``'=x``; any other cell is read as written.
JSONL is not a spreadsheet format and is read as written."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from annotation.rubric import RubricDefinition, pair_split
from legalsim.spreadsheet import cell_unescape
from trials.case_file import Problem

RATING_KEYS = ("trajectory_id", "rubric", "item", "rater", "source", "score", "reason")


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
    # Line endings are left as they are (no newline translation): a quoted CSV cell keeps its
    # line breaks, CR and CRLF included, as the csv module documents for ``newline=""``.
    text = path.read_bytes().decode("utf-8-sig")
    if path.suffix == ".jsonl":
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    yield number, json.loads(line)
                except json.JSONDecodeError as error:
                    yield number, Problem(str(path), number, "json", f"invalid JSON: {error.msg}")
        return
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [key for key in RATING_KEYS if key not in (reader.fieldnames or [])]
    if missing:
        yield 1, Problem(str(path), 1, "header", f"missing column(s): {', '.join(missing)}")
        return
    for row in reader:
        yield reader.line_num, {key: cell_unescape(value) for key, value in row.items()}


def read_ratings(path: Path, rubrics: Mapping[str, RubricDefinition]) -> tuple[list[RatingRow], list[Problem]]:
    """Parse and validate every row; a row with any problem is reported, never half-kept."""
    rows: list[RatingRow] = []
    problems: list[Problem] = []
    seen: dict[tuple, int] = {}
    try:
        raw_rows = list(_raw_rows(path))
    except (OSError, UnicodeDecodeError) as error:
        return [], [Problem(str(path), 1, "file", f"cannot be read: {error}")]
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
            problem("rubric", f"unknown rubric {values['rubric']!r}; import it with import_rubric")
        if rubric is not None and values["item"] not in rubric.item_ids:
            problem("item", f"unknown item {values['item']!r} of rubric {rubric.id!r}")
        source = values["source"]
        if source not in ("human", "llm"):
            problem("source", f"must be human or llm, got {source!r}")
        score = _number(values["score"])
        if score is None:
            problem("score", f"must be a number, got {values['score']!r}")
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
                    f"a pairwise rating names two trajectories as FIRST|SECOND, got {values['trajectory_id']!r}",
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
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def _show(score: float) -> str:
    return str(int(score)) if score == int(score) else str(score)
