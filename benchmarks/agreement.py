#!/usr/bin/env python
"""Time and peak memory to compute the full agreement report (legalworld16).

    .venv/bin/python benchmarks/agreement.py [--ratings N ...] [--replicates R] [--database]

Synthetic studies shaped like LegalWorld's: by default 18,992 human ratings (1,187
questionnaires of 16 items over 100 trajectories, as in the published study), 1,000,000 and
10,000,000 (200 ratings a trajectory), each with one LLM judge score per trajectory and item.
Timed: coding the ratings into arrays, pairing, every row, group, overall and item figure
(correlations, QWK, alpha, ICC), and the JSON rendering; then the same with bootstrap 95 %
intervals over trajectories (``--replicates``, 1,000 by default), as the report page shows
them. Targets (issue #35): 1,000,000 ratings with intervals under 5 s; 10,000,000 with
intervals under 60 s and 4 GiB.

The ratings are generated a chunk at a time as the columns a database cursor hands over
(strings and floats), never as a list of tuples; the time includes generating them, and the
time to generate them alone is printed first. With ``--database`` they are first written to
the configured database (``DATABASE_URL``; a scratch SQLite file when it is unset) under a
rubric of their own, ``COPY`` on PostgreSQL and batched inserts elsewhere, and the report is
read from there as the ``agreement_report`` command reads it; the load is timed apart, and
the benchmark's ratings are deleted afterwards.

Each measurement runs in a fresh process: its time, the ``tracemalloc`` peak of a second run
(numpy's arrays and Python's objects), and the process's maximum resident set.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")

SIZES = (18_992, 1_000_000, 10_000_000)
RATINGS_PER_TRAJECTORY = 200
CHUNK_QUESTIONNAIRES = 4_000
BENCHMARK_RUBRIC = "benchmark-agreement"
"""The rubric the ``--database`` ratings are stored under (legalworld16's items), so the
benchmark neither reads nor deletes anyone's ratings."""

Columns = tuple[list[str], list[str], list[str], list[str], np.ndarray]


def trajectories_for(human_ratings: int) -> int:
    return max(human_ratings // RATINGS_PER_TRAJECTORY, 100)


def raters_for(questionnaires: int, trajectories: int) -> int:
    """About one rater for five questionnaires, so many that questionnaire ``q``'s rater,
    ``7919 q`` modulo their number, never rates its trajectory, ``q`` modulo ``trajectories``,
    twice (the database keeps one rating per rater, trajectory and item outside studies)."""
    raters = max(questionnaires // 5, 2)
    while math.lcm(raters, trajectories) < questionnaires or raters % 7919 == 0:
        raters += 1
    return raters


def synthetic_chunks(human_ratings: int, items: tuple[str, ...], seed: int = 7) -> Iterator[Columns]:
    """The study as chunks of (trajectory, item, rater, source, score) columns: questionnaires
    of every item cycling over the trajectories, by raters spread over them (``raters_for``), each score a trajectory's quality
    of the item plus -1, 0 or 1; then the judge's score of every trajectory and item, its
    quality less 0.9."""
    trajectories = trajectories_for(human_ratings)
    rng = np.random.default_rng(seed)
    n_items = len(items)
    questionnaires = human_ratings // n_items
    quality = rng.integers(6, 11, size=(trajectories, n_items))
    trajectory_names = np.array([f"traj{code}" for code in range(trajectories)], dtype=object)
    rater_names = np.array([f"rater{code}" for code in range(raters_for(questionnaires, trajectories))], dtype=object)
    item_names = np.array(items, dtype=object)
    for start in range(0, questionnaires, CHUNK_QUESTIONNAIRES):
        questionnaire = np.arange(start, min(start + CHUNK_QUESTIONNAIRES, questionnaires))
        trajectory = questionnaire % trajectories
        noise = rng.integers(-1, 2, size=(questionnaire.size, n_items))
        scores = np.clip(quality[trajectory] + noise, 0, 10).astype(float).ravel()
        rater = (questionnaire * 7919) % rater_names.size
        yield (
            np.repeat(trajectory_names[trajectory], n_items).tolist(),
            np.tile(item_names, questionnaire.size).tolist(),
            np.repeat(rater_names[rater], n_items).tolist(),
            ["human"] * scores.size,
            scores,
        )
    for start in range(0, trajectories, CHUNK_QUESTIONNAIRES):
        trajectory = np.arange(start, min(start + CHUNK_QUESTIONNAIRES, trajectories))
        size = trajectory.size * n_items
        yield (
            np.repeat(trajectory_names[trajectory], n_items).tolist(),
            np.tile(item_names, trajectory.size).tolist(),
            ["judge-model"] * size,
            ["llm"] * size,
            (quality[trajectory] - 0.9).astype(float).ravel(),
        )


def report_in_memory(human_ratings: int, replicates: int) -> dict[str, Any]:
    import json

    from annotation.agreement import RatingsFrame, agreement_compute
    from annotation.bootstrap import bootstrap_attach
    from annotation.rubric import RUBRIC_DIR, rubric_load

    rubric = rubric_load(RUBRIC_DIR / "legalworld16.json")
    frame = RatingsFrame.from_columns(synthetic_chunks(human_ratings, rubric.item_ids))
    result = agreement_compute(rubric=rubric, frame=frame)
    if replicates:
        bootstrap_attach(result, rubric=rubric, frame=frame, replicates=replicates)
    json.dumps(result.report)
    return result.report


def report_from_database(human_ratings: int, replicates: int) -> dict[str, Any]:
    import json

    from annotation.models import Rubric
    from annotation.reports import report_file

    content, _summary = report_file(
        rubric=Rubric.objects.get(pk=BENCHMARK_RUBRIC), judge=None, study=None, fmt="json", replicates=replicates
    )
    return json.loads(content)


def measure(human_ratings: int, replicates: int, database: bool) -> str:
    """One line: the time of a run, the tracemalloc peak of a second, the process's max RSS."""
    import django

    django.setup()
    import annotation.bootstrap  # noqa: F401  (numpy's and scipy's import time is not report time)

    build = report_from_database if database else report_in_memory
    started = time.perf_counter()
    report = build(human_ratings, replicates)
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    build(human_ratings, replicates)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux
    what = "report" if not replicates else f"report + {replicates:,}-resample CIs"
    return (
        f"    {what:<30} {elapsed:7.2f} s   peak {peak / 2**20:7.1f} MiB   max RSS {rss / 2**30:5.2f} GiB"
        f"   pairs {report['overall']['n_pairs']:,}"
    )


def generating(human_ratings: int) -> str:
    from annotation.rubric import RUBRIC_DIR, rubric_load

    items = rubric_load(RUBRIC_DIR / "legalworld16.json").item_ids
    started = time.perf_counter()
    rows = sum(chunk[4].size for chunk in synthetic_chunks(human_ratings, items))
    return f"    generating the {rows:,} ratings alone  {time.perf_counter() - started:5.2f} s"


def in_fresh_process(function, *args) -> str:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(function, args)


def database_load(human_ratings: int) -> str:
    """Store the study under ``BENCHMARK_RUBRIC`` (replacing what a previous run left)."""
    from django.core.management import call_command
    from django.db import connection

    from annotation.models import Rating, Rubric
    from annotation.rubric import RUBRIC_DIR, rubric_load

    call_command("migrate", verbosity=0)
    definition = rubric_load(RUBRIC_DIR / "legalworld16.json")
    database_clear()
    Rubric.objects.create(
        id=BENCHMARK_RUBRIC,
        title=definition.title,
        scale_min=definition.scale_min,
        scale_max=definition.scale_max,
        document=definition.data | {"id": BENCHMARK_RUBRIC},
    )
    started = time.perf_counter()
    chunks = synthetic_chunks(human_ratings, definition.item_ids)
    rows = (_copy if connection.vendor == "postgresql" else _insert)(chunks)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Rating._meta.db_table}")
    return f"    loading {rows:,} ratings into {connection.vendor}  {time.perf_counter() - started:7.2f} s"


RATING_COLUMNS = ("rubric_id", "trajectory_id", "item", "rater", "source", "score", "reason", "imported_from")


def _rows(chunks: Iterator[Columns]) -> Iterator[list[tuple[Any, ...]]]:
    for trajectory, item, rater, source, score in chunks:
        yield list(
            zip(
                [BENCHMARK_RUBRIC] * score.size,
                trajectory,
                item,
                rater,
                source,
                score.tolist(),
                [""] * score.size,
                [""] * score.size,
                strict=True,
            )
        )


def _copy(chunks: Iterator[Columns]) -> int:
    """PostgreSQL's COPY, the rows streamed a chunk at a time."""
    from django.db import connection
    from django.utils import timezone

    from annotation.models import Rating

    columns = ", ".join((*RATING_COLUMNS, "created_at"))
    now = timezone.now()
    count = 0
    connection.ensure_connection()
    with (
        connection.connection.cursor() as cursor,
        cursor.copy(f"COPY {Rating._meta.db_table} ({columns}) FROM STDIN") as copy,
    ):
        for rows in _rows(chunks):
            for row in rows:
                copy.write_row((*row, now))
            count += len(rows)
    return count


def _insert(chunks: Iterator[Columns]) -> int:
    from django.db import connection, transaction
    from django.utils import timezone

    from annotation.models import Rating

    columns = (*RATING_COLUMNS, "created_at")
    sql = f"INSERT INTO {Rating._meta.db_table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
    now = timezone.now()
    count = 0
    for rows in _rows(chunks):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.executemany(sql, [(*row, now) for row in rows])
        count += len(rows)
    return count


def database_clear() -> None:
    from django.db import connection

    from annotation.models import Rating, Rubric

    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {Rating._meta.db_table} WHERE rubric_id = %s", [BENCHMARK_RUBRIC])
    Rubric.objects.filter(pk=BENCHMARK_RUBRIC).delete()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ratings", type=int, nargs="+", default=SIZES, metavar="N", help="human ratings")
    parser.add_argument("--replicates", type=int, default=1000, metavar="R", help="bootstrap resamples (0: none)")
    parser.add_argument("--database", action="store_true", help="write the ratings to the database, read them back")
    options = parser.parse_args()
    if options.database and not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='agreement-benchmark-')}/benchmark.sqlite3"
    import django

    django.setup()
    source = "from the database" if options.database else "generated in memory"
    print(f"agreement report (legalworld16, one judge), ratings {source}: time to the finished JSON report")
    replicates = sorted({0, max(options.replicates, 0)})
    try:
        for ratings in options.ratings:
            print(f"  {ratings:,} human ratings over {trajectories_for(ratings):,} trajectories", flush=True)
            print(database_load(ratings) if options.database else in_fresh_process(generating, ratings), flush=True)
            for count in replicates:
                print(in_fresh_process(measure, ratings, count, options.database), flush=True)
    finally:
        if options.database:
            database_clear()


if __name__ == "__main__":
    main()
