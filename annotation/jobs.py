"""Background jobs of the annotation app: LLM judge runs and large exports.

A ``Job`` row is created in the request (or command), the work runs in a Celery worker (in
process when Celery is eager), and the row carries the progress and, for exports, the file
that the download view streams. Only the job's own fields are written while it runs, so a
page polling it never waits on the work.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser
from django.core.files.base import ContentFile, File
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from annotation.bootstrap import REPLICATES
from annotation.exports import LAYOUTS, ratings_csv_write
from annotation.models import Job, Rubric, Study
from annotation.reports import FORMATS, report_file
from annotation.services import trajectories_judge
from trials.workers import task_send

logger = logging.getLogger(__name__)

JOB_RUN = "annotation.tasks.job_run_task"
"""The task that runs a job (``job_run``), sent by its name: ``annotation.tasks`` is the
Celery layer on top of this module and imports it, so this module never imports it back."""


class JobError(ValueError):
    """A job that cannot be started as asked; the message says why."""


def job_start(*, kind: str, rubric: Rubric, study: Study | None, params: dict, user: AbstractBaseUser | None) -> Job:
    """Create the job and hand it to a worker (or run it here when Celery is eager).

    Call it outside a transaction, as views and commands do: a worker must see the row."""
    _check(kind, params)
    job = Job.objects.create(kind=kind, rubric=rubric, study=study, params=params, created_by=user)
    task_send(JOB_RUN, job.pk)
    job.refresh_from_db()
    return job


def _check(kind: str, params: dict) -> None:
    if kind == Job.Kind.JUDGE:
        if not params.get("model") or not params.get("trajectory_ids"):
            raise JobError(_("a judge run needs a model and at least one trajectory"))
    elif kind == Job.Kind.AGREEMENT_REPORT:
        if params.get("format") not in FORMATS:
            raise JobError(_("format must be one of %(choices)s") % {"choices": ", ".join(FORMATS)})
    elif kind == Job.Kind.RATINGS_EXPORT:
        if params.get("layout") not in LAYOUTS:
            raise JobError(_("layout must be one of %(choices)s") % {"choices": ", ".join(LAYOUTS)})
    else:
        raise JobError(_("unknown job kind %(kind)r") % {"kind": kind})


def job_run(job_id: int) -> Job:
    """Run a queued job to the end. A failure is recorded on the job (kind and message, for
    the page and the command line) rather than raised: the row is the record of the run."""
    job = Job.objects.select_related("rubric", "study").get(pk=job_id)
    if job.finished:
        return job
    _update(job, status=Job.Status.RUNNING)
    try:
        RUNNERS[job.kind](job, lambda done, total: _update(job, done=done, total=total))
    except Exception as error:
        logger.exception("job %s failed", job.pk)
        _update(job, status=Job.Status.FAILED, error=f"{type(error).__name__}: {error}", finished_at=timezone.now())
        return job
    _update(job, status=Job.Status.DONE, finished_at=timezone.now())
    return job


def _update(job: Job, **fields) -> None:
    for name, value in fields.items():
        setattr(job, name, value)
    Job.objects.filter(pk=job.pk).update(**fields)


def _run_judge(job: Job, progress: Callable[[int, int], None]) -> None:
    ids = job.params["trajectory_ids"]
    progress(0, len(ids))
    report = trajectories_judge(
        rubric_id=job.rubric_id, model=job.params["model"], trajectory_ids=ids, progress=progress
    )
    _update(job, result={"scored": report.scored, "flagged": report.flagged})


def _run_agreement_report(job: Job, progress: Callable[[int, int], None]) -> None:
    fmt = job.params["format"]
    progress(0, 1)
    with translation.override(job.params.get("language") or None):
        content, summary = report_file(
            rubric=job.rubric,
            judge=job.params.get("judge") or None,
            study=job.study,
            fmt=fmt,
            replicates=job.params.get("bootstrap", REPLICATES),
        )
    job.file.save(
        f"{_stem(job)}-agreement-{slugify(summary['judge'] or 'no-judge')}.{fmt}", ContentFile(content), save=False
    )
    _update(job, file=job.file.name, result=summary)
    progress(1, 1)


def _run_ratings_export(job: Job, progress: Callable[[int, int], None]) -> None:
    """Written to a scratch file first (exports can be large), then stored as the job's file."""
    layout = job.params["layout"]
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "ratings.csv"
        with path.open("w", newline="", encoding="utf-8") as handle:
            count = ratings_csv_write(handle, rubric=job.rubric, layout=layout, study=job.study, progress=progress)
        with path.open("rb") as handle:
            job.file.save(f"{_stem(job)}-ratings-{layout}.csv", File(handle), save=False)
    _update(job, file=job.file.name, result={"rows": count})


def _stem(job: Job) -> str:
    return slugify(job.study.name) if job.study else job.rubric_id


RUNNERS: dict[str, Callable[[Job, Callable[[int, int], None]], None]] = {
    Job.Kind.JUDGE: _run_judge,
    Job.Kind.AGREEMENT_REPORT: _run_agreement_report,
    Job.Kind.RATINGS_EXPORT: _run_ratings_export,
}
