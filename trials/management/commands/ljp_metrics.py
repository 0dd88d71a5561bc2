from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from trials.scoring.services import ljp_report


class Command(BaseCommand):
    help = (
        "Criminal judgment prediction over every scored criminal trial (SimCourt: imprisonment hit rate and "
        "relative error, probation and fine accuracy and relative error; AgentsCourt E.1: legal-article "
        "precision, recall and F1), written as JSON."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", required=True, help="FILE.json")
        parser.add_argument("--scorer", default="rule-based", help="whose scores to read (default rule-based)")

    def handle(self, *args, **options) -> None:
        report = ljp_report(scorer=options["scorer"])
        if not report["n_cases"]:
            raise CommandError("no scored criminal trial: run score_trials first")
        Path(options["out"]).write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
        self.stdout.write(f"{report['n_cases']} criminal trial(s); wrote {options['out']}\n")
        for aspect in ("imprisonment", "probation", "fine"):
            figures = ", ".join(f"{key} {_shown(value)}" for key, value in report[aspect].items())
            self.stdout.write(f"  {aspect:<13}{figures}\n")
        articles = report["legal_articles"]
        self.stdout.write(
            f"  {'articles':<13}precision {_shown(articles['precision'])}, recall {_shown(articles['recall'])}, "
            f"f1 {_shown(articles['f1'])}\n"
        )


def _shown(value: float | int | None) -> str:
    return "–" if value is None else (f"{value:.3f}" if isinstance(value, float) else str(value))
