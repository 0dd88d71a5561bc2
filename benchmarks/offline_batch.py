#!/usr/bin/env python
"""A thousand offline civil life cycles through ``simulate_split``: wall time, CPU and
queries per cycle, and a check that every case finished exactly once.

    .venv/bin/python benchmarks/offline_batch.py [--cases 1000]
    DATABASE_URL=postgres://... REDIS_URL=redis://... \\
        .venv/bin/python benchmarks/offline_batch.py --workers 2 --threads 2

The cases are copies of the civil demo cases (English and Chinese, in turn) under ids of this
run, played by the scripted agents (no model server). With ``--workers K`` (needs
``REDIS_URL``) they run in K real ``celery worker --pool threads`` processes on a queue of the
benchmark's own; without, in this process (eager Celery: the embedded defaults). Each worker
process is warmed up first with one case (the statute index and word lists load once a
process). Printed: the batch's wall time and cycles a second; the CPU seconds the cases cost
(the worker processes', read from ``/proc``, or this process's), per cycle; the queries one
cycle makes (``batch_run`` in this process, counted by Django); and the check over the stored
trials: every case's run finished with one finished trial, no other trial of the case, turns
numbered 1..n with none missing or repeated, one trajectory a trial.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.batch_in_flight import copies_import, workers_start  # noqa: E402

CASES = sorted(
    (ROOT / "demo" / "cases").glob("*-civil-*.json"), key=lambda path: (not path.name.startswith("zh-"), path.name)
)
"""Chinese first: the warm-up cases then load the Chinese statute index and word lists, which
the timed cycles would otherwise load (seconds of a worker's CPU)."""


def cases_make(count: int, tag: str) -> list[str]:
    """``count`` copies of the civil demo cases, in turn, under ids of this run."""
    seeds = [json.loads(path.read_text(encoding="utf-8")) for path in CASES]
    return copies_import(seeds, count, f"offline-{tag}")


def workers_ready(count: int, timeout: float = 90) -> None:
    from legalsim.celery import app

    deadline = time.monotonic() + timeout
    while len(app.control.ping(timeout=1.0) or []) < count:
        if time.monotonic() > deadline:
            raise SystemExit("the workers did not start; see the worker log")


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds of ``pids`` so far (this process's when empty)."""
    if not pids:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def split_run(case_ids: list[str], concurrency: int) -> tuple[float, int]:
    """Wall seconds of ``simulate_split`` over ``case_ids``; the batch's id."""
    from django.core.management import call_command

    from trials.models import Batch

    split = Path(tempfile.mkdtemp(prefix="legalsim-bench-")) / "split.txt"
    split.write_text("\n".join(case_ids) + "\n")
    started = time.perf_counter()
    with open(os.devnull, "w") as quiet, contextlib.redirect_stderr(quiet):  # the progress bar
        call_command("simulate_split", split=str(split), concurrency=concurrency, backend="scripted", stdout=quiet)
    return time.perf_counter() - started, Batch.objects.latest("pk").pk


def queries_per_cycle(case_ids: list[str]) -> float:
    """Queries of one offline cycle as a worker runs it (``batch_run``), in this process."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from trials.batches import batch_create, batch_run
    from trials.models import Case

    cases = list(Case.objects.filter(pk__in=case_ids).order_by("pk"))
    batch = batch_create(cases=cases, split="queries", concurrency=1, backend="scripted", redistribute_personas=False)
    runs = list(batch.runs.values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as queries:
        for run_id in runs:
            batch_run(run_id=run_id, worker="benchmark")
    return len(queries) / len(runs)


def batch_check(batch_id: int) -> tuple[bool, str]:
    """Nothing lost or doubled: every run finished with one finished trial, the only trial of
    its case, its turns numbered 1..n once each, and one trajectory."""
    from django.db.models import Count, Max, Min

    from annotation.models import Trajectory
    from trials.models import BatchRun, Trial, Turn

    runs = list(BatchRun.objects.filter(batch_id=batch_id).values_list("case_id", "status", "trial_id"))
    case_ids = [case_id for case_id, _, _ in runs]
    trials = dict(Trial.objects.filter(case_id__in=case_ids).values_list("pk", "status"))
    per_case = Trial.objects.filter(case_id__in=case_ids).values("case_id").annotate(count=Count("id"))
    doubled = sum(1 for row in per_case if row["count"] > 1)
    lost = sum(
        1
        for _, status, trial_id in runs
        if status != BatchRun.Status.FINISHED or trials.get(trial_id) != Trial.Status.FINISHED
    )
    numbering = (
        Turn.objects.filter(trial_id__in=trials)
        .values("trial_id")
        .annotate(count=Count("id"), first=Min("seq"), last=Max("seq"), distinct=Count("seq", distinct=True))
    )
    gaps = sum(1 for row in numbering if not (row["first"] == 1 and row["last"] == row["count"] == row["distinct"]))
    trajectories = Trajectory.objects.filter(trial_id__in=trials).values("trial_id").annotate(count=Count("id"))
    one_each = sum(1 for row in trajectories if row["count"] == 1)
    ok = not lost and not doubled and not gaps and len(trials) == len(runs) and one_each == len(trials)
    summary = (
        f"{len(runs) - lost}/{len(runs)} finished, {len(trials)} trials, {doubled} cases doubled, "
        f"{gaps} trials with gaps in their turns, {one_each} with one trajectory"
    )
    return ok, f"{'ok' if ok else 'FAILED'}: {summary}"


def environment(workers: int) -> None:
    scratch = tempfile.mkdtemp(prefix="legalsim-bench-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ["DJANGO_SETTINGS_MODULE"] = "legalsim.settings"
    os.environ["LEGALSIM_AGENT_BACKEND"] = "scripted"
    os.environ["LEGALSIM_CELERY_QUEUE"] = f"legalsim-bench-{uuid.uuid4().hex[:8]}"
    if not workers:
        os.environ["REDIS_URL"] = ""


def main() -> None:
    parser = argparse.ArgumentParser(description="Offline civil life cycles through simulate_split.")
    parser.add_argument("--cases", type=int, default=1000, help="civil life cycles in the batch (default 1000)")
    parser.add_argument("--workers", type=int, default=0, help="celery worker processes (needs REDIS_URL); 0: eager")
    parser.add_argument("--threads", type=int, default=2, help="threads of each worker (--pool threads)")
    parser.add_argument("--concurrency", type=int, default=0, help="cases in flight (default: 2 a worker thread)")
    args = parser.parse_args()
    if args.workers and not os.environ.get("REDIS_URL"):
        raise SystemExit("--workers needs REDIS_URL")
    environment(args.workers)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    warm = max(args.workers, 1)
    case_ids = cases_make(warm + 2 + args.cases, uuid.uuid4().hex[:6])
    concurrency = args.concurrency or 2 * max(args.workers, 1) * args.threads
    log = Path(tempfile.mkdtemp(prefix="legalsim-bench-")) / "workers.log"
    workers = workers_start(args.workers, args.threads, {**os.environ}, log) if args.workers else []
    try:
        if workers:
            workers_ready(len(workers))
        split_run(case_ids[:warm], warm)  # each process loads its statute index and word lists once
        pids = [worker.pid for worker in workers]
        cpu_before = cpu_seconds(pids)
        wall, batch_id = split_run(case_ids[warm + 2 :], concurrency)
        cpu = cpu_seconds(pids) - cpu_before
    finally:
        for process in workers:
            process.terminate()
            process.wait(timeout=60)
    queries = queries_per_cycle(case_ids[warm : warm + 2])
    ok, check = batch_check(batch_id)

    where = f"{args.workers} celery workers x {args.threads} threads" if workers else "this process (eager Celery)"
    print(f"offline_batch: {args.cases} offline civil life cycles through simulate_split, {concurrency} in flight")
    print(f"  database {connection.vendor}, cases run in {where}")
    print(f"  wall time              {wall:8.1f} s   ({args.cases / wall:.1f} cycles a second)")
    print(f"  CPU per cycle          {1000 * cpu / args.cases:8.1f} ms   (the {'workers' if workers else 'process'})")
    print(f"  queries per cycle      {queries:8.1f}")
    print(f"  stored trials          {check}")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
