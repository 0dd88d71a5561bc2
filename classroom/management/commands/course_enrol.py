from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from classroom.models import Course
from classroom.services import ClassroomError, course_enrol, roster_import


class Command(BaseCommand):
    help = (
        "Enrol students in a course: existing users by username, or a roster CSV "
        "(username,email,full_name) whose unknown people get accounts and a set-password link. "
        "Atomic: a roster with any bad row stores nothing and every bad row is reported."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("usernames", nargs="*", metavar="USER")
        parser.add_argument(
            "--csv", type=Path, dest="roster", metavar="FILE", help="a roster: username,email,full_name"
        )

    def handle(self, *args, slug: str, usernames: list[str], roster: Path | None, **options) -> None:
        if bool(usernames) == bool(roster):
            raise CommandError("name usernames or --csv FILE (one of the two)")
        course = Course.objects.filter(slug=slug).first()
        if course is None:
            raise CommandError(f"no course {slug!r}")
        if roster is None:
            try:
                enrolled, already = course_enrol(course=course, usernames=usernames)
            except ClassroomError as error:
                raise CommandError(str(error)) from None
            self._summary(course, enrolled, already)
            return
        if not roster.is_file():
            raise CommandError(f"no such file: {roster}")
        report = roster_import(course=course, path=roster)
        for problem in report.problems:
            self.stderr.write(str(problem))
        if report.problems:
            raise CommandError(f"{roster}: {len(report.problems)} problem(s); nobody was enrolled")
        for username, link in report.created:
            self.stdout.write(f"new account {username}: set a password at {link}")
        for username, differs in report.kept:
            self.stdout.write(f"{username} has an account already, kept as it is: {differs}")
        self._summary(course, report.enrolled, report.already)

    def _summary(self, course: Course, enrolled: list[str], already: list[str]) -> None:
        self.stdout.write(
            f"{course.slug}: enrolled {len(enrolled)}" + (f", {len(already)} already enrolled" if already else "")
        )
