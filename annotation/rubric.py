"""Rubrics as data (the rubric-file contract, docs/design.md section 4): parsing and validation.

A rubric has groups (a family such as stage authenticity) of rows (what a report table
shows: a stage, a role) of items (what is rated). Unknown keys, such as ``anchors`` in the
shipped ``legalworld16``, are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from legalsim.json_input import read_document

RUBRIC_DIR = Path(__file__).resolve().parent / "rubrics"
DEFAULT_RUBRIC = "legalworld16"
SCALE, PAIRWISE = "scale", "pairwise"
PAIRWISE_SCALE = {"min": -1, "max": 1}
PAIR_SEPARATOR = "|"


def pair_key(first: str, second: str) -> str:
    """The unit of a pairwise rubric: two trajectories of one case, in canonical order."""
    return f"{first}{PAIR_SEPARATOR}{second}"


def pair_split(unit: str) -> tuple[str, str] | None:
    first, separator, second = unit.partition(PAIR_SEPARATOR)
    return (first, second) if separator and first and second and PAIR_SEPARATOR not in second else None


class RubricError(ValueError):
    """A rubric file that cannot be used; the message names every problem."""


@dataclass(frozen=True)
class RubricRow:
    id: str
    title: str
    group: str
    items: tuple[str, ...]


@dataclass(frozen=True)
class RubricDefinition:
    id: str
    title: str
    scale_min: int
    scale_max: int
    groups: tuple[tuple[str, str], ...]
    rows: tuple[RubricRow, ...]
    data: dict[str, Any]
    kind: str = SCALE

    @property
    def pairwise(self) -> bool:
        return self.kind == PAIRWISE

    @property
    def item_ids(self) -> tuple[str, ...]:
        return tuple(item for row in self.rows for item in row.items)

    def rows_of(self, group: str) -> tuple[RubricRow, ...]:
        return tuple(row for row in self.rows if row.group == group)


def _text(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def rubric_parse(data: Any) -> RubricDefinition:
    """Validate a rubric document and return its definition, or raise ``RubricError``."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise RubricError("rubric: must be a JSON object")
    for key, limit in (("id", 100), ("title", 300)):
        if not _text(data.get(key)):
            problems.append(f"{key}: is required and must be a non-empty string")
        elif len(data[key]) > limit:
            problems.append(f"{key}: must be at most {limit} characters")
    kind = data.get("kind", SCALE)
    if kind not in (SCALE, PAIRWISE):
        problems.append(f"kind: must be {SCALE!r} or {PAIRWISE!r}")
    scale = data.get("scale")
    if kind == PAIRWISE:
        if scale not in (None, PAIRWISE_SCALE):
            problems.append(
                'scale: a pairwise rubric answers first (1), draw (0) or second (-1): omit it or give {"min": -1, "max": 1}'
            )
        scale = PAIRWISE_SCALE
    elif (
        not isinstance(scale, dict)
        or not all(
            isinstance(scale.get(bound), int) and not isinstance(scale.get(bound), bool) for bound in ("min", "max")
        )
        or scale["min"] >= scale["max"]
    ):
        problems.append('scale: must be {"min": int, "max": int} with min < max')
    groups, rows, seen = [], [], set()
    if not isinstance(data.get("groups"), list) or not data["groups"]:
        problems.append("groups: must be a non-empty list")
    for g_index, group in enumerate(data.get("groups") or []):
        where = f"groups[{g_index}]"
        if not isinstance(group, dict) or not _text(group.get("id")) or not isinstance(group.get("rows"), list):
            problems.append(f"{where}: needs an id and a list of rows")
            continue
        groups.append((group["id"], str(group.get("title") or group["id"])))
        for r_index, row in enumerate(group["rows"]):
            row_where = f"{where}.rows[{r_index}]"
            if (
                not isinstance(row, dict)
                or not _text(row.get("id"))
                or not isinstance(row.get("items"), list)
                or not row["items"]
            ):
                problems.append(f"{row_where}: needs an id and a non-empty list of items")
                continue
            item_ids = []
            for i_index, item in enumerate(row["items"]):
                item_id = item.get("id") if isinstance(item, dict) else None
                if not _text(item_id):
                    problems.append(f"{row_where}.items[{i_index}]: needs an id")
                elif len(item_id) > 100:
                    problems.append(f"{row_where}.items[{i_index}]: an id must be at most 100 characters")
                elif item_id in seen:
                    problems.append(f"{row_where}.items[{i_index}]: duplicate item id {item_id!r}")
                else:
                    seen.add(item_id)
                    item_ids.append(item_id)
            rows.append(RubricRow(row["id"], str(row.get("title") or row["id"]), group["id"], tuple(item_ids)))
    if problems:
        raise RubricError("; ".join(problems))
    return RubricDefinition(
        id=data["id"],
        title=data["title"],
        scale_min=scale["min"],
        scale_max=scale["max"],
        groups=tuple(groups),
        rows=tuple(rows),
        data=data,
        kind=kind,
    )


def rubric_load(path: Path) -> RubricDefinition:
    data, problems = read_document(path)
    if problems:
        raise RubricError("; ".join(str(problem) for problem in problems))
    try:
        return rubric_parse(data)
    except RubricError as error:
        raise RubricError(f"{path}: {error}") from None
