#!/usr/bin/env python
"""A criminal split with many cases in flight against a model server that answers every call
after a delay: how much faster than one case at a time, at what memory, on how many
database connections.

    .venv/bin/python benchmarks/batch_in_flight.py [--cases 100] [--delay 0.5]
    DATABASE_URL=postgres://... REDIS_URL=redis://... \\
        .venv/bin/python benchmarks/batch_in_flight.py --workers 2 --threads 50

The model server is the tests' loopback OpenAI-compatible server (``tests/llm_server.py``, real
HTTP and streaming through the ``openai`` client), in a process of its own, each reply held
back ``--delay`` seconds. The benchmark warms each process up with one case (the statute index
and word lists load once a process), runs one criminal case alone through ``simulate_split``,
then ``--cases`` copies of it in one batch, all in flight, and prints the sequential seconds
per case, the batch's wall time, the speed-up (sequential seconds per case x cases / batch wall
time), the memory each case in flight added to the processes running them (RSS and, on Linux,
PSS; the peak over the batch less the level before it) and, on PostgreSQL, the peak of client
connections in ``pg_stat_activity`` (to the benchmark's database, and to the whole server).
Without ``--workers`` the cases run in this process (eager Celery: the embedded defaults, or
any database with ``REDIS_URL`` unset); with ``--workers K`` (needs ``REDIS_URL``) in K real
``celery worker --pool threads`` processes on a queue of the benchmark's own. The stored trials
are checked afterwards: every case finished once, with gap-free turns.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CASE = ROOT / "demo" / "cases" / "en-criminal-telecom-fraud.json"


def serve(delay: float) -> None:
    """The model server's process: print its base URL, then answer until killed."""
    from tests.llm_server import LoopbackLLM, default_brain

    def brain(request: dict):
        time.sleep(delay)
        return default_brain(request)

    with LoopbackLLM(brain) as server:
        server.server.request_queue_size = 1024
        print(server.base_url, flush=True)
        threading.Event().wait()


def server_start(delay: float) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--delay", str(delay)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    return process, process.stdout.readline().strip()


def workers_start(count: int, threads: int, env: dict[str, str], log: Path) -> list[subprocess.Popen]:
    command = [sys.executable, "-m", "celery", "-A", "legalsim", "worker", "--pool", "threads", "-c", str(threads)]
    command += ["-l", "warning", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    return [
        subprocess.Popen(
            [*command, "-n", f"bench{index}-{uuid.uuid4().hex[:6]}@%h"],
            cwd=ROOT,
            env=env,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for index in range(count)
    ]


def workers_ready(app, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while len(app.control.ping(timeout=1.0) or []) < count:
        if time.monotonic() > deadline:
            raise SystemExit("the workers did not start; see the worker log")


def memory_mb(pids: list[int]) -> tuple[float, float]:
    """RSS and PSS (MB) summed over ``pids`` (PSS is RSS where smaps_rollup is missing)."""
    rss = pss = 0.0
    for pid in pids:
        status = Path(f"/proc/{pid}/status").read_text()
        resident = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        rss += resident / 1024
        rollup = Path(f"/proc/{pid}/smaps_rollup")
        proportional = resident
        if rollup.exists():
            proportional = next(
                (int(line.split()[1]) for line in rollup.read_text().splitlines() if line.startswith("Pss:")), resident
            )
        pss += proportional / 1024
    return rss, pss


class Sampler:
    """Peaks of memory over ``pids`` and of PostgreSQL client connections, sampled in a thread."""

    def __init__(self, pids: list[int], dsn: str | None) -> None:
        self.pids, self.dsn = pids, dsn
        self.rss = self.pss = 0.0
        self.connections, self.every, self.max_connections = 0, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        cursor = None
        if self.dsn:
            import psycopg

            cursor = psycopg.connect(self.dsn, autocommit=True).cursor()
            cursor.execute("SHOW max_connections")
            self.max_connections = int(cursor.fetchone()[0])
        while not self._stop.wait(0.2):
            rss, pss = memory_mb(self.pids)
            self.rss, self.pss = max(self.rss, rss), max(self.pss, pss)
            if cursor is not None:
                cursor.execute(
                    "SELECT count(*) FILTER (WHERE datname = current_database()), count(*) FROM pg_stat_activity "
                    "WHERE backend_type = 'client backend'"
                )
                ours, every = cursor.fetchone()
                self.connections, self.every = max(self.connections, ours), max(self.every, every)


def cases_make(count: int, tag: str) -> list[str]:
    """``count`` copies of the criminal demo case under ids of this run."""
    return copies_import([json.loads(CASE.read_text(encoding="utf-8"))], count, f"bench-{tag}")


def copies_import(seeds: list[dict], count: int, prefix: str) -> list[str]:
    """Import ``count`` copies of ``seeds``, in turn, as ``PREFIX-0000``...; their case ids."""
    from trials.services import cases_import

    records = [
        json.dumps(seeds[index % len(seeds)] | {"id": f"{prefix}-{index:05d}"}, ensure_ascii=False)
        for index in range(count)
    ]
    library = Path(tempfile.mkdtemp(prefix="legalsim-bench-")) / "cases.jsonl"
    library.write_text("\n".join(records) + "\n", encoding="utf-8")
    report = cases_import(paths=[library])
    if report.problems:
        raise SystemExit(str(report.problems[0]))
    return report.imported


def split_run(case_ids: list[str]) -> tuple[float, int]:
    """Wall seconds of ``simulate_split`` over ``case_ids``, all in flight; the batch's id."""
    from django.core.management import call_command

    from trials.models import Batch

    split = Path(tempfile.mkdtemp(prefix="legalsim-bench-")) / "split.txt"
    split.write_text("\n".join(case_ids) + "\n")
    started = time.perf_counter()
    call_command("simulate_split", split=str(split), concurrency=len(case_ids), backend="openai", stdout=sys.stderr)
    return time.perf_counter() - started, Batch.objects.latest("pk").pk


def batch_check(batch_id: int, cases: int) -> str:
    """Nothing lost or doubled: one finished trial a case, each with gap-free turns."""
    from trials.models import BatchRun, Trial

    runs = list(BatchRun.objects.filter(batch_id=batch_id).select_related("trial"))
    finished = [run for run in runs if run.status == "finished" and run.trial.status == Trial.Status.FINISHED]
    gaps = [
        run.case_id
        for run in finished
        if list(run.trial.turns.order_by("seq").values_list("seq", flat=True))
        != list(range(1, run.trial.turns.count() + 1))
    ]
    trials = Trial.objects.filter(case_id__in=[run.case_id for run in runs]).count()
    ok = len(finished) == cases and not gaps and trials == cases
    return f"{'ok' if ok else 'FAILED'}: {len(finished)}/{cases} finished, {trials} trials, {len(gaps)} with gaps"


def environment(args: argparse.Namespace, base_url: str) -> tuple[dict[str, str], str]:
    scratch = tempfile.mkdtemp(prefix="legalsim-bench-")
    env = {
        "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{scratch}/bench.sqlite3",
        "LEGALSIM_AGENT_BACKEND": "openai",
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": "bench",
        "LEGALSIM_CELERY_QUEUE": f"legalsim-bench-{uuid.uuid4().hex[:8]}",
        "DJANGO_SETTINGS_MODULE": "legalsim.settings",
    }
    if not args.workers:
        env["REDIS_URL"] = ""
    os.environ.update(env)
    return {**os.environ}, scratch


def main() -> None:
    parser = argparse.ArgumentParser(description="Speed-up of a criminal split with many cases in flight.")
    parser.add_argument("--cases", type=int, default=100, help="cases in the batch, all in flight (default 100)")
    parser.add_argument("--delay", type=float, default=0.5, help="seconds the model server holds every reply")
    parser.add_argument("--workers", type=int, default=0, help="celery worker processes (needs REDIS_URL); 0: eager")
    parser.add_argument("--threads", type=int, default=50, help="threads of each worker (--pool threads)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.delay)
        return
    if args.workers and not os.environ.get("REDIS_URL"):
        raise SystemExit("--workers needs REDIS_URL")

    server, base_url = server_start(args.delay)
    env, scratch = environment(args, base_url)
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from legalsim.celery import app

    call_command("migrate", verbosity=0)
    warm = max(args.workers, 1)
    case_ids = cases_make(warm + 1 + args.cases, uuid.uuid4().hex[:6])
    workers = workers_start(args.workers, args.threads, env, Path(scratch) / "workers.log") if args.workers else []
    try:
        if workers:
            workers_ready(app, len(workers))
        split_run(case_ids[:warm])  # each process loads its statute index and word lists once
        alone, _ = split_run(case_ids[warm : warm + 1])
        pids = [worker.pid for worker in workers] or [os.getpid()]
        rss_before, pss_before = memory_mb(pids)
        dsn = None if connection.vendor != "postgresql" else env["DATABASE_URL"]
        with Sampler(pids, dsn) as sampler:
            wall, batch_id = split_run(case_ids[warm + 1 :])
    finally:
        for process in [*workers, server]:
            process.terminate()
            process.wait(timeout=60)

    where = f"{args.workers} celery workers x {args.threads} threads" if workers else "this process (eager Celery)"
    print(f"batch_in_flight: {args.cases} criminal cases in flight, model replies after {args.delay} s")
    print(
        f"  database {connection.vendor}, cases run in {where}, LEGALSIM_MAX_IN_FLIGHT {settings.LEGALSIM_MAX_IN_FLIGHT}"
    )
    print(f"  one case alone         {alone:8.1f} s")
    print(f"  batch wall time        {wall:8.1f} s")
    print(f"  speed-up               {alone * args.cases / wall:8.1f}x")
    print(
        f"  memory per case        {(sampler.rss - rss_before) / args.cases:8.2f} MB RSS, "
        f"{(sampler.pss - pss_before) / args.cases:.2f} MB PSS "
        f"(peak {sampler.rss:.0f} MB RSS over {len(pids)} processes)"
    )
    if dsn:
        print(
            f"  peak PG connections    {sampler.connections:8d} to this database, {sampler.every} to the server "
            f"(max_connections {sampler.max_connections})"
        )
    print(f"  stored trials          {batch_check(batch_id, args.cases)}")


if __name__ == "__main__":
    main()
