"""The demo rater's study, after ``seed_demo`` (``dev.py up`` runs both): the rater of a fresh
demo has something to rate at once."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db.models import QuerySet

from annotation.models import Rubric, Study, Trajectory
from annotation.rubric import DEFAULT_RUBRIC
from annotation.study_setup import raters_found, study_store
from trials.management.commands.seed_demo import DEMO_CASES
from trials.models import Case

DEMO_STUDY = "Demo study"
DEMO_STUDY_INSTRUCTIONS = (
    "A demo study: the civil demo cases, each played once by the offline scripted agents. Read a trajectory, "
    "then score every item of the rubric and give a reason for each score."
)


class Command(BaseCommand):
    help = (
        "Create the demo rating study: the first all-agent trajectory of each civil demo case, on the default "
        "rubric, assigned to the demo rater (run seed_demo first). Running it again creates nothing twice."
    )

    def handle(self, *args, **options) -> None:
        if Study.objects.filter(name=DEMO_STUDY).exists():
            self.stdout.write(f"study {DEMO_STUDY!r} exists")
            return
        raters, problems = raters_found(["rater"])
        if problems:
            self.stderr.write(f"study {DEMO_STUDY!r} not created: {'; '.join(problems)}")
            return
        demo_cases = Case.objects.filter(pk__in=[path.stem for path in DEMO_CASES.glob("*.json")])
        units = _first_trajectories(demo_cases.filter(procedure=Case.Procedure.CIVIL))
        created = study_store(
            name=DEMO_STUDY,
            rubric=Rubric.objects.get(pk=DEFAULT_RUBRIC),
            units=units,
            raters=raters,
            k=1,
            instructions=DEMO_STUDY_INSTRUCTIONS,
        )
        self.stdout.write(f"study {DEMO_STUDY!r}: {len(units)} trajectories, {created.planned} assigned to 'rater'")


def _first_trajectories(cases: QuerySet[Case]) -> list[str]:
    """Per case, its oldest trajectory of a trial no person played and no course owns."""
    trajectories = (
        Trajectory.objects.filter(case_id__in=cases.values("pk"), trial__course__isnull=True)
        .exclude(trial__seats__user__isnull=False)
        .order_by("case_id", "created_at", "pk")
        .values_list("case_id", "pk")
    )
    first: dict[str, str] = {}
    for case_id, trajectory_id in trajectories:
        first.setdefault(case_id, trajectory_id)
    return list(first.values())
