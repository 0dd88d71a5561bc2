#!/usr/bin/env python
"""Time and peak memory to compute the full agreement report (legalworld16).

    .venv/bin/python benchmarks/agreement.py

Two synthetic studies shaped like LegalWorld's: 18,992 human ratings (1,187 questionnaires
of 16 items over 100 trajectories, as in the published study) and 1,000,000 human ratings,
each with one LLM judge score per trajectory and item. Timed: coding the rows into arrays,
pairing, every row, group, overall and item figure (correlations, QWK, alpha, ICC), and the
JSON rendering; then the same with bootstrap 95 % intervals over trajectories (1,000
resamples), as the report page shows them. Targets (issue #5): under 1 s and under 30 s.
"""

from __future__ import annotations

import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")


def synthetic_rows(human_ratings: int, trajectories: int, items: tuple[str, ...], seed: int = 7) -> list[tuple]:
    rng = np.random.default_rng(seed)
    questionnaires = human_ratings // len(items)
    quality = rng.integers(6, 11, size=(trajectories, len(items)))
    rows = []
    for questionnaire in range(questionnaires):
        trajectory = questionnaire % trajectories
        rater = f"rater{(questionnaire * 7919) % max(questionnaires // 5, 2)}"
        noise = rng.integers(-1, 2, size=len(items))
        for index, item in enumerate(items):
            score = float(min(10, max(0, quality[trajectory, index] + noise[index])))
            rows.append((f"traj{trajectory}", item, rater, "human", score))
    for trajectory in range(trajectories):
        for index, item in enumerate(items):
            rows.append((f"traj{trajectory}", item, "judge-model", "llm", float(quality[trajectory, index]) - 0.9))
    return rows


def build_report(rows: list[tuple], rubric, replicates: int) -> dict:
    import json

    from annotation.agreement import RatingsFrame, agreement_compute
    from annotation.bootstrap import bootstrap_attach

    frame = RatingsFrame.from_rows(rows)
    result = agreement_compute(rubric=rubric, frame=frame)
    if replicates:
        bootstrap_attach(result, rubric=rubric, frame=frame, replicates=replicates)
    json.dumps(result.report)
    return result.report


def measure(label: str, rows: list[tuple], rubric) -> None:
    """Time without tracing, then the same work again under tracemalloc for the peak; first
    the report, then the report with 1,000-resample bootstrap intervals (the report page)."""
    judged = sum(1 for row in rows if row[3] == "llm")
    print(f"  {label}: {len(rows) - judged:,} human + {judged:,} judge ratings")
    for replicates in (0, 1000):
        started = time.perf_counter()
        report = build_report(rows, rubric, replicates)
        elapsed = time.perf_counter() - started
        tracemalloc.start()
        build_report(rows, rubric, replicates)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        what = "report" if not replicates else f"report + {replicates:,}-resample CIs"
        print(
            f"    {what:<30} {elapsed:7.3f} s   peak {peak / 2**20:7.1f} MiB   pairs {report['overall']['n_pairs']:,}"
        )


def main() -> None:
    import django

    django.setup()
    import annotation.agreement  # noqa: F401  (scipy's import time is not report time)
    from annotation.rubric import RUBRIC_DIR, rubric_load

    rubric = rubric_load(RUBRIC_DIR / "legalworld16.json")
    print("agreement report (legalworld16, one judge): time from rows to the finished JSON report")
    measure("study", synthetic_rows(18_992, 100, rubric.item_ids), rubric)
    measure("1M", synthetic_rows(1_000_000, 5_000, rubric.item_ids), rubric)


if __name__ == "__main__":
    main()
