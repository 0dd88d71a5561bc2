from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.agreement import AgreementError
from annotation.bootstrap import REPLICATES
from annotation.models import Rubric, Study
from annotation.reports import FORMATS, report_file
from annotation.rubric import DEFAULT_RUBRIC


class Command(BaseCommand):
    help = "Human-LLM agreement and inter-rater reliability of a rubric's ratings (scale or pairwise), as JSON, CSV, XLSX or HTML."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rubric", default=DEFAULT_RUBRIC)
        parser.add_argument(
            "--judge",
            help="the LLM judge's model name (needed when several judged; with none, the raters' agreement alone)",
        )
        parser.add_argument("--study", help="only this study's trajectories and raters (name)")
        parser.add_argument(
            "--bootstrap",
            type=int,
            default=REPLICATES,
            metavar="N",
            help=f"resamples of the trajectories for 95%% intervals (default {REPLICATES}; 0: none)",
        )
        parser.add_argument("--format", required=True, choices=FORMATS)
        parser.add_argument("--out", required=True, type=Path)

    def handle(self, *args, rubric: str, judge: str | None, study: str | None, bootstrap: int, **options) -> None:
        stored = Rubric.objects.filter(pk=rubric).first()
        if stored is None:
            raise CommandError(f"no rubric {rubric!r}; import it with import_rubric")
        chosen = None
        if study is not None:
            chosen = Study.objects.filter(name=study, rubric=stored).first()
            if chosen is None:
                raise CommandError(f"no study {study!r} on rubric {rubric!r}")
        try:
            content, summary = report_file(
                rubric=stored, judge=judge, study=chosen, fmt=options["format"], replicates=max(bootstrap, 0)
            )
        except AgreementError as error:
            raise CommandError(str(error)) from None
        out: Path = options["out"]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(content)
        counted = f"{summary['pairs']} pairs" if "pairs" in summary else f"{summary['answers']} answers"
        self.stdout.write(f"{counted}, judge {summary['judge']}: wrote {out}")
