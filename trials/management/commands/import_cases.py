from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from trials.caselibrary.maser_format import maser_record
from trials.caselibrary.simcourt_format import SIMCOURT_FILE, simcourt_files, simcourt_record
from trials.services import cases_import


class Command(BaseCommand):
    help = (
        "Import case files (.json object or list, or .jsonl); each file atomically. --format simcourt reads "
        f"SimCourt's per-case {SIMCOURT_FILE} files (a folder is searched at any depth); --format maser reads "
        "MASER's evaluation list (record id N becomes case maser-N)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", type=Path, help="case files or folders of them")
        parser.add_argument(
            "--format",
            choices=("case", "simcourt", "maser"),
            default="case",
            help="case (default): docs/case-format.md",
        )

    def handle(self, *args, paths: list[Path], format: str, **options) -> None:
        missing = [str(path) for path in paths if not path.exists()]
        if missing:
            raise CommandError(f"no such file: {', '.join(missing)}")
        if format == "simcourt":
            paths, empty = simcourt_files(paths)
            if empty:
                raise CommandError(f"no {SIMCOURT_FILE} under: {', '.join(empty)}")
            report = cases_import(paths=paths, validate=simcourt_record)
        elif format == "maser":
            report = cases_import(paths=paths, validate=maser_record)
        else:
            report = cases_import(paths=paths)
        for problem in report.problems:
            self.stderr.write(str(problem))
        self.stdout.write(f"imported {len(report.imported)} case(s)")
        if report.rejected_files:
            raise CommandError(
                f"rejected {len(report.rejected_files)} file(s), nothing stored from them: {', '.join(report.rejected_files)}"
            )
