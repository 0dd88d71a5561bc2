from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from annotation.models import Rubric, Trajectory
from annotation.rubric import DEFAULT_RUBRIC
from annotation.tasks import judge_trajectories_task
from trials.agents.llm import LLMError


class Command(BaseCommand):
    help = "Score trajectories with the LLM judge (LEGALSIM_MODEL_JUDGE) on a rubric, as a Celery task."

    def add_arguments(self, parser) -> None:
        parser.add_argument("ids", nargs="*", help="trajectory ids (default: all)")
        parser.add_argument("--rubric", default=DEFAULT_RUBRIC)
        parser.add_argument("--model", default=None, help="judge model (default LEGALSIM_MODEL_JUDGE)")

    def handle(self, *args, ids: list[str], rubric: str, model: str | None, **options) -> None:
        if not Rubric.objects.filter(pk=rubric).exists():
            raise CommandError(f"no rubric {rubric!r}")
        ids = ids or list(Trajectory.objects.values_list("pk", flat=True))
        missing = sorted(set(ids) - set(Trajectory.objects.filter(pk__in=ids).values_list("pk", flat=True)))
        if missing:
            raise CommandError(f"no trajectory {', '.join(missing)}")
        model = model or settings.LEGALSIM_MODEL_JUDGE
        try:
            result = judge_trajectories_task.delay(rubric, model, ids).get()
        except LLMError as error:
            raise CommandError(f"the judge could not be reached: {error}") from None
        self.stdout.write(f"judge {model}: scored {len(result['scored'])}, flagged for audit {len(result['flagged'])}")
        for trajectory_id in result["flagged"]:
            self.stdout.write(f"  flagged: {trajectory_id}")
