from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.services import ratings_import


class Command(BaseCommand):
    help = "Import ratings files (CSV with header or JSONL); each file atomically, every bad row reported."

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)

    def handle(self, *args, paths: list[Path], **options) -> None:
        missing = [str(path) for path in paths if not path.exists()]
        if missing:
            raise CommandError(f"no such file: {', '.join(missing)}")
        report = ratings_import(paths=paths)
        for problem in report.problems:
            self.stderr.write(str(problem))
        self.stdout.write(f"imported {report.imported} rating(s)")
        if report.rejected_files:
            raise CommandError(
                f"rejected {len(report.rejected_files)} file(s), nothing stored from them: {', '.join(report.rejected_files)}"
            )
