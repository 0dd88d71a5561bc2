"""Reading a study's reference scores (``study_gold STUDY --file FILE``): CSV with a header or
JSONL, one row per item of a training or gold trajectory, with the keys ``trajectory_id,
item, score, reason, kind``. Every problem is reported as ``FILE:LINE: field: message``.

Rules, checked against the study before anything is stored:

- ``kind`` is ``training`` or ``gold``, one kind for every row of a trajectory (and the kind
  the study already gave it, if any);
- the trajectory is stored here and is not one of the study's own units: reference
  trajectories are rated apart from them;
- ``score`` is a whole number within the rubric's scale, or ``NA`` (any case) for an item
  whose stage the trajectory lacks, and only then (``annotation.stages``);
- a training row with a score needs its ``reason`` (the rater reads it as feedback), and a
  training trajectory needs a row for every item its stages allow;
- an item appears once per trajectory.

CSV cells go through ``legalsim.spreadsheet.cell_unescape`` as ``import_ratings`` reads them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from annotation.models import Assignment
from annotation.ratings_file import table_rows
from annotation.rubric import RubricDefinition
from annotation.stages import NA, item_stages, items_not_applicable, stage_units
from annotation.trajectory_access import trajectories_for_studies
from legalsim.json_input import Problem, UnreadableFile, shown

REFERENCE_KEYS = ("trajectory_id", "item", "score", "reason", "kind")
KINDS = (Assignment.Kind.TRAINING.value, Assignment.Kind.GOLD.value)
REASON_MAX = 2000
MAX_ID = 200  # as Reference.trajectory_id stores it


@dataclass(frozen=True)
class ReferenceRow:
    line: int
    trajectory_id: str
    item: str
    score: float | None
    """``None``: N/A, the item's stage is absent from the trajectory."""
    reason: str
    kind: str


@dataclass(frozen=True)
class StudyFacts:
    """What the rows of one study's file are checked against."""

    rubric: RubricDefinition
    units: frozenset[str]
    """The study's own trajectories."""
    kinds: Mapping[str, str]
    """Trajectory id -> its kind, for the study's reference trajectories stored already."""


def references_read(path: Path, facts: StudyFacts) -> tuple[list[ReferenceRow], list[Problem]]:
    """Every row checked; the rows only when the whole file is right (else every problem)."""
    try:
        raw_rows = list(table_rows(path, REFERENCE_KEYS))
    except UnreadableFile as error:
        return [], [error.problem]
    if not raw_rows:
        return [], [Problem(str(path), 1, "file", "lists no reference score (one row per item of a trajectory)")]
    wanted = {str(raw.get("trajectory_id", "")).strip() for _line, raw in raw_rows if isinstance(raw, dict)}
    stored = {pk: (procedure, stage_ids) for pk, procedure, stage_ids in _stored(wanted)}
    rows: list[ReferenceRow] = []
    problems: list[Problem] = []
    for line, raw in raw_rows:
        if isinstance(raw, Problem):
            problems.append(raw)
            continue
        found: list[tuple[str, str]] = []
        row = _row(line, raw, facts, stored, found) if isinstance(raw, dict) else None
        if not isinstance(raw, dict):
            found.append(("row", "must be a JSON object"))
        problems.extend(Problem(str(path), line, field, message) for field, message in found)
        if row is not None and not found:
            rows.append(row)
    problems += _file_problems(path, rows, facts, stored)
    problems.sort(key=lambda problem: problem.line)
    return (rows, []) if not problems else ([], problems)


def _stored(ids: set[str]) -> list[tuple[str, str, list[str]]]:
    """The stored trajectories among ``ids`` that may be rated at all: a private trial's only
    with its course's permission (``annotation.trajectory_access``); the others read as unknown."""
    allowed = trajectories_for_studies().filter(pk__in=ids)
    return list(allowed.values_list("pk", "procedure", "stage_ids"))


def _row(
    line: int,
    raw: dict,
    facts: StudyFacts,
    stored: Mapping[str, tuple[str, list[str]]],
    found: list[tuple[str, str]],
) -> ReferenceRow | None:
    """The row, or ``None``; its problems go to ``found`` as (field, message)."""
    trajectory_id = _text(raw, "trajectory_id", found)
    item = _text(raw, "item", found)
    kind = raw.get("kind")
    if kind not in KINDS:
        found.append(("kind", f"must be training or gold, got {shown(kind)}"))
    if trajectory_id:
        if len(trajectory_id) > MAX_ID:
            found.append(("trajectory_id", f"must be at most {MAX_ID} characters, got {len(trajectory_id)}"))
        elif trajectory_id in facts.units:
            found.append(
                (
                    "trajectory_id",
                    f"{trajectory_id} is one of the study's trajectories; reference trajectories are apart",
                )
            )
        elif trajectory_id not in stored:
            found.append(("trajectory_id", f"no trajectory {shown(trajectory_id)}; import it with import_trajectories"))
        elif kind in KINDS and facts.kinds.get(trajectory_id, kind) != kind:
            found.append(
                ("kind", f"{trajectory_id} is a {facts.kinds[trajectory_id]} trajectory of this study already")
            )
    if item and item not in facts.rubric.item_ids:
        found.append(("item", f"unknown item {shown(item)} of rubric {facts.rubric.id!r}"))
    reason = raw.get("reason")
    if reason is None:
        reason = ""
    if not isinstance(reason, str):
        found.append(("reason", "must be text"))
        reason = ""
    elif len(reason.strip()) > REASON_MAX:
        found.append(("reason", f"must be at most {REASON_MAX} characters"))
    present = stored.get(trajectory_id)
    stage = item_stages(facts.rubric).get(item)
    score = _score(raw.get("score"), facts.rubric, stage, present, trajectory_id, found)
    if kind == Assignment.Kind.TRAINING and score is not None and isinstance(reason, str) and not reason.strip():
        found.append(("reason", "a training item needs the reference's reason: the rater reads it as feedback"))
    if found:
        return None
    return ReferenceRow(line, trajectory_id, item, score, reason.strip(), str(kind))


def _text(raw: dict, key: str, found: list[tuple[str, str]]) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        found.append((key, "is required"))
        return ""
    return value.strip()


def _score(
    value: object,
    rubric: RubricDefinition,
    stage: str | None,
    present: tuple[str, list[str]] | None,
    trajectory_id: str,
    found: list[tuple[str, str]],
) -> float | None:
    """The score (``None`` for NA) of an item rating ``stage`` (``None``: no stage) of a stored
    trajectory whose procedure and stages are ``present``."""
    units = stage_units(*present) if present is not None else None
    if isinstance(value, str) and value.strip().upper() == NA:
        if stage is None:
            found.append(("score", "NA is only for an item whose stage the trajectory lacks; this item rates no stage"))
        elif units is not None and stage in units:
            found.append(("score", f"NA refused: trajectory {trajectory_id} has a {stage} stage; give a score"))
        return None
    score = _number(value)
    if score is None or score != int(score) or not rubric.scale_min <= score <= rubric.scale_max:
        found.append(
            ("score", f"must be a whole number from {rubric.scale_min} to {rubric.scale_max} or NA, got {shown(value)}")
        )
    elif stage is not None and units is not None and stage not in units:
        found.append(("score", f"trajectory {trajectory_id} has no {stage} stage; its items take {NA}, not a number"))
    return score


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value.strip() if isinstance(value, str) else value)
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


def _file_problems(
    path: Path, rows: list[ReferenceRow], facts: StudyFacts, stored: Mapping[str, tuple[str, list[str]]]
) -> list[Problem]:
    """What only the rows together show: an item given twice, two kinds for one trajectory,
    a training trajectory missing an item, a file with no row."""
    problems: list[Problem] = []
    first_line: dict[tuple[str, str], int] = {}
    first_of: dict[str, ReferenceRow] = {}
    items_of: dict[str, set[str]] = {}
    for row in rows:
        key = (row.trajectory_id, row.item)
        if key in first_line:
            message = f"{row.item} of {row.trajectory_id} is given twice (first on line {first_line[key]})"
            problems.append(Problem(str(path), row.line, "item", message))
        first_line.setdefault(key, row.line)
        first = first_of.setdefault(row.trajectory_id, row)
        if first.kind != row.kind:
            message = f"{row.trajectory_id} is {first.kind} on line {first.line}; all its rows take one kind"
            problems.append(Problem(str(path), row.line, "kind", message))
        items_of.setdefault(row.trajectory_id, set()).add(row.item)
    for trajectory_id, first in first_of.items():
        if first.kind != Assignment.Kind.TRAINING:
            continue
        procedure, stage_ids = stored[trajectory_id]
        needed = set(facts.rubric.item_ids) - set(items_not_applicable(facts.rubric, procedure, stage_ids))
        missing = [item for item in facts.rubric.item_ids if item in needed - items_of[trajectory_id]]
        if missing:
            message = f"training trajectory {trajectory_id} lacks a reference for: {', '.join(missing)}"
            problems.append(Problem(str(path), first.line, "item", message))
    return problems
