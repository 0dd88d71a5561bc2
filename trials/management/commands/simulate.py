from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from court.procedures import procedure_for
from trials.management.commands._output import report_trial
from trials.models import Case
from trials.services import BackendUnavailable, trial_simulate


class Command(BaseCommand):
    help = "Run a case through its procedure with every seat an agent, and store the trajectory."

    def add_arguments(self, parser) -> None:
        parser.add_argument("case_id")
        parser.add_argument("--target-side", choices=("plaintiff", "defendant"))
        parser.add_argument("--backend", choices=("scripted", "openai"), default=None)
        parser.add_argument("--until", metavar="STAGE", help="stop after this stage (e.g. FIT)")
        parser.add_argument("--json", action="store_true", help="print the result as JSON")
        parser.add_argument(
            "--supervisor",
            action="store_true",
            help="MASER supervisor: check and revise client and lawyer replies (openai)",
        )
        parser.add_argument(
            "--skill-notes",
            action="store_true",
            help="give the target lawyer the reflective skill notes of the case's cause (openai; see reflect_trials)",
        )
        parser.add_argument(
            "--no-strategy",
            action="store_true",
            help="SimCourt's ablation: model seats write no strategy and make no stage-end reflection (openai)",
        )

    def handle(
        self, *args, case_id: str, target_side: str | None, backend: str | None, until: str | None, **options
    ) -> None:
        case = Case.objects.filter(pk=case_id).first()
        if case is None:
            raise CommandError(f"no case {case_id!r}; import it with import_cases")
        stages = procedure_for(case.procedure).stage_ids
        if until is not None and until not in stages:
            raise CommandError(f"--until must be one of {', '.join(stages)} for a {case.procedure} case")
        if case.procedure == "criminal" and target_side == "plaintiff":
            raise CommandError("a criminal case has no plaintiff; the target side is the defendant")
        backend = backend or settings.LEGALSIM_AGENT_BACKEND
        if options["skill_notes"] and backend != "openai":
            raise CommandError("--skill-notes are given to a model: it needs --backend openai")
        try:
            trial = trial_simulate(
                case=case,
                target_side=target_side,
                backend=backend,
                until=until,
                supervised=options["supervisor"],
                skill_notes=options["skill_notes"],
                strategy=not options["no_strategy"],
            )
        except BackendUnavailable as error:
            raise CommandError(str(error)) from None
        report_trial(self, trial, as_json=options["json"])
