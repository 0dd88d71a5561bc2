"""Loaded before Django (``-p tests.workers`` in pytest's options): gives each pytest-xdist
worker its own Redis database, as it has its own test database.

Two workers' trials share ids (each test database counts from 1), and the channel layer,
the Celery broker and the cache key their groups, queues and counters by name only: on one
Redis database a trial's frames, a batch's tasks or a throttle's counter would cross from one
worker's tests into the other's. The daphne and Celery processes the tests start inherit the
environment, so they follow."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16
"""Redis' default ``databases``: worker N uses the database after the one named, modulo 16."""


def redis_url_of_worker(url: str, worker: str) -> str:
    """``url`` with its database number moved by the worker's number (``gw1``: +1)."""
    parts = urlsplit(url)
    named = int(parts.path.strip("/") or 0)
    database = (named + int(worker.removeprefix("gw"))) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{database}"))


if (worker := os.environ.get("PYTEST_XDIST_WORKER")) and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = redis_url_of_worker(os.environ["REDIS_URL"], worker)
