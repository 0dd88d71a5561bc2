#!/usr/bin/env python
"""SimCourt's 200 released criminal cases played through the offline court, its judgments
scored as SimCourt's Table 1 scores a court (issue "The offline court as a lawyer reads it",
item 6; docs/benchmarks.md, "The offline court on SimCourt's cases").

    .venv/bin/python benchmarks/offline_court.py PATH [--hit-rule simcourt] [--limit N] [--cases FILE.jsonl]

PATH is SimCourt's released ``data/data_LJP`` folder (or the repository holding it), read
unchanged by ``import_cases --format simcourt`` into a throw-away SQLite database (unless
DATABASE_URL is set). Each case is played as ``simulate CASE --backend scripted`` plays it,
the defendant's side the subject; its judgment is read back (``ljp_metrics --pred``'s reader:
the sentence from the orders, the articles cited from the whole text) and scored against the
real one. The six figures of SimCourt's Table 1 and the cited-article precision, recall and F1
(AgentsCourt, Appendix E.1; over all cases, and over the cases whose released judgment text
shows its legal basis) are printed for all cases and for the held-out half (odd folder
numbers), which no rule of the offline court was tuned on, beside SimCourt's published rows
(*Chinese Court Simulation with LLM-Based Agent System*, arXiv 2508.17322, Table 1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RELEASED = Path("data/data_LJP")
FIGURES = (
    ("imprisonment_rel_error", "imprisonment rel. error ↓"),
    ("imprisonment_hit_rate", "imprisonment hit rate ↑"),
    ("probation_rel_error", "probation rel. error ↓"),
    ("probation_accuracy", "probation accuracy ↑"),
    ("fine_rel_error", "fine rel. error ↓"),
    ("fine_accuracy", "fine accuracy ↑"),
    ("articles_precision", "articles precision ↑"),
    ("articles_recall", "articles recall ↑"),
    ("articles_f1", "articles F1 ↑"),
    ("shown_precision", "  precision, basis shown ↑"),
    ("shown_recall", "  recall, basis shown ↑"),
    ("shown_f1", "  F1, basis shown ↑"),
)
PUBLISHED = {
    "SimCourt": (0.350, 0.880, 0.410, 0.730, 0.770, 0.835),
    "w/o Court Simulation": (0.413, 0.870, 0.443, 0.505, 0.937, 0.680),
}
"""SimCourt's Table 1 (its own row) and Table 2 (the ablation without the simulated trial),
over all 200 cases; the paper reports no article figures."""


def released_folder(path: Path) -> Path:
    return path / RELEASED if (path / RELEASED).is_dir() else path


def case_number(case_id: str) -> int:
    return int(case_id.removeprefix("simcourt-"))


def main() -> None:
    parser = argparse.ArgumentParser(description="SimCourt's cases through the offline court, scored as Table 1.")
    parser.add_argument("path", type=Path, help="SimCourt's data/data_LJP, or the repository holding it")
    parser.add_argument("--hit-rule", choices=("simcourt", "project"), default="simcourt")
    parser.add_argument("--limit", type=int, default=0, help="play only the first N cases (0: all)")
    parser.add_argument("--cases", type=Path, help="write each case's scored row here (JSON lines)")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="legalsim-simcourt-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from trials.models import Case

    call_command("migrate", verbosity=0)
    call_command("import_cases", "--format", "simcourt", str(released_folder(args.path)), verbosity=0)
    cases = sorted(Case.objects.filter(id__startswith="simcourt-"), key=lambda case: case_number(case.pk))
    if args.limit:
        cases = cases[: args.limit]
    started = time.perf_counter()
    predictions = scratch / "predictions.jsonl"
    play_all(cases, predictions)
    seconds = time.perf_counter() - started
    report_all(predictions, args.hit_rule, seconds, args.cases)


def play_all(cases: list, predictions: Path) -> None:
    """Each case played offline; its judgment written as a ``ljp_metrics --pred`` line."""
    from trials.services import trial_simulate

    with predictions.open("w", encoding="utf-8") as out:
        for case in cases:
            trial = trial_simulate(case=case, target_side="defendant", backend="scripted")
            judgment = trial.artifacts.filter(kind="criminal_judgment").last()
            line = {"case_id": case.pk, "judgment": judgment.text if judgment else ""}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")


def report_all(predictions: Path, hit_rule: str, seconds: float, rows_out: Path | None) -> None:
    from scoring.services import ljp_report_of_predictions

    lines = predictions.read_text(encoding="utf-8").splitlines()
    held_out = predictions.with_name("held_out.jsonl")
    held_out.write_text(
        "".join(f"{line}\n" for line in lines if case_number(json.loads(line)["case_id"]) % 2),
        encoding="utf-8",
    )
    reports = {}
    for name, path in (("all", predictions), ("held-out", held_out)):
        report, problems = ljp_report_of_predictions(path=path, hit_rule=hit_rule)
        if report is None:
            raise SystemExit("\n".join(str(problem) for problem in problems))
        reports[name] = report | shown_articles(report["cases"])
    if rows_out:
        rows_out.write_text(
            "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in reports["all"]["cases"]), encoding="utf-8"
        )
    print_table(reports, hit_rule, len(lines), seconds)


def shown_articles(rows: list[dict]) -> dict:
    """Article precision, recall and F1 (micro-averaged, as ``ljp_metrics``) over the cases
    whose released judgment text shows the court's legal basis: most of SimCourt's ``result``
    fields end before it, so elsewhere every article cited counts as wrong."""
    counted = [row["articles"] for row in rows if row["articles"]["reference"]]
    matched, predicted, reference = (
        sum(counts[key] for counts in counted) for key in ("matched", "predicted", "reference")
    )
    return {
        "shown_cases": len(counted),
        "shown_precision": matched / predicted if predicted else None,
        "shown_recall": matched / reference if reference else None,
        "shown_f1": 2 * matched / (predicted + reference) if reference else None,
    }


def print_table(reports: dict[str, dict], hit_rule: str, played: int, seconds: float) -> None:
    columns = [f"offline, all ({reports['all']['n']})", f"offline, odd ({reports['held-out']['n']})", *PUBLISHED]
    print(f"offline_court: {played} SimCourt cases played offline in {seconds:.0f} s; hit rule {hit_rule}")
    print(f"{'':<27}" + "".join(f"{column:>22}" for column in columns))
    for index, (key, label) in enumerate(FIGURES):
        values = [reports["all"].get(key), reports["held-out"].get(key)]
        values += [row[index] if index < len(row) else None for row in PUBLISHED.values()]
        print(f"{label:<27}" + "".join(f"{_shown(value):>22}" for value in values))
    for name, report in reports.items():
        print(f"  {name}: {report['shown_cases']} case(s) whose released judgment shows its legal basis")
        if report["no_range"]:
            print(f"  {name}: {len(report['no_range'])} case(s) with no statutory range, left out of the hit rate")


def _shown(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


if __name__ == "__main__":
    main()
