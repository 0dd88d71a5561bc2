"""The trials app's task interface: what its domain modules (services, leases, preparation,
batches) know of the Celery workers, without importing ``trials.tasks``.

``trials.tasks`` is the thin Celery layer on top: it imports the domain modules and calls
into them, so none of them may import it back. A domain module that hands work to the
workers sends it here by the task's name. Celery finds the task ``trials.tasks`` registered
under that name and applies it as the task's own ``delay`` would (in this process, eagerly,
without ``REDIS_URL``), so sending by name changes nothing of how the work runs; a name
nobody registered raises ``NotRegistered`` (``tests/trials/test_workers.py`` names each one).
"""

from __future__ import annotations

from legalsim.celery import app

PREPARE = "trials.tasks.trial_prepare_task"
"""Plays a new live trial's earlier stages (``trials.preparation.trial_prepare``)."""


def prepared_by_driver() -> bool:
    """Without Celery workers (the embedded defaults run tasks eagerly) the stages are played
    by the trial's driver, in a thread of the process that serves its room, not inside the
    request that created the trial: the room opens at once and shows the progress."""
    return bool(app.conf.task_always_eager)


def task_send(name: str, *args: int) -> None:
    """Hand the task registered as ``name`` to the workers (applied here when Celery is
    eager), as its ``delay(*args)`` would. The apps' task modules are imported first, as a
    worker does at its start (Celery's autodiscovery), so a process that never imported them
    (the web server) knows every task. The annotation and classroom apps send theirs here too."""
    app.loader.import_default_modules()
    app.tasks[name].delay(*args)
