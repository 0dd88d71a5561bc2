"""Shared output of the commands that run trials (simulate, resume_trial)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from trials.models import Trial
from trials.selectors import trial_summary


def report_trial(command: BaseCommand, trial: Trial, *, as_json: bool) -> None:
    if trial.status == Trial.Status.PAUSED:
        raise CommandError(
            f"trial {trial.pk} paused: {trial.pause_reason}\n"
            f"nothing is lost; fix the model server and run: python manage.py resume_trial {trial.pk}"
        )
    summary = trial_summary(trial)
    if as_json:
        command.stdout.write(json.dumps(summary, ensure_ascii=False))
        return
    for stage in summary["stages"]:
        kinds = ", ".join(stage["artifacts"]) or "-"
        command.stdout.write(f"{stage['stage']:<16} {stage['turns']:>3} turns   artifacts: {kinds}")
    for warning in summary["warnings"]:
        command.stdout.write(f"warning: {warning['stage']} {warning['seat']}: {warning['what']}")
    estimated = f" ({trial.tokens_estimated} of them estimated)" if trial.tokens_estimated else ""
    command.stdout.write(f"trial {trial.pk}, trajectory {summary['trajectory_id']}, {trial.tokens} tokens{estimated}")
