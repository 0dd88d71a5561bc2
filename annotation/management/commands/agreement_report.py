from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.agreement import AgreementError, agreement_compute
from annotation.models import Rubric
from annotation.reports import FORMATS, RENDERERS
from annotation.rubric import DEFAULT_RUBRIC
from annotation.selectors import ratings_frame


class Command(BaseCommand):
    help = "Human-LLM agreement and inter-rater reliability of a rubric's ratings, as JSON, CSV, XLSX or HTML."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rubric", default=DEFAULT_RUBRIC)
        parser.add_argument("--judge", help="the LLM judge's model name (needed when several judged)")
        parser.add_argument("--format", required=True, choices=FORMATS)
        parser.add_argument("--out", required=True, type=Path)

    def handle(self, *args, rubric: str, judge: str | None, format: str, out: Path, **options) -> None:
        stored = Rubric.objects.filter(pk=rubric).first()
        if stored is None:
            raise CommandError(f"no rubric {rubric!r}; import it with import_rubric")
        definition = stored.definition
        try:
            result = agreement_compute(rubric=definition, frame=ratings_frame(rubric_id=rubric), judge=judge)
        except AgreementError as error:
            raise CommandError(str(error)) from None
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(RENDERERS[format](result, definition))
        self.stdout.write(f"{result.report['overall']['n_pairs']} pairs, judge {result.report['judge']}: wrote {out}")
