from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotation.rubric import DEFAULT_RUBRIC
from annotation.study_setup import StudySetupError, study_create


class Command(BaseCommand):
    help = (
        "Create a rating study: trajectories from a file (one id a line; blank lines and # comments ignored), "
        "raters who hold the rater role, k raters per trajectory; its assignments are planned at once. "
        "Nothing is created when anything is wrong."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("name")
        parser.add_argument("--rubric", default=DEFAULT_RUBRIC)
        parser.add_argument("--trajectories", required=True, type=Path, metavar="FILE")
        parser.add_argument("--raters", required=True, metavar="A,B,...", help="usernames, comma-separated")
        parser.add_argument("--k", required=True, type=int, help="raters per trajectory")

    def handle(self, *args, name: str, rubric: str, trajectories: Path, raters: str, k: int, **options) -> None:
        try:
            created = study_create(
                name=name, rubric_id=rubric, trajectories_file=trajectories, rater_names=raters.split(","), k=k
            )
        except StudySetupError as error:
            for problem in error.problems:
                self.stderr.write(problem)
            raise CommandError(f"study {name!r} not created: {len(error.problems)} problem(s)") from None
        study = created.study
        self.stdout.write(
            f"study {study.name} created: {len(study.trajectory_ids)} trajectory(ies), {study.raters.count()} rater(s), "
            f"k={study.raters_per_trajectory}; {created.planned} assignment(s) planned"
        )
