from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from trials.models import Case
from trials.services import BackendUnavailable, trial_create


class Command(BaseCommand):
    help = "Create a live trial: the named seats are held by users, every other seat by an agent."

    def add_arguments(self, parser) -> None:
        parser.add_argument("case_id")
        parser.add_argument("--stages", default="all", help="comma-separated stages to play (e.g. FIT,SIT) or all")
        parser.add_argument("--target-side", choices=("plaintiff", "defendant"))
        parser.add_argument("--human", action="append", default=[], metavar="SEAT=USERNAME")
        parser.add_argument(
            "--supervisor",
            action="store_true",
            help="MASER supervisor: check and revise the agent clients' and lawyers' replies (openai)",
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, case_id: str, stages: str, target_side: str | None, human: list[str], **options) -> None:
        if options["supervisor"] and settings.LEGALSIM_AGENT_BACKEND != "openai":
            raise CommandError("--supervisor checks model replies: it needs LEGALSIM_AGENT_BACKEND=openai")
        case = Case.objects.filter(pk=case_id).first()
        if case is None:
            raise CommandError(f"no case {case_id!r}; import it with import_cases")
        humans = {}
        for binding in human:
            seat, _, username = binding.partition("=")
            user = get_user_model().objects.filter(username=username).first()
            if not seat or user is None:
                raise CommandError(f"--human {binding!r}: expected SEAT=USERNAME of an existing user")
            humans[seat] = user
        chosen = None if stages == "all" else [stage.strip() for stage in stages.split(",") if stage.strip()]
        try:
            trial = trial_create(
                live=True,
                case=case,
                humans=humans,
                stages=chosen,
                target_side=target_side,
                supervised=options["supervisor"],
            )
        except (ValueError, BackendUnavailable) as error:
            raise CommandError(str(error)) from None
        result = {
            "trial_id": trial.pk,
            "ws_path": f"/ws/trials/{trial.pk}/",
            "seats": {seat.seat: seat.holder for seat in trial.seats.select_related("user").order_by("id")},
        }
        if options["json"]:
            self.stdout.write(json.dumps(result, ensure_ascii=False))
            return
        self.stdout.write(f"trial {trial.pk}: connect to {result['ws_path']} (room: /trials/{trial.pk}/)")
        for seat, holder in result["seats"].items():
            self.stdout.write(f"  {seat:<18} {holder}")
