from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from agents.tools.stard import expansion_build, expansion_write, stard_read
from agents.tools.statute_index import EXPANSION_PATH


class Command(BaseCommand):
    help = (
        "Rebuild the statute search's document expansion (agents/tools/data/stard_expansion.json.gz) from "
        "STARD's released files: each article filed under the words of the train-split questions that cite it."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("stard", type=Path, help="a checkout of github oneal2000/STARD (data/queries.json ...)")
        parser.add_argument(
            "--output", type=Path, default=EXPANSION_PATH, help=f"where to write (default {EXPANSION_PATH})"
        )

    def handle(self, *args, stard: Path, output: Path, **options) -> None:
        if not (stard / "data" / "queries.json").is_file():
            raise CommandError(f"{stard} holds no data/queries.json: give a checkout of STARD")
        built = expansion_build(stard_read(stard))
        expansion_write(built, output)
        self.stdout.write(
            f"{output}: {len(built['articles'])} articles filed under the words of {built['questions']} "
            f"train questions ({output.stat().st_size // 1024} KiB)"
        )
