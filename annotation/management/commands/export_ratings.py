from __future__ import annotations

import csv
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.exports import ratings_long_rows, ratings_wide_rows
from annotation.models import Rubric
from annotation.rubric import DEFAULT_RUBRIC


class Command(BaseCommand):
    help = "Export ratings as CSV: long (the ratings-file format, re-importable) or wide (LegalWorld release layout)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rubric", default=DEFAULT_RUBRIC)
        parser.add_argument("--layout", choices=("long", "wide"), default="long")
        parser.add_argument("--out", required=True, type=Path)

    def handle(self, *args, rubric: str, layout: str, out: Path, **options) -> None:
        stored = Rubric.objects.filter(pk=rubric).first()
        if stored is None:
            raise CommandError(f"no rubric {rubric!r}")
        header, rows = (ratings_wide_rows if layout == "wide" else ratings_long_rows)(rubric=stored)
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(header)
            count = 0
            for row in rows:
                writer.writerow(row)
                count += 1
        self.stdout.write(f"wrote {count} row(s) to {out}")
