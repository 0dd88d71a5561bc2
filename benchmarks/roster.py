#!/usr/bin/env python
"""Rows per second to enrol a roster of 5,000 new students on the configured database.

    .venv/bin/python benchmarks/roster.py [--rows 5000] [--keep]

A throw-away SQLite database unless DATABASE_URL is set (then that database: the course and
the accounts made are deleted afterwards unless --keep). Timed apart: checking the whole
file (reading, every row's checks, one query for the accounts that exist) and the job that
enrols it in transactions of ``ROSTER_BATCH_ROWS`` rows (accounts created in bulk with no
usable password, enrolments, the student role), run in this process as the ``course_enrol``
command runs it. Issue #31: 20,000 rows took 41-45 s on SQLite and 3,000 rows 12.8 s on
PostgreSQL, in one transaction that locked every other writer out meanwhile.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def roster_write(path: Path, rows: int, prefix: str) -> None:
    lines = ["username,email,full_name"]
    lines += [f"{prefix}{index:05d},{prefix}{index:05d}@uni.example,Student {index}" for index in range(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description="Rows per second to enrol a roster of new students.")
    parser.add_argument("--rows", type=int, default=5_000, help="rows of the roster (at most LEGALSIM_ROSTER_MAX_ROWS)")
    parser.add_argument("--keep", action="store_true", help="keep the course and accounts made")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="legalsim-bench-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from classroom.rosters import ROSTER_BATCH_ROWS, roster_check, roster_job_start
    from classroom.services import course_create

    call_command("migrate", verbosity=0)
    prefix = f"bench{int(time.time()) % 100_000}x"
    path = scratch / "roster.csv"
    roster_write(path, args.rows, prefix)
    User = get_user_model()
    instructor, _created = User.objects.get_or_create(username=f"{prefix}prof")
    course = course_create(slug=f"{prefix}course", title="Roster benchmark", instructor=instructor)
    database = settings.DATABASES["default"]
    print(f"roster of {args.rows} new students on {database['ENGINE'].rsplit('.', 1)[-1]} ({database['NAME']})")
    try:
        started = time.perf_counter()
        check = roster_check(path=path)
        checked = time.perf_counter() - started
        assert not check.problems, check.problems[:3]
        started = time.perf_counter()
        job = roster_job_start(course=course, check=check, by=instructor, in_process=True)
        enrolled = time.perf_counter() - started
        assert job.status == "done" and job.enrolled == args.rows, (job.status, job.error)
        total = checked + enrolled
        print(f"  check      {checked:7.3f} s  ({args.rows / checked:9.0f} rows/s)")
        print(f"  enrol      {enrolled:7.3f} s  ({args.rows / enrolled:9.0f} rows/s, batches of {ROSTER_BATCH_ROWS})")
        print(f"  together   {total:7.3f} s  ({args.rows / total:9.0f} rows/s)")
    finally:
        if not args.keep:
            course.delete()
            User.objects.filter(username__startswith=prefix).delete()


if __name__ == "__main__":
    main()
