from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from annotation.services import trajectories_export


class Command(BaseCommand):
    help = "Write every trajectory (or the given ids) as ID.json files in the trajectory-file format."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", required=True, type=Path, help="folder to write into")
        parser.add_argument("ids", nargs="*", help="trajectory ids (default: all)")

    def handle(self, *args, out: Path, ids: list[str], **options) -> None:
        written = trajectories_export(out_dir=out, ids=ids or None)
        self.stdout.write(f"wrote {len(written)} trajectory file(s) to {out}")
