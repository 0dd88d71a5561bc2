from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from classroom.exports import GRADEBOOK_FORMATS, gradebook_write
from classroom.gradebook import GRADEBOOK_COLUMNS, gradebook_build
from classroom.models import Course


class Command(BaseCommand):
    help = (
        "Export a course's gradebook: a row per enrolled student and assignment (the attempt the "
        "course's gradebook shows, latest or best) with the columns "
        + ", ".join(GRADEBOOK_COLUMNS[:8])
        + " and one per scorecard capability. The file's extension (.csv or .xlsx) says the format."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--out", type=Path, required=True, metavar="FILE.csv|FILE.xlsx")

    def handle(self, *args, slug: str, out: Path, **options) -> None:
        fmt = out.suffix.lower().lstrip(".")
        if fmt not in GRADEBOOK_FORMATS:
            raise CommandError(f"{out}: the file name ends in .csv or .xlsx")
        course = Course.objects.filter(slug=slug).first()
        if course is None:
            raise CommandError(f"no course {slug!r}")
        if not out.parent.is_dir():
            raise CommandError(f"{out.parent}: no such directory")
        gradebook = gradebook_build(course=course)
        gradebook_write(gradebook, out)
        self.stdout.write(
            f"{course.slug}: {len(gradebook.rows)} student(s) x {len(gradebook.assignments)} assignment(s) -> {out}"
        )
