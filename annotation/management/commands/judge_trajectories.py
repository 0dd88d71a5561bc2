from __future__ import annotations

import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from annotation.jobs import job_start
from annotation.models import Job, Rubric, Trajectory
from annotation.rubric import DEFAULT_RUBRIC

POLL_S = 0.5


class Command(BaseCommand):
    help = (
        "Score trajectories with the LLM judge (LEGALSIM_MODEL_JUDGE) on a rubric, as a Celery job with a progress bar."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "ids", nargs="*", help="trajectory ids (default: all); pairs FIRST|SECOND for a pairwise rubric"
        )
        parser.add_argument("--rubric", default=DEFAULT_RUBRIC)
        parser.add_argument("--model", default=None, help="judge model (default LEGALSIM_MODEL_JUDGE)")

    def handle(self, *args, ids: list[str], rubric: str, model: str | None, **options) -> None:
        stored = Rubric.objects.filter(pk=rubric).first()
        if stored is None:
            raise CommandError(f"no rubric {rubric!r}")
        kind = stored.definition.kind
        if kind.is_pairwise and not ids:
            raise CommandError("a pairwise rubric judges pairs: name them as FIRST|SECOND")
        ids = ids or list(Trajectory.objects.values_list("pk", flat=True))
        if bad := [unit for unit in ids if kind.unit(unit) is None]:
            raise CommandError(f"not a pair FIRST|SECOND: {', '.join(bad)}")
        needed = {tid for unit in ids for tid in kind.trajectory_ids(unit)}
        missing = sorted(needed - set(Trajectory.objects.filter(pk__in=needed).values_list("pk", flat=True)))
        if missing:
            raise CommandError(f"no trajectory {', '.join(missing)}")
        model = model or settings.LEGALSIM_MODEL_JUDGE
        job = job_start(
            kind=Job.Kind.JUDGE, rubric=stored, study=None, params={"model": model, "trajectory_ids": ids}, user=None
        )
        job = self._follow(job)
        if job.status == Job.Status.FAILED:
            raise CommandError(f"judge run {job.pk} failed: {job.error}")
        scored, flagged = job.result["scored"], job.result["flagged"]
        self.stdout.write(f"judge {model}: scored {len(scored)}, flagged for audit {len(flagged)}")
        for trajectory_id in flagged:
            self.stdout.write(f"  flagged: {trajectory_id}")

    def _follow(self, job: Job) -> Job:
        """Draw the progress bar until a worker (or the eager run) finishes the job."""
        while True:
            job.refresh_from_db()
            filled = job.percent // 5
            line = (
                f"\r[{'#' * filled}{'.' * (20 - filled)}] {job.done}/{job.total or len(job.params['trajectory_ids'])}"
            )
            self.stderr.write(line, ending="")
            if job.finished:
                self.stderr.write("")
                return job
            sys.stderr.flush()
            time.sleep(POLL_S)
