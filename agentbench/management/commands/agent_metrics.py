from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from agentbench.metrics import agent_report_of_files


class Command(BaseCommand):
    help = (
        "Success rate and progress rate of agent answers (LegalAgentBench, arXiv 2412.17259, Appendix E.2), "
        "over all tasks and per task type, written as JSON. A task with no prediction counts 0. "
        "docs/agent-tasks.md gives the formulas."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tasks", type=Path, required=True, help='TASKS.json (a list) or .jsonl: {"id", ...}')
        parser.add_argument("--pred", type=Path, required=True, help='PRED.jsonl: {"id", "res", "summary"?} a line')
        parser.add_argument("--out", type=Path, help="FILE.json (default: the report on standard output only)")

    def handle(self, *args, **options) -> None:
        for name in ("tasks", "pred"):
            if not options[name].is_file():
                raise CommandError(f"no such file: {options[name]}")
        report, problems = agent_report_of_files(tasks_path=options["tasks"], predictions_path=options["pred"])
        if report is None:
            listed = "\n".join(str(problem) for problem in problems)
            raise CommandError(f"{len(problems)} problem(s); nothing written:\n{listed}")
        if options["out"] is not None:
            options["out"].write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
        report_print(self, report)


def report_print(command: BaseCommand, report: dict) -> None:
    """The figures as a table: overall, then per type, to four places as LegalAgentBench's
    ``eval.py`` prints them."""
    missing = f" ({len(report['missing'])} with no prediction, counted 0)" if report["missing"] else ""
    command.stdout.write(f"{report['n']} task(s){missing}")
    command.stdout.write(f"  {'type':<18}{'n':>4}  {'success':>8}  {'progress':>8}")
    rows = [("all", report), *report["by_type"].items()]
    for name, figures in rows:
        command.stdout.write(
            f"  {name or '(no type)':<18}{figures['n']:>4}  {figures['success_rate']:>8.4f}  {figures['progress_rate']:>8.4f}"
        )
