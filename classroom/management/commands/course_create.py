from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from classroom.models import Course
from classroom.services import ClassroomError, course_create


class Command(BaseCommand):
    help = "Create a course taught by an existing user (given the instructor role if they lack it)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="the course's short name in its address, e.g. civil-procedure-2025")
        parser.add_argument("--title", required=True)
        parser.add_argument("--instructor", required=True, help="the username of the teaching instructor")
        parser.add_argument("--term", default="", help="e.g. 2025 spring")
        parser.add_argument("--language", default="en", choices=Course.Language.values)

    def handle(self, *args, slug: str, title: str, instructor: str, term: str, language: str, **options) -> None:
        user = get_user_model().objects.filter(username=instructor).first()
        if user is None:
            raise CommandError(f"--instructor: no user {instructor!r}")
        try:
            course = course_create(slug=slug, title=title, instructor=user, term=term, language=language)
        except ClassroomError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"course {course.slug} created, taught by {instructor}; invite code {course.invite_code}")
