from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.agreement import AgreementError
from annotation.bootstrap import REPLICATES
from annotation.models import Rubric, Study
from annotation.reports import FORMATS, RENDERERS
from annotation.rubric import DEFAULT_RUBRIC
from annotation.selectors import agreement_build, reason_bands


class Command(BaseCommand):
    help = "Human-LLM agreement and inter-rater reliability of a rubric's ratings, as JSON, CSV, XLSX or HTML."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--rubric", default=DEFAULT_RUBRIC)
        parser.add_argument("--judge", help="the LLM judge's model name (needed when several judged)")
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
            result = agreement_build(rubric=stored, judge=judge, study=chosen, replicates=max(bootstrap, 0))
        except AgreementError as error:
            raise CommandError(str(error)) from None
        reasons = reason_bands(rubric=stored, study=chosen) if options["format"] == "html" else None
        out: Path = options["out"]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(RENDERERS[options["format"]](result, stored.definition, reasons))
        self.stdout.write(f"{result.report['overall']['n_pairs']} pairs, judge {result.report['judge']}: wrote {out}")
