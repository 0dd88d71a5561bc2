from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.services import trajectories_import


class Command(BaseCommand):
    help = "Import trajectory files (the trajectory-file format); each file atomically."

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", type=Path)

    def handle(self, *args, paths: list[Path], **options) -> None:
        missing = [str(path) for path in paths if not path.exists()]
        if missing:
            raise CommandError(f"no such file: {', '.join(missing)}")
        report = trajectories_import(paths=paths)
        for problem in report.problems:
            self.stderr.write(str(problem))
        self.stdout.write(f"imported {report.imported} trajectory(ies)")
        if report.rejected_files:
            raise CommandError(
                f"rejected {len(report.rejected_files)} file(s), nothing stored from them: {', '.join(report.rejected_files)}"
            )
