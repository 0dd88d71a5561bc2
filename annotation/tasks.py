"""Celery tasks of the annotation app (eager in-process without REDIS_URL)."""

from __future__ import annotations

from celery import shared_task

from annotation.jobs import job_run


@shared_task(acks_late=True)
def job_run_task(job_id: int) -> str:
    """Run one ``Job`` (judge run or export); its row carries progress, result and file."""
    return job_run(job_id).status
