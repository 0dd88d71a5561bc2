from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.calibration import ReferenceFileError, references_import
from annotation.models import Study


class Command(BaseCommand):
    help = (
        "Give a study reference scores: its training round and its gold items. FILE is CSV (with a header) or JSONL "
        "with trajectory_id, item, score (a whole number, or NA for an item whose stage the trajectory lacks), reason "
        "and kind (training or gold). Every rater of the study gets the trajectories to rate. Nothing is stored when "
        "anything is wrong; every problem is reported as FILE:LINE: field: message."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("study", help="the study's name")
        parser.add_argument("--file", required=True, type=Path, metavar="FILE")

    def handle(self, *args, study: str, file: Path, **options) -> None:
        chosen = Study.objects.select_related("rubric").filter(name=study).first()
        if chosen is None:
            raise CommandError(f"no study {study!r}")
        try:
            stored = references_import(study=chosen, path=file)
        except ReferenceFileError as error:
            for problem in error.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"nothing stored: {len(error.problems)} problem(s)") from None
        self.stdout.write(
            f"study {chosen.name}: {stored.references} reference score(s) of {stored.training} training and "
            f"{stored.gold} gold trajectory(ies) stored; {stored.assigned} assignment(s) created"
        )
