"""Celery tasks of the classroom app (eager in-process without REDIS_URL), and its part of the
workers' recovery pass (``trials.tasks.recovering``): roster jobs a killed worker left."""

from __future__ import annotations

from celery import shared_task
from django.dispatch import receiver

from classroom.rosters import roster_job_run, rosters_recover
from trials.tasks import recovering


@shared_task(acks_late=True)
def roster_job_run_task(job_id: int) -> str:
    """Enrol a roster job's rows; a second delivery carries on from the last committed batch,
    or leaves the job to the run that holds its lease."""
    return roster_job_run(job_id).status


@receiver(recovering)
def _rosters_recover(**kwargs) -> int:
    return rosters_recover()
