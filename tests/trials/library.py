"""A case library of any size for batch tests: the demo civil cases under new ids, dealt
round-robin over a number of causes of action."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from trials.services import cases_import

DEMO_CASES = Path(__file__).resolve().parents[2] / "demo" / "cases"


def library_write(directory: Path, *, cases: int, causes: int) -> Path:
    """Write ``cases`` civil cases dealt over ``causes`` causes of action."""
    seeds = [json.loads(path.read_text()) for path in sorted(DEMO_CASES.glob("*-civil-*.json"))]
    records = []
    for index in range(cases):
        cause = index % causes
        seed = copy.deepcopy(seeds[index % len(seeds)])
        seed["id"] = f"lib-{index:04d}"
        seed["cause_of_action"] = f"cause {cause:02d}"
        records.append(json.dumps(seed, ensure_ascii=False))
    path = directory / "library.jsonl"
    path.write_text("\n".join(records) + "\n", encoding="utf-8")
    return path


def library_import(directory: Path, *, cases: int, causes: int) -> list[str]:
    report = cases_import(paths=[library_write(directory, cases=cases, causes=causes)])
    assert not report.problems, report.problems
    return report.imported
