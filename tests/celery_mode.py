"""Whether Celery runs tasks in this process, set for a stretch of a test."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def celery_eager(eager: bool) -> Iterator[None]:
    """Run tasks in this process (``True``: with a broker configured and no worker) or hand
    them to the broker (``False``: a task left for a worker that is not there), then restore."""
    from legalsim.celery import app

    previous, app.conf.task_always_eager = app.conf.task_always_eager, eager
    try:
        yield
    finally:
        app.conf.task_always_eager = previous
