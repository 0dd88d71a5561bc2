from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.prediction import HIT_RULES
from scoring.services import ljp_report, ljp_report_of_predictions


class Command(BaseCommand):
    help = (
        "Criminal judgment prediction (SimCourt: imprisonment hit rate and relative error, probation and fine "
        "accuracy and relative error; AgentsCourt E.1: legal-article precision, recall and F1), written as JSON: "
        "over every scored criminal trial, or with --pred over a predictions file scored against the imported "
        "cases' sentences. Hit rules: scoring/prediction.py."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", required=True, help="FILE.json")
        parser.add_argument("--scorer", default="rule-based", help="whose trial scores to read (default rule-based)")
        parser.add_argument(
            "--pred",
            type=Path,
            help='FILE.jsonl: one prediction a line, {"case_id", "judgment"} or {"case_id", "imprisonment_months", '
            '"penalty", "probation_months", "fine"}',
        )
        parser.add_argument("--hit-rule", choices=HIT_RULES, default="project", help="default project")

    def handle(self, *args, **options) -> None:
        if options["pred"] is not None:
            self._predictions(options["pred"], options["hit_rule"], options["out"])
            return
        report = ljp_report(scorer=options["scorer"], hit_rule=options["hit_rule"])
        if not report["n_cases"]:
            raise CommandError("no scored criminal trial: run score_trials first")
        _write(report, options["out"])
        self.stdout.write(f"{report['n_cases']} criminal trial(s); wrote {options['out']}\n")
        for aspect in ("imprisonment", "probation", "fine"):
            figures = ", ".join(f"{key} {_shown(value)}" for key, value in report[aspect].items())
            self.stdout.write(f"  {aspect:<13}{figures}\n")
        articles = report["legal_articles"]
        self.stdout.write(
            f"  {'articles':<13}precision {_shown(articles['precision'])}, recall {_shown(articles['recall'])}, "
            f"f1 {_shown(articles['f1'])}\n"
        )

    def _predictions(self, path: Path, hit_rule: str, out: str) -> None:
        if not path.is_file():
            raise CommandError(f"no such file: {path}")
        report, problems = ljp_report_of_predictions(path=path, hit_rule=hit_rule)
        if report is None:
            listed = "\n".join(str(problem) for problem in problems)
            raise CommandError(f"{len(problems)} line(s) cannot be scored; nothing written:\n{listed}")
        _write(report, out)
        self.stdout.write(f"{report['n']} prediction(s), hit rule {hit_rule}; wrote {out}\n")
        for key, value in report.items():
            if key not in ("n", "hit_rule", "no_range", "cases"):
                self.stdout.write(f"  {key:<27}{_shown(value)}\n")
        if report["no_range"]:
            self.stdout.write(
                f"  no range (left out of the hit rate; give sentence.statutory_range_months): "
                f"{', '.join(report['no_range'])}\n"
            )


def _write(report: dict, out: str) -> None:
    Path(out).write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")


def _shown(value: float | int | None) -> str:
    return "–" if value is None else (f"{value:.3f}" if isinstance(value, float) else str(value))
