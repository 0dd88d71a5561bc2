from __future__ import annotations

from datetime import datetime

from django.core.management.base import BaseCommand, CommandError

from classroom.assignments import assignment_create
from classroom.models import Course
from classroom.services import ClassroomError
from trials.models import Case


def moment(text: str | None, option: str) -> datetime | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{option}: {text!r} is not an ISO date and time (e.g. 2025-06-01T23:59+08:00)") from None


def listed(text: str | None) -> list[str]:
    return [item.strip() for item in (text or "").split(",") if item.strip()]


class Command(BaseCommand):
    help = "Assign a case to a course: the seats students play, the stages, the due date, the attempts."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--case", required=True, metavar="CASE_ID")
        parser.add_argument("--seats", required=True, metavar="SEAT[,SEAT]")
        parser.add_argument("--stages", metavar="STAGE[,STAGE]", help="default, or 'all': the whole procedure")
        parser.add_argument("--due", metavar="ISO", help="e.g. 2025-06-01T23:59+08:00")
        parser.add_argument("--opens", metavar="ISO", help="default: now")
        parser.add_argument("--attempts", type=int, default=1)
        parser.add_argument("--paired", action="store_true", help="two students as opposing counsel")
        parser.add_argument("--title", default="", help="default: the case's title")

    def handle(self, *args, **options) -> None:
        course = Course.objects.filter(slug=options["slug"]).first()
        if course is None:
            raise CommandError(f"no course {options['slug']!r}")
        case = Case.objects.filter(pk=options["case"]).first()
        if case is None:
            raise CommandError(f"--case: no case {options['case']!r}; import it first (import_cases)")
        stages = [] if options["stages"] in (None, "all") else listed(options["stages"])
        try:
            assignment = assignment_create(
                course=course,
                case=case,
                seats=listed(options["seats"]),
                stages=stages,
                opens_at=moment(options["opens"], "--opens"),
                due_at=moment(options["due"], "--due"),
                attempts=options["attempts"],
                paired=options["paired"],
                title=options["title"],
            )
        except ClassroomError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"assignment {assignment.pk} in {course.slug}: {case.pk}, seats {', '.join(assignment.seats)}, "
            f"stages {', '.join(assignment.stages) or 'all'}, due {assignment.due_at.isoformat() if assignment.due_at else 'never'}"
        )
