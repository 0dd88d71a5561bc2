from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.rubric import RubricError
from annotation.services import rubric_import


class Command(BaseCommand):
    help = "Create or replace a rubric from a rubric file (JSON)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options) -> None:
        try:
            rubric = rubric_import(path=path)
        except RubricError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"rubric {rubric.id}: {len(rubric.definition.item_ids)} items, scale {rubric.scale_min}-{rubric.scale_max}"
        )
