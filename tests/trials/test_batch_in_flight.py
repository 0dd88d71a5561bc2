"""Many batch cases in flight: without workers (the embedded defaults) the command runs them
in threads of its own, and on PostgreSQL a threads-pool worker keeps more cases in flight than
its database role may open connections, since a case waiting on a model holds none."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from tests.llm_server import LoopbackLLM, default_brain
from tests.trials.library import library_import
from trials.models import BatchRun, Trial

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


class Crowd:
    """A brain that takes ``delay_s`` a reply and counts the requests it answers at once."""

    def __init__(self, delay_s: float) -> None:
        self.delay_s, self.now, self.most = delay_s, 0, 0
        self.lock = threading.Lock()

    def __call__(self, request: dict):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(self.delay_s)
        with self.lock:
            self.now -= 1
        return default_brain(request)


def assert_each_case_ran_once(cases: int) -> None:
    runs = list(BatchRun.objects.select_related("trial"))
    assert [run.status for run in runs] == ["finished"] * cases
    assert Trial.objects.count() == cases, "each case ran in exactly one trial"
    for run in runs:
        seqs = list(run.trial.turns.order_by("seq").values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1)), "no turn lost or stored twice"
        history = run.trial.engine_state.stage_history
        assert len(history) == len(set(history)), "no stage ran twice"


def test_without_workers_the_command_keeps_concurrency_cases_in_flight(
    openai_settings, tmp_path, tasks_in_process, capsys
):
    crowd = Crowd(delay_s=0.02)
    library_import(tmp_path, cases=6, causes=2)
    with LoopbackLLM(crowd) as llm:
        openai_settings.OPENAI_BASE_URL = llm.base_url
        call_command("simulate_split", split="full", concurrency=3, backend="openai")
    assert "6 finished, 0 paused" in capsys.readouterr().out
    assert crowd.most == 3, "three cases waited on the model at once, never more"
    assert_each_case_ran_once(6)


@pytest.fixture
def limited_role():
    """A PostgreSQL role that may open 4 connections, with the rights the app needs."""
    if connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"):
        pytest.skip("needs PostgreSQL and REDIS_URL (a real worker process)")
    role = f"legalsim_limited_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 4")
        cursor.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
        cursor.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
    yield role
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [role])
        cursor.execute(f"DROP OWNED BY {role}")
        cursor.execute(f"DROP ROLE {role}")


def worker_start(role: str, llm: LoopbackLLM, queue: str, log: Path) -> subprocess.Popen:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{role}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "LEGALSIM_DB_POOL_SIZE": "3",
        "LEGALSIM_CELERY_QUEUE": queue,
        "LEGALSIM_AGENT_BACKEND": "openai",
        "OPENAI_BASE_URL": llm.base_url,
        "OPENAI_API_KEY": "test-key",
        "LEGALSIM_LLM_BACKOFF_S": "0",
        "LEGALSIM_BATCH_LEASE_S": "20",
    }
    command = [sys.executable, "-m", "celery", "-A", "legalsim", "worker", "--pool", "threads", "-c", "12"]
    command += ["-l", "warning", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True
    )


def test_a_worker_keeps_more_cases_in_flight_than_its_role_may_open_connections(
    openai_settings, tmp_path, limited_role, settings
):
    from legalsim.celery import app

    queue, previous = f"legalsim-test-{uuid.uuid4().hex[:8]}", app.conf.task_default_queue
    app.conf.task_default_queue, settings.LEGALSIM_BATCH_LEASE_S = queue, 20
    crowd, log = Crowd(delay_s=0.05), tmp_path / "worker.log"
    library_import(tmp_path, cases=12, causes=3)
    try:
        with LoopbackLLM(crowd) as llm:
            worker = worker_start(limited_role, llm, queue, log)
            try:
                call_command("simulate_split", split="full", concurrency=12, backend="openai", detach=True)
                deadline = time.monotonic() + 150
                while BatchRun.objects.exclude(status="finished").exists() and time.monotonic() < deadline:
                    time.sleep(0.2)
            finally:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(timeout=30)
    finally:
        app.conf.task_default_queue = previous
    output = log.read_text()
    assert crowd.most > 4, "more cases waited on the model at once than the role has connections"
    assert_each_case_ran_once(12)
    assert set(BatchRun.objects.values_list("attempt", flat=True)) == {1}, "no case failed and was sent again"
    assert "too many" not in output and "PoolTimeout" not in output, output[-3000:]
