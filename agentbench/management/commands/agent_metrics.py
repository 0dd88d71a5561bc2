from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from agentbench.metrics import agent_report_of_files

REPORT_NAME = "agent-metrics.json"


def out_file(out: Path, name: str) -> Path:
    """The file an ``--out`` names: a directory given as ``--out`` gets ``name`` inside it;
    a file whose directory does not exist is refused before any work is done."""
    if out.is_dir():
        return out / name
    if not out.parent.is_dir():
        raise CommandError(f"--out {out}: no such directory: {out.parent}")
    return out


def out_write(out: Path, text: str) -> None:
    """Write ``text`` to ``out``, a refusal of the system (no permission, a full disk) as a CommandError."""
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        raise CommandError(f"--out {out}: {error.strerror or error}; nothing written") from error


class Command(BaseCommand):
    help = (
        "Success rate and progress rate of agent answers (LegalAgentBench, arXiv 2412.17259, Appendix E.2), "
        "over all tasks and per task type, written as JSON. A task with no prediction counts 0. "
        "docs/agent-tasks.md gives the formulas."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--tasks", type=Path, required=True, help='TASKS.json (a list) or .jsonl: {"id", ...}')
        parser.add_argument("--pred", type=Path, required=True, help='PRED.jsonl: {"id", "res", "summary"?} a line')
        parser.add_argument(
            "--out", type=Path, help=f"FILE.json, or a directory for {REPORT_NAME} (default: standard output only)"
        )

    def handle(self, *args, **options) -> None:
        for name in ("tasks", "pred"):
            if not options[name].is_file():
                raise CommandError(f"no such file: {options[name]}")
        report, problems = agent_report_of_files(tasks_path=options["tasks"], predictions_path=options["pred"])
        out = None if options["out"] is None else out_file(options["out"], REPORT_NAME)
        if report is None:
            listed = "\n".join(str(problem) for problem in problems)
            raise CommandError(f"{len(problems)} problem(s); nothing written:\n{listed}")
        if out is not None:
            out_write(out, json.dumps(report, ensure_ascii=False, indent=2))
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
