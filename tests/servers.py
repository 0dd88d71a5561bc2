"""Real servers for the tests: a daphne process on the test database, as a deployment runs it,
with nothing inherited from the test process but the environment it is given."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.db import connection
from django.test import Client

from tests.conftest import ROOT


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_wait(port: int, timeout: float = 30.0, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if process is not None and process.poll() is not None:
                break
            time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


def database_url_in_use() -> str:
    """The URL of the database this test uses, for a server process."""
    config = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{config['NAME']}"
    credentials = quote(config["USER"] or "") + (f":{quote(config['PASSWORD'])}" if config.get("PASSWORD") else "")
    return f"postgres://{credentials}@{config['HOST'] or '127.0.0.1'}:{config['PORT'] or 5432}/{config['NAME']}"


REDIS_SERVER = shutil.which("redis-server")


def redis_start(port: int) -> subprocess.Popen:
    """A private redis-server (nothing kept on disk), for tests that kill or share one."""
    server = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    port_wait(port)
    return server


@contextmanager
def two_daphnes_on_private_redis(
    folder: Path, processes: list | None = None, **env: str
) -> Iterator[tuple[int, int, int, list[subprocess.Popen]]]:
    """Two daphne processes sharing the test database and a private Redis: yields (first
    port, second port, Redis port, [the Redis process], which a test may replace after
    killing it)."""
    redis_port = free_port()
    redis = [redis_start(redis_port)]
    env = {"REDIS_URL": f"redis://127.0.0.1:{redis_port}/0", **env}
    try:
        with (
            daphne(folder / "first.log", processes, **env) as first,
            daphne(folder / "second.log", processes, **env) as second,
        ):
            yield first, second, redis_port, redis
    finally:
        redis[0].kill()
        redis[0].wait()


@contextmanager
def daphne(log_path: Path, processes: list | None = None, **env: str) -> Iterator[int]:
    """A daphne process serving LegalSim on the test database; yields its port (and appends
    the process to ``processes``, for a test that kills it). ``env`` overrides the
    environment (pace of the scripted agents, a private Redis...)."""
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": database_url_in_use(),
        "DJANGO_SETTINGS_MODULE": "legalsim.settings",
        "LEGALSIM_SCRIPTED_TOKENS_PER_S": "0",
        "LEGALSIM_OBJECTION_GRACE_S": "0",
        **env,
    }
    with log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "legalsim.asgi:application"],
            cwd=ROOT,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        if processes is not None:
            processes.append(server)
        try:
            port_wait(port, process=server)
            yield port
        finally:
            stop(server)
            print(log_path.read_text()[-4000:])


def stop(server: subprocess.Popen, grace_s: float = 10.0) -> None:
    """SIGTERM, then SIGKILL after ``grace_s``, as systemd stops the service. A daphne that
    is stopped while a request is in flight can wait forever in its exit (the request's
    thread waits for the event loop that has stopped, on the sync middleware's hop back),
    which is a shutdown matter, not what these tests are about; the unit sets the same limit."""
    server.terminate()
    try:
        server.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        print(f"daphne did not stop within {grace_s:g} s of SIGTERM: killed")
        server.kill()
        server.wait(timeout=10)


@contextmanager
def celery_worker(log_path: Path, **env: str) -> Iterator[None]:
    """A Celery worker on the test database, as a deployment runs one beside daphne: started
    when REDIS_URL is set (without it the server runs its tasks itself). Pass the same
    ``LEGALSIM_CELERY_QUEUE`` to the server so the two share a queue no other test uses."""
    if not os.environ.get("REDIS_URL"):
        yield
        return
    environment = {**os.environ, "DATABASE_URL": database_url_in_use(), **env}
    command = [sys.executable, "-m", "celery", "-A", "legalsim", "worker", "-c", "1", "-l", "warning"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    with log_path.open("w") as log:
        worker = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            yield
        finally:
            worker.terminate()
            worker.wait(timeout=20)


def session_key_for(user) -> str:
    """A signed-in session of ``user`` in the test database, usable by any server process."""
    browser = Client()
    browser.force_login(user)
    return browser.cookies["sessionid"].value
