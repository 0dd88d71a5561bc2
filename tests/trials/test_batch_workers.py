"""Batch runs on real Celery worker processes over Redis, one of them killed mid-batch.

Runs when REDIS_URL is set (CI's production pass). The workers are ``celery worker``
subprocesses on a queue of this test's own; agents are the openai backend against the
loopback chat-completions server, slowed down so that cases are mid-stage when the first
worker is killed. The command submits the batch (a chord of lanes) and leaves (``--detach``):
the lanes run on the workers, and the recovery pass of the live ones (every half lease) sends
again the lanes of the dead one's cases, whose messages Redis keeps unacknowledged for its
visibility timeout (an hour).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from tests.llm_server import LoopbackLLM, default_brain
from tests.trials.library import library_import
from trials.models import Batch, BatchRun, Trial

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set (Celery workers need Redis)"),
]
ROOT = Path(__file__).resolve().parents[2]
LEASE_S = 4.0


def slow_brain(request: dict):
    time.sleep(0.01)
    return default_brain(request)


def database_url() -> str:
    """The test database, as the worker processes must reach it."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def worker_start(queue: str, llm: LoopbackLLM, log: Path) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "LEGALSIM_CELERY_QUEUE": queue,
        "LEGALSIM_AGENT_BACKEND": "openai",
        "OPENAI_BASE_URL": llm.base_url,
        "OPENAI_API_KEY": "test-key",
        "LEGALSIM_LLM_BACKOFF_S": "0",
        "LEGALSIM_BATCH_LEASE_S": str(LEASE_S),
    }
    command = [sys.executable, "-m", "celery", "-A", "legalsim", "worker", "-c", "2", "-l", "warning"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True
    )


def until(condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.1)


@pytest.fixture
def queue(settings):
    from legalsim.celery import app

    name = f"legalsim-test-{uuid.uuid4().hex[:8]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = name
    settings.LEGALSIM_BATCH_LEASE_S = LEASE_S
    yield name
    app.conf.task_default_queue = previous


def test_killing_a_worker_mid_batch_loses_no_case_and_runs_none_twice(tmp_path, queue, settings, capsys):
    settings.LEGALSIM_AGENT_BACKEND = "openai"
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = "http://127.0.0.1:9/v1", "test-key"
    library_import(tmp_path, cases=8, causes=2)
    log = tmp_path / "workers.log"
    with LoopbackLLM(slow_brain) as llm:
        first = worker_start(queue, llm, log)
        call_command("simulate_split", split="full", concurrency=4, detach=True)
        assert "submitted to the workers in 4 lanes" in capsys.readouterr().out, "the command submitted and left"
        try:
            until(lambda: BatchRun.objects.filter(status="running").exclude(checkpoint="").exists(), timeout=60)
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
            killed_at = time.time()
            in_flight = {
                run.pk: set(run.trial.turns.values_list("seq", flat=True))
                for run in BatchRun.objects.filter(status="running").exclude(checkpoint="").select_related("trial")
            }
            second = worker_start(queue, llm, log)
            until(lambda: not BatchRun.objects.exclude(status="finished").exists(), timeout=150)
            until(lambda: Batch.objects.get().finished_at is not None, timeout=LEASE_S * 2)
        finally:
            for process in [first, *([second] if "second" in locals() else [])]:
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGTERM)
                    process.wait(timeout=20)

    runs = list(BatchRun.objects.select_related("trial"))
    assert [run.status for run in runs] == ["finished"] * 8, log.read_text()[-3000:]
    assert Trial.objects.count() == 8, "each case ran in exactly one trial"
    assert all(hasattr(run.trial, "trajectory") for run in runs)
    for run in runs:
        seqs = list(run.trial.turns.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1)), "no turn lost or stored twice"
        history = run.trial.engine_state.stage_history
        assert len(history) == len(set(history)), "no stage ran twice"
    assert unacknowledged(queue), "the killed worker's messages wait for Redis' visibility timeout: the lease recovered"
    resumed = [run for run in runs if run.pk in in_flight]
    assert resumed and all(run.attempt == 2 for run in resumed), "the killed worker's cases were claimed again"
    for run in resumed:
        before_kill = set(run.trial.turns.filter(created_at__lt=_utc(killed_at)).values_list("seq", flat=True))
        assert in_flight[run.pk] <= before_kill, "the stages stored before the kill were kept, not redone"


def unacknowledged(queue: str) -> list[dict]:
    """The messages of ``queue`` delivered and never acknowledged (kombu's Redis ``unacked`` hash)."""
    import redis

    entries = [json.loads(entry) for entry in redis.Redis.from_url(os.environ["REDIS_URL"]).hvals("unacked")]
    return [message for message, _, routing_key in entries if routing_key == queue]


def _utc(timestamp: float):
    from datetime import UTC, datetime

    return datetime.fromtimestamp(timestamp, tz=UTC)
