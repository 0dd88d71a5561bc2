"""Celery tasks of the classroom app (eager in-process without REDIS_URL)."""

from __future__ import annotations

from celery import shared_task

from classroom.rosters import roster_job_run


@shared_task(acks_late=True)
def roster_job_run_task(job_id: int) -> str:
    """Enrol a roster job's rows; a second delivery carries on from the last committed batch."""
    return roster_job_run(job_id).status
