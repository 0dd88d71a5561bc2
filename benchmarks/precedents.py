#!/usr/bin/env python
"""Precedent search quality (``search_cases``, ``agents/tools/precedents.py``): precision@k,
recall@k and MRR of the similar cases it returns when each case of a library searches the
rest by its facts.

    .venv/bin/python benchmarks/precedents.py [--k 1,3,5] [--per-case]

Two libraries:

- **LeCaRD** (real criminal cases): the 107 query cases of LeCaRD, "A Legal Case Retrieval
  Dataset for Chinese Law System" (Ma et al., SIGIR 2021; github.com/myx666/LeCaRD, MIT
  licence, commit b1a4b72), each the facts of a criminal judgment published by the Supreme
  People's Court's China Judgements Online with the charges it was convicted of
  (``benchmarks/data/precedents/lecard-queries.jsonl``, the dataset's ``query.json`` cut to
  ``ridx``, ``q`` and ``crime``). A case is relevant to another when they share a charge.
  LeCaRD's own graded labels judge its 10,700 candidate judgments, which are not in the
  stored copy of the repository, so they are not used here.
- **Demo + seeds**: the demo library (``demo/cases/``) and the retrieval seeds
  (``benchmarks/data/retrieval/``), composites in the import format; a case is relevant to
  another when their causes share a family of ``benchmarks/data/precedents/families.json``
  (the 案由规定's cause, the Criminal Law's chapter). These cases were read while the search
  was written; LeCaRD was not, and no weight was tuned on either.

Every case searches the others by its facts alone (the indictment, or the facts and
reasons), with no cause of action given (``facts``); LeCaRD is also searched with the case's
own charges given, as the tool does in a trial, where the charge is public (``facts+cause``).
The search is also run without its re-ranking (``bm25``: BM25 order only). A case with no
relevant case in its library is left out of the figures (it is counted). ``random`` is the
precision a random order would have: the mean share of relevant cases in a library.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents.tools import precedents  # noqa: E402
from agents.tools.precedents import PrecedentIndex  # noqa: E402
from legalsim.json_input import read_records  # noqa: E402
from trials.caselibrary.case_file import validate_record  # noqa: E402

DATA = ROOT / "benchmarks" / "data" / "precedents"
LIBRARY = (ROOT / "demo" / "cases", ROOT / "benchmarks" / "data" / "retrieval")


@dataclass(frozen=True)
class Library:
    name: str
    records: list[dict[str, Any]]
    relevant: Callable[[Mapping[str, Any], Mapping[str, Any]], bool]


def lecard() -> Library:
    records = []
    for line in (DATA / "lecard-queries.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        records.append(
            {
                "id": f"lecard-{row['ridx']}",
                "procedure": "criminal",
                "language": "zh",
                "title": "",
                "cause_of_action": "、".join(row["crime"]),
                "charges": row["crime"],
                "indictment": row["q"],
            }
        )
    return Library(
        "LeCaRD (107 real criminal cases)", records, lambda a, b: bool(set(a["charges"]) & set(b["charges"]))
    )


def demo_and_seeds() -> Library:
    families = json.loads((DATA / "families.json").read_text(encoding="utf-8"))["families"]
    records = []
    for directory in LIBRARY:
        for path in sorted(directory.glob("*.json")):
            parsed, problems = read_records(path)
            for record in parsed:
                case = validate_record(record, str(path))
                if case is None or record.problems or problems:
                    raise SystemExit(f"{path}: not a valid case file: {record.problems or problems}")
                records.append(case)
    unknown = sorted({case["cause_of_action"] for case in records} - families.keys())
    if unknown:
        raise SystemExit(f"causes with no family in families.json: {', '.join(unknown)}")
    return Library(
        f"demo + seeds ({len(records)} composite cases)",
        records,
        lambda a, b: families[a["cause_of_action"]] == families[b["cause_of_action"]],
    )


def facts(case: Mapping[str, Any]) -> str:
    return str(case.get("indictment") or (case.get("first_instance") or {}).get("facts_and_reasons") or "")


@contextmanager
def bm25_only() -> Iterable[None]:
    saved = precedents.CAUSE_WEIGHT, precedents.KEY_WEIGHT, precedents.CLAIM_WEIGHT
    precedents.CAUSE_WEIGHT = precedents.KEY_WEIGHT = precedents.CLAIM_WEIGHT = 0.0
    try:
        yield
    finally:
        precedents.CAUSE_WEIGHT, precedents.KEY_WEIGHT, precedents.CLAIM_WEIGHT = saved


def measure(library: Library, ks: list[int], *, with_cause: bool, per_case: bool) -> dict[str, float]:
    index = PrecedentIndex.build(library.records)
    by_id = {case["id"]: case for case in library.records}
    depth = max(ks)
    totals: dict[str, float] = {f"P@{k}": 0.0 for k in ks} | {f"R@{k}": 0.0 for k in ks} | {"MRR": 0.0}
    judged = skipped = 0
    base = 0.0
    for case in library.records:
        relevant = {
            other["id"] for other in library.records if other["id"] != case["id"] and library.relevant(case, other)
        }
        if not relevant:
            skipped += 1
            continue
        judged += 1
        base += len(relevant) / (len(library.records) - 1)
        cause = case["cause_of_action"] if with_cause else ""
        found = index.search(facts(case), exclude=case["id"], cause_of_action=cause, top_k=depth)
        ranked = [hit.precedent.id for hit in found.hits]
        ranked += _rest(index, facts(case), case["id"], cause, ranked)
        for k in ks:
            hits = sum(1 for case_id in ranked[:k] if case_id in relevant)
            totals[f"P@{k}"] += hits / k
            totals[f"R@{k}"] += hits / len(relevant)
        first = next((rank for rank, case_id in enumerate(ranked, 1) if case_id in relevant), None)
        totals["MRR"] += 1 / first if first else 0.0
        if per_case:
            top = ", ".join(f"{case_id}{'*' if case_id in relevant else ''}" for case_id in ranked[:3])
            print(f"    {case['id']:<34} {by_id[case['id']]['cause_of_action'][:16]:<16} -> {top}")
    figures = {name: value / judged for name, value in totals.items()} if judged else totals
    return figures | {"random": base / judged if judged else 0.0, "judged": judged, "skipped": skipped}


def _rest(index: PrecedentIndex, query: str, exclude: str, cause: str, ranked: list[str]) -> list[str]:
    """The ranking beyond the tool's five (for MRR): the search run at full depth."""
    saved = precedents.MAX_TOP_K
    precedents.MAX_TOP_K = len(index.cases)
    try:
        found = index.search(query, exclude=exclude, cause_of_action=cause, top_k=len(index.cases))
    finally:
        precedents.MAX_TOP_K = saved
    return [hit.precedent.id for hit in found.hits if hit.precedent.id not in ranked]


def main() -> None:
    parser = argparse.ArgumentParser(description="Precision@k, recall@k and MRR of the precedent search.")
    parser.add_argument("--k", default="1,3,5", help="cut-offs, comma-separated (default 1,3,5)")
    parser.add_argument("--per-case", action="store_true", help="print each case's top three (* = relevant)")
    args = parser.parse_args()
    ks = sorted({int(k) for k in args.k.split(",")})
    columns = [f"P@{k}" for k in ks] + [f"R@{k}" for k in ks] + ["MRR", "random"]
    for library, modes in ((lecard(), ("facts", "facts+cause")), (demo_and_seeds(), ("facts",))):
        print(f"\n{library.name}")
        print(f"  {'search':<22}" + "".join(f"{column:>8}" for column in columns) + f"{'judged':>8}{'skipped':>8}")
        for mode in modes:
            for reranked in (False, True):
                name = f"{mode}, {'re-ranked' if reranked else 'bm25'}"
                if args.per_case and reranked:
                    print(f"  {name}:")
                if reranked:
                    figures = measure(library, ks, with_cause=mode != "facts", per_case=args.per_case)
                else:
                    with bm25_only():
                        figures = measure(library, ks, with_cause=mode != "facts", per_case=False)
                row = "".join(f"{100 * figures[column]:>7.1f}%" for column in columns[:-2])
                row += f"{figures['MRR']:>8.3f}{100 * figures['random']:>7.1f}%"
                print(f"  {name:<22}{row}{figures['judged']:>8}{figures['skipped']:>8}")


if __name__ == "__main__":
    main()
