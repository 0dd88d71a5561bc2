"""Database work of the live path (drivers, sockets) off the event loop."""

from __future__ import annotations

import functools

from channels.db import DatabaseSyncToAsync

in_pool = functools.partial(DatabaseSyncToAsync, thread_sensitive=False)
"""Runs a database call in the executor's threads, in parallel across trials; Channels'
default (one thread for every sync call of the process) made a hundred trials queue."""
