from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.exports import LAYOUTS, ratings_csv_write
from annotation.models import Rubric, Study
from annotation.rubric import DEFAULT_RUBRIC


class Command(BaseCommand):
    help = "Export ratings as CSV: long (the ratings-file format, re-importable) or wide (LegalWorld release layout)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rubric", default=DEFAULT_RUBRIC)
        parser.add_argument("--study", help="only this study's trajectories and raters (name)")
        parser.add_argument("--layout", choices=LAYOUTS, default="long")
        parser.add_argument("--out", required=True, type=Path)

    def handle(self, *args, rubric: str, study: str | None, layout: str, out: Path, **options) -> None:
        stored = Rubric.objects.filter(pk=rubric).first()
        if stored is None:
            raise CommandError(f"no rubric {rubric!r}")
        chosen = None
        if study is not None:
            chosen = Study.objects.filter(name=study, rubric=stored).first()
            if chosen is None:
                raise CommandError(f"no study {study!r} on rubric {rubric!r}")
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", newline="", encoding="utf-8") as handle:
            count = ratings_csv_write(handle, rubric=stored, layout=layout, study=chosen)
        self.stdout.write(f"wrote {count} row(s) to {out}")
