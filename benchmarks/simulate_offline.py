#!/usr/bin/env python
"""Median wall-clock seconds per full offline simulation over the demo library.

    .venv/bin/python benchmarks/simulate_offline.py [--repeat 5]

Each run is what ``manage.py simulate CASE`` does with the scripted backend: the engine
through every stage, every seat's view built, turns, artifacts, memory log and trajectory
stored (in a throw-away SQLite database unless DATABASE_URL is set). The issue's target is a
median under 2 s per civil life cycle on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description="Median seconds per offline simulation of the demo cases.")
    parser.add_argument("--repeat", type=int, default=5, help="runs per case and target side")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="legalsim-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from trials.models import Case
    from trials.services import cases_import, trial_simulate

    call_command("migrate", verbosity=0)
    cases_import(paths=[ROOT / "demo" / "cases"])

    timings: dict[str, list[float]] = {"civil": [], "criminal": []}
    turns: dict[str, list[int]] = {"civil": [], "criminal": []}
    for case in Case.objects.order_by("pk"):
        sides = ("plaintiff", "defendant") if case.procedure == "civil" else ("defendant",)
        for side in sides:
            for _ in range(args.repeat):
                started = time.perf_counter()
                trial = trial_simulate(case=case, target_side=side, backend="scripted")
                timings[case.procedure].append(time.perf_counter() - started)
                turns[case.procedure].append(trial.turns.count())

    print(f"simulate_offline: {Case.objects.count()} demo cases, {args.repeat} runs per case and side")
    for procedure, label in (("civil", "full civil life cycle"), ("criminal", "criminal trial")):
        values = timings[procedure]
        if len(values) < 2:
            continue
        print(
            f"  {label:<22} median {statistics.median(values):.3f} s   "
            f"p90 {statistics.quantiles(values, n=10)[-1]:.3f} s   max {max(values):.3f} s   "
            f"runs {len(values)}   turns/run {statistics.median(turns[procedure]):.0f}"
        )


if __name__ == "__main__":
    main()
