from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from legalsim.roles import Role, role_grant
from trials.models import Case
from trials.services import cases_import, trial_simulate

DEMO_CASES = Path(settings.BASE_DIR) / "demo" / "cases"
DEMO_USERS = (("admin", Role.ADMIN), ("instructor", Role.INSTRUCTOR), ("student", Role.STUDENT), ("rater", Role.RATER))


class Command(BaseCommand):
    help = "Load the demo case library and demo users, and simulate each demo case once."

    def handle(self, *args, **options) -> None:
        report = cases_import(paths=[DEMO_CASES])
        for problem in report.problems:
            self.stderr.write(str(problem))
        if report.rejected_files:
            raise CommandError("the demo library did not import")
        self.stdout.write(f"demo library: {len(report.imported)} cases")
        for case in Case.objects.filter(pk__in=report.imported, trials__isnull=True):
            trial = trial_simulate(case=case, backend="scripted")
            self.stdout.write(f"  simulated {case.pk}: trial {trial.pk}")
        self._users()

    def _users(self) -> None:
        user_model = get_user_model()
        for username, role in DEMO_USERS:
            if user_model.objects.filter(username=username).exists():
                self.stdout.write(f"user {username!r} exists (password unchanged)")
                continue
            password = secrets.token_urlsafe(9)
            role_grant(user_model.objects.create_user(username=username, password=password), role)
            self.stdout.write(self.style.SUCCESS(f"user {username!r} password: {password}"))
