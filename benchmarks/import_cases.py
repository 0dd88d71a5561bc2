#!/usr/bin/env python
"""Seconds to read and to import case files of 1 MB and 10 MB (and 50 MB with --large).

    .venv/bin/python benchmarks/import_cases.py [--repeat 7] [--large] [--no-import]

The files are the demo cases (civil and criminal, Chinese and English) under new ids, written
as people write them: a pretty-printed JSON list and the same cases as JSONL, in a temporary
folder. Timed: ``read_records`` (decoding, syntax, nesting and number checks, line numbers),
the median of ``--repeat`` rounds over every file, beside ``json.loads`` alone (the floor: what a bigger file
costs the decoder and the memory, with no check at all); then ``import_cases`` as the command
runs it (reading, validating every record, storing every case in one transaction) into a
throw-away SQLite database unless DATABASE_URL is set. Reading must be linear in the file's
size: the issue's target is a 10 MB file read less than 15 times slower than a 1 MB one (it
took 50 times longer when every record's line was counted from the start of the file: 3.2 s
for 10 MB, 101 s for 50 MB).
"""

from __future__ import annotations

import argparse
import copy
import gc
import io
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MB = 1_000_000


def case_files(directory: Path, megabytes: int) -> dict[str, Path]:
    """A ``.json`` list and a ``.jsonl`` file of at least ``megabytes`` MB each."""
    seeds = [json.loads(path.read_text(encoding="utf-8")) for path in sorted((ROOT / "demo" / "cases").glob("*.json"))]
    pretty, lines, size, index = [], [], 0, 0
    while size < megabytes * MB:
        seed = copy.deepcopy(seeds[index % len(seeds)])
        seed["id"] = f"bench-{megabytes}-{index:06d}"
        record = json.dumps(seed, ensure_ascii=False, indent=2)
        pretty.append("  " + record.replace("\n", "\n  "))
        lines.append(json.dumps(seed, ensure_ascii=False))
        size += len(record.encode("utf-8"))
        index += 1
    files = {"json": directory / f"cases-{megabytes}mb.json", "jsonl": directory / f"cases-{megabytes}mb.jsonl"}
    files["json"].write_text("[\n" + ",\n".join(pretty) + "\n]\n", encoding="utf-8")
    files["jsonl"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return files


def json_only(path: Path, kind: str) -> object:
    """The floor: decoding alone, with no check and no line numbers."""
    text = path.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.split("\n") if line] if kind == "jsonl" else json.loads(text)


def timed(run) -> float:
    """Seconds of one run from a collected heap (a run's garbage is not the next one's cost)."""
    gc.collect()
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description="Seconds to read and import case files of 1, 10 (and 50) MB.")
    parser.add_argument("--repeat", type=int, default=7, help="rounds of reading every file (the median is shown)")
    parser.add_argument("--large", action="store_true", help="also a 50 MB file")
    parser.add_argument("--no-import", action="store_true", help="time the reader only")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="legalsim-bench-"))
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from legalsim.json_input import read_records
    from trials.models import Case

    quiet = io.StringIO()
    if not args.no_import:
        call_command("migrate", verbosity=0)
        # The first import loads what the command needs; it is not what is being measured.
        call_command("import_cases", str(ROOT / "demo" / "cases" / "en-civil-traffic-accident.json"), stdout=quiet)
    sizes = [1, 10, *([50] if args.large else [])]
    read: dict[tuple[int, str], float] = {}
    floor: dict[tuple[int, str], float] = {}
    imported: dict[int, float] = {}
    print(
        f"import_cases: demo cases under new ids; reads: median of {args.repeat} rounds ({3 * args.repeat} runs of 1 MB)"
    )
    files = {megabytes: case_files(scratch, megabytes) for megabytes in sizes}
    counts = {megabytes: len(read_records(files[megabytes]["json"])[0]) for megabytes in sizes}
    # Reads are timed before any import, in rounds that take every file in turn: load from
    # elsewhere on the machine then falls on every size alike, and the medians compare.
    samples: dict[tuple[str, int, str], list[float]] = {}
    for _ in range(args.repeat):
        for megabytes in sizes:
            for kind, path in files[megabytes].items():
                for _ in range(3 if megabytes == 1 else 1):  # a 1 MB read takes milliseconds
                    samples.setdefault(("read", megabytes, kind), []).append(timed(lambda p=path: read_records(p)))
                    samples.setdefault(("floor", megabytes, kind), []).append(
                        timed(lambda p=path, k=kind: json_only(p, k))
                    )
    for megabytes in sizes:
        for kind, path in files[megabytes].items():
            read[megabytes, kind] = statistics.median(samples["read", megabytes, kind])
            floor[megabytes, kind] = statistics.median(samples["floor", megabytes, kind])
            print(
                f"  {path.stat().st_size / MB:6.1f} MB {kind:<5}  {counts[megabytes]:6d} cases   "
                f"read {read[megabytes, kind]:7.3f} s ({path.stat().st_size / MB / read[megabytes, kind]:5.1f} MB/s)"
            )
    for megabytes in [] if args.no_import else sizes:
        Case.objects.all().delete()
        started = time.perf_counter()
        call_command("import_cases", str(files[megabytes]["json"]), stdout=quiet)
        elapsed = imported[megabytes] = time.perf_counter() - started
        assert Case.objects.count() == counts[megabytes]
        print(
            f"  {files[megabytes]['json'].stat().st_size / MB:6.1f} MB json   {counts[megabytes]:6d} cases   "
            f"import_cases {elapsed:6.2f} s ({counts[megabytes] / elapsed:4.0f} cases/s)"
        )
    for kind in ("json", "jsonl"):
        for megabytes in sizes[1:]:
            ratio = read[megabytes, kind] / read[1, kind]
            verdict = "" if megabytes != 10 else ("   target < 15: met" if ratio < 15 else "   target < 15: MISSED")
            print(
                f"  read {megabytes} MB / 1 MB ({kind}): {ratio:5.1f}x for {megabytes}x the size{verdict}"
                f"   (json.loads alone: {floor[megabytes, kind] / floor[1, kind]:4.1f}x)"
            )
    for megabytes in sizes[1:] if imported else []:
        print(f"  import_cases {megabytes} MB / 1 MB: {imported[megabytes] / imported[1]:5.1f}x")


if __name__ == "__main__":
    main()
