from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from classroom.models import Course, RosterJob
from classroom.rosters import roster_check, roster_job_start, roster_links_take
from classroom.services import ClassroomError, course_enrol


class Command(BaseCommand):
    help = (
        "Enrol students in a course: existing users by username, or a roster CSV "
        "(username,email,full_name) whose unknown people get accounts and a set-password link. "
        "A roster is checked whole first: any bad row stores nothing and every bad row is reported; "
        "it is then enrolled in short transactions, and a failure says which rows are enrolled. "
        "An account with another role than the student's is refused unless --as-student-anyway."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("usernames", nargs="*", metavar="USER")
        parser.add_argument(
            "--csv", type=Path, dest="roster", metavar="FILE", help="a roster: username,email,full_name"
        )
        parser.add_argument(
            "--as-student-anyway",
            action="store_true",
            help="also enrol (and make students of) raters, instructors and admins",
        )

    def handle(
        self, *args, slug: str, usernames: list[str], roster: Path | None, as_student_anyway: bool, **options
    ) -> None:
        if bool(usernames) == bool(roster):
            raise CommandError("name usernames or --csv FILE (one of the two)")
        course = Course.objects.filter(slug=slug).first()
        if course is None:
            raise CommandError(f"no course {slug!r}")
        if roster is None:
            try:
                enrolled, already = course_enrol(
                    course=course, usernames=usernames, as_student_anyway=as_student_anyway
                )
            except ClassroomError as error:
                raise CommandError(str(error)) from None
            self._summary(course, len(enrolled), len(already))
            return
        if not roster.is_file():
            raise CommandError(f"no such file: {roster}")
        self._roster(course, roster, as_student_anyway)

    def _roster(self, course: Course, roster: Path, as_student_anyway: bool) -> None:
        """Check the file, enrol it here batch by batch, then print the links of the accounts
        created (also those of the batches done before a failure)."""
        check = roster_check(path=roster, as_student_anyway=as_student_anyway)
        for problem in check.problems:
            self.stderr.write(str(problem))
        if check.problems:
            raise CommandError(f"{roster}: {len(check.problems)} problem(s); nobody was enrolled")
        job = roster_job_start(course=course, check=check, by=None, in_process=True)
        for user, link in roster_links_take(job=job):
            self.stdout.write(f"new account {user.get_username()}: set a password at {link}")
        for username, differs in job.kept:
            self.stdout.write(f"{username} has an account already, kept as it is: {differs}")
        if job.status == RosterJob.Status.FAILED:
            raise CommandError(job.error)
        self._summary(course, job.enrolled, job.already)

    def _summary(self, course: Course, enrolled: int, already: int) -> None:
        self.stdout.write(f"{course.slug}: enrolled {enrolled}" + (f", {already} already enrolled" if already else ""))
