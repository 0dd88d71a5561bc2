from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from legalsim.llm import LLMError
from scoring.reflection import trial_reflect
from trials.models import Trial


class Command(BaseCommand):
    help = (
        "Reflective Legal Skill (LegalWorld section 4.6): the target lawyer's model turns each finished trial "
        "into a candidate rule; complete, new candidates become skill notes of the case's cause of action, "
        "given to the target lawyer of later trials run with --skill-notes."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("trial_ids", nargs="*", type=int, help="the trials to reflect on")
        parser.add_argument(
            "--cause", help="every finished trial of this cause of action run without notes and not reflected on yet"
        )
        parser.add_argument("--limit", type=int, default=0, help="at most this many trials of --cause")

    def handle(self, *args, trial_ids: list[int], **options) -> None:
        trials = self._chosen(trial_ids, options["cause"], options["limit"])
        kept = 0
        for trial in trials:
            try:
                reflection = trial_reflect(trial)
            except LLMError as error:
                raise CommandError(f"trial {trial.pk}: the model server failed: {error}") from None
            if reflection.note is None:
                self.stdout.write(f"trial {trial.pk}: dropped: {reflection.dropped}")
                continue
            kept += 1
            note = reflection.note
            self.stdout.write(
                f"trial {trial.pk}: kept note {note.pk} ({note.role}, {', '.join(note.stages)}): {note.trigger}"
            )
        self.stdout.write(f"{kept} of {len(trials)} candidate(s) kept")

    def _chosen(self, trial_ids: list[int], cause: str | None, limit: int) -> list[Trial]:
        if bool(trial_ids) == bool(cause):
            raise CommandError("name the trials to reflect on, or give --cause (not both)")
        if trial_ids:
            found = {trial.pk: trial for trial in Trial.objects.select_related("case").filter(pk__in=trial_ids)}
            missing = [str(pk) for pk in trial_ids if pk not in found]
            if missing:
                raise CommandError(f"no trial {', '.join(missing)}")
            return [found[pk] for pk in trial_ids]
        chosen = Trial.objects.select_related("case").filter(
            case__cause_of_action=cause, status=Trial.Status.FINISHED, skill_notes=[], reflected_notes=None
        )
        chosen = list(chosen.order_by("pk")[:limit] if limit else chosen.order_by("pk"))
        if not chosen:
            raise CommandError(f"no finished trial of {cause!r} left to reflect on")
        return chosen
