from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from legalsim.json_input import UnreadableFile, file_text, read_document
from trials.batches import Progress, batch_create, batch_progress, batch_resume, persona_levels
from trials.models import Batch, Case
from trials.selectors import split_case_ids
from trials.services import BackendUnavailable, agent_participants
from trials.splits import SPLITS


class Command(BaseCommand):
    help = (
        "Run a case split (light, medium, full, or a file of case ids) through its procedure on "
        "the Celery workers, at most --concurrency cases at a time, with a progress bar."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--split", help="light, medium, full, or FILE (JSON list of ids, or one id a line)")
        parser.add_argument("--procedure", choices=("civil", "criminal"), default="civil")
        parser.add_argument("--concurrency", type=int, default=20, help="cases in flight at once (default 20)")
        parser.add_argument("--backend", choices=("scripted", "openai"), default=None)
        parser.add_argument("--target-side", choices=("plaintiff", "defendant"))
        parser.add_argument(
            "--models-target",
            metavar="A,B,...",
            help="compare target models: each case runs once per model, the environment's models fixed (openai)",
        )
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
        parser.add_argument("--resume", type=int, metavar="BATCH", help="carry on an interrupted or paused batch")
        parser.add_argument("--list", action="store_true", help="print the split's case ids and stop")
        parser.add_argument(
            "--detach",
            action="store_true",
            help="submit the batch and leave: the workers run it (needs REDIS_URL and a worker)",
        )

    def handle(self, *args, **options) -> None:
        if options["detach"] and _eager():
            raise CommandError("--detach needs Celery workers: set REDIS_URL and start one (celery -A legalsim worker)")
        if options["resume"] is not None:
            batch = Batch.objects.filter(pk=options["resume"]).first()
            if batch is None:
                raise CommandError(f"no batch {options['resume']}")
            requeued = batch_resume(batch=batch)
            self.stdout.write(f"batch {batch.pk}: carrying on ({requeued} paused cases queued again)")
        else:
            case_ids = self._case_ids(options["split"], options["procedure"])
            if options["list"]:
                self.stdout.write("\n".join(case_ids))
                return
            batch = self._batch(case_ids, options)
        if options["detach"]:
            from trials.tasks import batch_submit

            lanes = batch_submit(batch)
            self.stdout.write(
                f"batch {batch.pk}: submitted to the workers in {lanes} lanes. Follow it at /batches/{batch.pk}/"
            )
            return
        self._supervise(batch)

    def _case_ids(self, split: str | None, procedure: str) -> list[str]:
        if not split:
            raise CommandError("--split is required (light, medium, full or FILE), or --resume BATCH")
        if split in SPLITS:
            case_ids = split_case_ids(split=split, procedure=procedure)
            if not case_ids:
                raise CommandError(f"the case library has no {procedure} cases; import some with import_cases")
            return case_ids
        return _split_file(Path(split))

    def _batch(self, case_ids: list[str], options: dict) -> Batch:
        if options["concurrency"] < 1:
            raise CommandError("--concurrency must be at least 1")
        backend = options["backend"] or settings.LEGALSIM_AGENT_BACKEND
        cases = list(Case.objects.filter(pk__in=case_ids))
        procedures = {case.procedure for case in cases}
        if len(procedures) > 1:
            raise CommandError("a batch runs one procedure; the split mixes civil and criminal cases")
        try:
            agent_participants(next(iter(procedures)), backend, target_side=options["target_side"] or "plaintiff")
        except BackendUnavailable as error:
            raise CommandError(str(error)) from None
        models = _target_models(options["models_target"], backend)
        if options["supervisor"] and backend != "openai":
            raise CommandError("--supervisor checks model replies: it needs --backend openai")
        if options["skill_notes"] and backend != "openai":
            raise CommandError("--skill-notes are given to a model: it needs --backend openai")
        order = {case_id: index for index, case_id in enumerate(case_ids)}
        batch = batch_create(
            cases=sorted(cases, key=lambda case: order[case.pk]),
            split=options["split"],
            concurrency=options["concurrency"],
            backend=backend,
            target_side=options["target_side"],
            redistribute_personas=options["split"] in ("light", "medium"),
            target_models=models,
            supervised=options["supervisor"],
            skill_notes=options["skill_notes"],
            strategy=not options["no_strategy"],
        )
        self.stdout.write(f"batch {batch.pk}: {len(cases)} cases of the {options['split']} split, {backend} agents")
        if options["no_strategy"] and backend == "openai":
            self.stdout.write("no strategy: the model seats plan and reflect on nothing (SimCourt's ablation)")
        if models:
            self.stdout.write(f"target models compared: {', '.join(models)} (each case once per model)")
        if batch.personas:
            self.stdout.write("client personas (LCPF levels before -> after the medium-level rule):")
            for dimension, before in batch.personas["before"].items():
                self.stdout.write(
                    f"  {dimension}: {persona_levels(before)} -> {persona_levels(batch.personas['after'][dimension])}"
                )
        return batch

    def _supervise(self, batch: Batch) -> None:
        """Submit the batch and draw the progress bar until every case is done. With eager
        Celery (no workers) this process is the worker: it applies the batch's lanes in threads
        (or the whole chord in this thread when called inside a transaction, whose rows the
        threads' connections could not see)."""
        from trials.tasks import LaneThreads, batch_canvas, batch_submit

        if not _eager():
            logging.getLogger("celery.app.trace").setLevel(logging.WARNING)  # the bar replaces per-task lines
            batch_submit(batch)
            progress = self._follow(batch, pause=time.sleep, eager=False)
        elif connection.in_atomic_block:
            batch_canvas(batch).apply()
            progress = self._follow(batch, pause=time.sleep, eager=True)
        else:
            lanes = LaneThreads(batch)
            try:
                progress = self._follow(batch, pause=lanes.poll, eager=True)
            finally:
                lanes.close()
        self.stdout.write(f"batch {batch.pk}: {progress.finished} finished, {progress.paused} paused")
        if progress.paused:
            raise CommandError(
                f"{progress.paused} cases paused (see /batches/{batch.pk}/); nothing is lost: fix the model "
                f"server and run: python manage.py simulate_split --resume {batch.pk}"
            )

    def _follow(self, batch: Batch, *, pause: Callable[[float], None], eager: bool) -> Progress:
        """Draw the progress bar until every case is done."""
        started, hinted = time.monotonic(), False
        while True:
            progress = batch_progress(batch)
            self._draw(progress)
            if progress.complete:
                break
            if not (eager or hinted) and progress.running == progress.done == 0 and time.monotonic() - started > 30:
                sys.stderr.write("\nno worker has taken a case yet: is one running? (celery -A legalsim worker)\n")
                hinted = True
            pause(0.5)
        sys.stderr.write("\n")
        return progress

    def _draw(self, progress: Progress) -> None:
        width = 30
        filled = width * progress.done // max(progress.total, 1)
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {progress.done}/{progress.total} done, "
            f"{progress.running} running, {progress.queued + progress.sent} waiting, {progress.paused} paused "
        )
        sys.stderr.flush()


def _eager() -> bool:
    from legalsim.celery import app

    return bool(app.conf.task_always_eager)


def _target_models(raw: str | None, backend: str) -> list[str]:
    """The models of ``--models-target``, in order and once each."""
    if raw is None:
        return []
    models = list(dict.fromkeys(model.strip() for model in raw.split(",") if model.strip()))
    if not models:
        raise CommandError("--models-target needs at least one model name (A,B,...)")
    if backend != "openai":
        raise CommandError("--models-target compares models: it needs --backend openai")
    return models


def _split_file(path: Path) -> list[str]:
    """Case ids from a JSON list or a text file with one id a line; unknown ids are errors."""
    try:
        text = file_text(path)
    except UnreadableFile as error:
        raise CommandError(str(error.problem)) from None
    if text.lstrip().startswith("["):
        ids, problems = read_document(path)
        if problems:
            raise CommandError("\n".join(str(problem) for problem in problems))
        entries = [(1, str(case_id)) for case_id in ids]
    else:
        entries = [(line, item.strip()) for line, item in enumerate(text.split("\n"), start=1) if item.strip()]
    known = set(Case.objects.filter(pk__in=[case_id for _, case_id in entries]).values_list("pk", flat=True))
    unknown = [
        f"{path}:{line}: id: no case {case_id!r} in the library" for line, case_id in entries if case_id not in known
    ]
    if unknown:
        raise CommandError("\n".join(unknown))
    if not entries:
        raise CommandError(f"{path}: no case ids")
    return list(dict.fromkeys(case_id for _, case_id in entries))
