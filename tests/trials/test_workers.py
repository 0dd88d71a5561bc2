"""The task interface (issue #47): the domain modules send work to the Celery tasks by name,
without importing the task modules, and it runs as the tasks' own ``delay`` ran it: in the
sending process when Celery is eager, on the broker otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

from annotation.jobs import JOB_RUN
from annotation.tasks import job_run_task
from classroom.rosters import ROSTER_JOB_RUN
from classroom.tasks import roster_job_run_task
from legalsim.celery import app
from tests.celery_mode import celery_eager
from tests.conftest import ROOT
from trials.tasks import trial_prepare_task
from trials.workers import PREPARE, prepared_by_driver


def test_each_name_sent_is_the_task_it_stands_for():
    assert [app.tasks[name] for name in (PREPARE, JOB_RUN, ROSTER_JOB_RUN)] == [
        trial_prepare_task,
        job_run_task,
        roster_job_run_task,
    ]


def test_the_driver_prepares_a_trial_only_without_workers():
    with celery_eager(True):
        assert prepared_by_driver()
    with celery_eager(False):
        assert not prepared_by_driver()


SENDER = """
import sys
import django
django.setup()
from annotation.jobs import JOB_RUN
from trials.workers import task_send
print("annotation.tasks" in sys.modules)
try:
    task_send(JOB_RUN, 1)
except Exception as error:
    print(type(error).__name__, error)
"""


def test_a_process_that_never_imported_the_tasks_runs_one_sent_by_name_in_process(tmp_path):
    """The web server imports the domain modules, not the tasks: a job sent by name with
    Celery eager still runs there and then (here it reaches the empty database it is
    given), instead of waiting on an in-memory queue no worker reads."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}"}
    env.pop("REDIS_URL", None)
    env["DJANGO_SETTINGS_MODULE"] = "legalsim.settings"
    sent = subprocess.run([sys.executable, "-c", SENDER], cwd=ROOT, env=env, capture_output=True, text=True)
    assert sent.stdout.splitlines() == ["False", "OperationalError no such table: annotation_job"], sent.stderr
