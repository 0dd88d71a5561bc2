from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from trials.management.commands._output import report_trial
from trials.models import Trial
from trials.services import BackendUnavailable, trial_resume


class Command(BaseCommand):
    help = "Resume a trial that paused because its model server failed, from the step it could not take."

    def add_arguments(self, parser) -> None:
        parser.add_argument("trial_id", type=int)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, trial_id: int, **options) -> None:
        trial = Trial.objects.filter(pk=trial_id).first()
        if trial is None:
            raise CommandError(f"no trial {trial_id}")
        if trial.status != Trial.Status.PAUSED:
            raise CommandError(f"trial {trial_id} is {trial.get_status_display().lower()}; only a paused trial resumes")
        try:
            trial = trial_resume(trial=trial)
        except BackendUnavailable as error:
            raise CommandError(str(error)) from None
        report_trial(self, trial, as_json=options["json"])
