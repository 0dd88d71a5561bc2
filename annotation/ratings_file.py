"""Reading ratings files (CSV with header, or JSONL with the same keys) row by row, with
every problem reported as ``FILE:LINE: field: message``.

Every CSV cell goes through ``legalsim.spreadsheet.cell_unescape``, the inverse of the escape
``export_ratings`` applies against formula injection: a cell, or a part of it after ``,``,
``;``, tab or a line break, that starts with ``'`` followed (after any further quotes) by a
formula trigger loses that one quote, so ``'=SUM(1)`` reads as ``=SUM(1)``, ``ok;'=1`` as
``ok;=1`` and ``''=x`` as ``'=x``; any other text is read as written.
JSONL is not a spreadsheet format and is read as written."""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from annotation.rubric import RubricDefinition
from annotation.stages import NA, item_stages
from legalsim.json_input import Problem, UnreadableFile, file_text, read_records, shown
from legalsim.spreadsheet import cell_unescape

RATING_KEYS = ("trajectory_id", "rubric", "item", "rater", "source", "score", "reason")
STUDY_KEY = "study"
"""An optional column: the study a person's rating belongs to (its name)."""
MAX_NAME = 200  # trajectory ids and rater names, as the Rating model stores them


@dataclass(frozen=True)
class RatingRow:
    line: int
    trajectory_id: str
    rubric: str
    item: str
    rater: str
    source: str
    score: float | None
    """``None``: N/A, the item's stage is absent from the trajectory."""
    reason: str
    study: str = ""
    """The name of the study the rating belongs to; empty for none."""

    @property
    def key(self) -> tuple[str, str, str, str, str, str]:
        return (self.rubric, self.trajectory_id, self.item, self.rater, self.source, self.study)


StageUnits = Callable[[Iterable[str]], Mapping[str, frozenset[str]]]
"""Trajectory ids -> the stage units of those stored here (``annotation.stages``)."""


def table_rows(path: Path, keys: Iterable[str]) -> Iterator[tuple[int, object]]:
    """(line, row) of a CSV (with a header naming every one of ``keys``) or JSONL file in
    file order, a ``Problem`` for a line that could not be read; raises ``UnreadableFile``
    for a file that is not UTF-8 text. Ratings files and study references read alike."""
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
        missing = [key for key in keys if key not in (reader.fieldnames or [])]
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


def read_ratings(
    path: Path,
    rubrics: Mapping[str, RubricDefinition],
    *,
    stage_units: StageUnits | None = None,
    studies: Mapping[str, str] | None = None,
) -> tuple[list[RatingRow], list[Problem]]:
    """Parse and validate every row; a row with any problem is reported, never half-kept.

    ``stage_units`` tells which stages the stored trajectories have, to check ``NA`` scores
    (without it, or for a trajectory known only by its id, an item's stage cannot be checked);
    ``studies`` maps the names of studies to their rubrics, for the optional ``study`` column.
    """
    rows: list[RatingRow] = []
    problems: list[Problem] = []
    seen: dict[tuple, int] = {}
    try:
        raw_rows = list(table_rows(path, RATING_KEYS))
    except UnreadableFile as error:
        return [], [error.problem]
    trajectory_ids = {
        raw["trajectory_id"].strip()
        for _line, raw in raw_rows
        if isinstance(raw, dict) and isinstance(raw.get("trajectory_id"), str)
    }
    context = _Context(
        rubrics=rubrics,
        item_stages={rubric_id: item_stages(rubric) for rubric_id, rubric in rubrics.items()},
        units=stage_units(trajectory_ids) if stage_units is not None else {},
        studies=studies or {},
    )
    for line, raw in raw_rows:
        if isinstance(raw, Problem):
            problems.append(raw)
            continue
        row, found = _row(line, raw, context) if isinstance(raw, dict) else (None, [("row", "must be a JSON object")])
        if row is not None and row.key in seen:
            message = (
                f"duplicate rating of {row.item} on {row.trajectory_id} by {row.rater} (first on line {seen[row.key]})"
            )
            row, found = None, [("rater", message)]
        if row is None:
            problems.extend(Problem(str(path), line, field, message) for field, message in found)
            continue
        seen[row.key] = line
        rows.append(row)
    return rows, problems


@dataclass(frozen=True)
class _Context:
    """What a row is checked against."""

    rubrics: Mapping[str, RubricDefinition]
    item_stages: Mapping[str, Mapping[str, str]]
    units: Mapping[str, frozenset[str]]
    studies: Mapping[str, str]


def _row(line: int, raw: dict, context: _Context) -> tuple[RatingRow | None, list[tuple[str, str]]]:
    """The row, or ``None`` and its problems as (field, message)."""
    values = {key: raw.get(key) for key in RATING_KEYS}
    found: list[tuple[str, str]] = []

    def report(field: str, message: str) -> None:
        found.append((field, message))

    for key in ("trajectory_id", "rubric", "item", "rater"):
        if not isinstance(values[key], str) or not values[key].strip():
            report(key, "is required")
    rubric = context.rubrics.get(values["rubric"]) if isinstance(values["rubric"], str) else None
    if isinstance(values["rubric"], str) and values["rubric"].strip() and rubric is None:
        report("rubric", f"unknown rubric {shown(values['rubric'])}; import it with import_rubric")
    if rubric is not None and values["item"] not in rubric.item_ids:
        report("item", f"unknown item {shown(values['item'])} of rubric {rubric.id!r}")
    for key in ("trajectory_id", "rater"):
        if isinstance(values[key], str) and len(values[key].strip()) > MAX_NAME:
            report(key, f"must be at most {MAX_NAME} characters, got {len(values[key].strip())}")
    source = values["source"]
    if source not in ("human", "llm"):
        report("source", f"must be human or llm, got {shown(source)}")
    trajectory_id = values["trajectory_id"].strip() if isinstance(values["trajectory_id"], str) else ""
    item = values["item"] if isinstance(values["item"], str) else None
    stage = context.item_stages[values["rubric"]].get(item) if rubric is not None else None
    score = _score(values["score"], rubric, source, stage, context.units.get(trajectory_id), trajectory_id, report)
    if rubric is not None and trajectory_id and rubric.kind.unit(trajectory_id) is None:
        report(
            "trajectory_id",
            f"a pairwise rating names two trajectories as FIRST|SECOND, got {shown(values['trajectory_id'])}",
        )
    reason = values["reason"] if values["reason"] is not None else ""
    if not isinstance(reason, str):
        report("reason", "must be text")
    study = _study(raw.get(STUDY_KEY), rubric, source, context.studies, report)
    if found:
        return None, found
    row = RatingRow(
        line, trajectory_id, rubric.id, values["item"], values["rater"].strip(), source, score, reason, study
    )
    return row, []


def _score(
    value: object,
    rubric: RubricDefinition | None,
    source: object,
    stage: str | None,
    present: frozenset[str] | None,
    trajectory_id: str,
    report: Callable[[str, str], None],
) -> float | None:
    """The score (``None`` for NA) of a row on an item rating ``stage`` (``None``: no stage) of
    a trajectory whose stage units are ``present`` (``None``: not stored, so not checked)."""
    if isinstance(value, str) and value.strip().upper() == NA:
        if stage is None:
            if rubric is not None:
                report("score", "NA is only for an item whose stage the trajectory lacks; this item rates no stage")
        elif present is not None and stage in present:
            report("score", f"NA refused: trajectory {trajectory_id} has a {stage} stage; give a score")
        return None
    score = _number(value)
    if score is None:
        report("score", f"must be a number, got {shown(value)}")
    elif rubric is not None:
        if not rubric.scale_min <= score <= rubric.scale_max:
            report("score", f"{_show(score)} is outside the scale {rubric.scale_min}-{rubric.scale_max}")
        elif problem := rubric.kind.file_score_problem(score):
            report("score", problem)
        elif source == "human" and score != int(score):
            report("score", f"a person's score must be a whole number, got {_show(score)}")
        elif stage is not None and present is not None and stage not in present:
            report("score", f"trajectory {trajectory_id} has no {stage} stage; its items take {NA}, not a number")
    return score


def _study(
    value: object,
    rubric: RubricDefinition | None,
    source: object,
    studies: Mapping[str, str],
    report: Callable[[str, str], None],
) -> str:
    """The optional ``study`` column: the name of a study on the row's rubric, or empty."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return ""
    if not isinstance(value, str):
        report(STUDY_KEY, "must be the name of a study")
        return ""
    name = value.strip()
    if name not in studies:
        report(STUDY_KEY, f"no study {shown(name)}")
    elif rubric is not None and studies[name] != rubric.id:
        report(STUDY_KEY, f"study {shown(name)} rates the rubric {studies[name]!r}, not {rubric.id!r}")
    elif source == "llm":
        report(STUDY_KEY, "a judge's scores belong to no study; leave it empty")
    return name


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
