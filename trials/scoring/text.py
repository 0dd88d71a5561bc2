"""Text extraction shared by every scorer: content terms, statute citations, amounts, and
the set-overlap measures built on them. Deterministic and offline (jieba for Chinese)."""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import lru_cache

import jieba
from china_law_mcp import retrieval

jieba.setLogLevel(logging.WARNING)

ZH_STOPWORDS = frozenset(
    "的 了 和 与 及 或 在 是 为 对 由 于 其 之 被 将 把 向 从 以 并 等 该 本 此 这 那 有 无 不 也 就 都 而 但 "
    "我们 你们 他们 我 你 他 她 它 一个 已经 可以 应当 应该 因为 所以 如果 以及 关于 根据 认为 进行 没有 "
    "什么 怎么 是否 还是 一下 请问 这个 那个 这样 现在".split()
)
EN_STOPWORDS = frozenset(
    "the a an and or of to in on at by for with from as is are was were be been being that this these those "
    "it its he she they we you i his her their our your not no but if then than so such which who whom what "
    "when where how shall should would could may might must can will has have had do does did any all each "
    "other into under over upon also only more most very there here about after before between".split()
)
EN_WORD = re.compile(r"[a-z][a-z'-]+|\d[\d,.]*")
EN_ARTICLE = re.compile(
    r"(?P<law>(?:[A-Z][\w'’]*\s+)*?(?:Law|Code|Provisions|Interpretation)(?: of the People['’]s Republic of China)?)"
    r",?\s+Article\s+(?P<number>\d+)",
)
AMOUNT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(万元|万|元|yuan|RMB)?", re.IGNORECASE)
RMB_PREFIX = re.compile(r"RMB\s*(\d[\d,]*(?:\.\d+)?)", re.IGNORECASE)


def normalise(text: str) -> str:
    """Full-width to half-width, lower case, runs of whitespace collapsed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text or "")).strip().lower()


@lru_cache(maxsize=8192)
def _terms(text: str, language: str) -> frozenset[str]:
    text = normalise(text)
    if language == "zh":
        words = (word.strip() for word in jieba.lcut(text))
        return frozenset(
            word for word in words if len(word) >= 2 and word not in ZH_STOPWORDS and not _is_punctuation(word)
        )
    return frozenset(word.rstrip(".,") for word in EN_WORD.findall(text) if word not in EN_STOPWORDS)


def terms(text: str, language: str) -> frozenset[str]:
    """The content terms of ``text``: jieba words of two or more characters for Chinese,
    words and numbers for English, stop words left out."""
    return _terms(text or "", language)


def _is_punctuation(word: str) -> bool:
    return all(unicodedata.category(char).startswith(("P", "S", "Z")) for char in word)


def coverage(reference: str, text: str, language: str) -> float | None:
    """The share of the reference's content terms that ``text`` contains; None when the
    reference has none (the component is unavailable, not failed)."""
    wanted = terms(reference, language)
    if not wanted:
        return None
    return len(wanted & terms(text, language)) / len(wanted)


def overlap_f1(reference: set | frozenset, generated: set | frozenset) -> float | None:
    """Set-overlap F1 (LegalWorld C.4, docs/sources.md): None when the reference set is empty
    (unavailable); 0.0 when nothing was generated."""
    if not reference:
        return None
    hits = len(reference & generated)
    if not generated or not hits:
        return 0.0
    precision, recall = hits / len(generated), hits / len(reference)
    return 2 * precision * recall / (precision + recall)


def article_citations(text: str) -> frozenset[str]:
    """Statute citations as ``LAW#N`` keys, so 《民法典》第六百六十七条 and 《中华人民共和国民法典》
    第667条 are one article; English "Civil Code of the People's Republic of China, Article 667"
    too. Paragraphs and items are not distinguished (the article is the unit compared)."""
    found = set()
    for law, number in retrieval.ARTICLE_RE.findall(text or ""):
        arabic = int(number) if number.isdigit() else retrieval.cn2num(number)
        if arabic is not None:
            found.add(f"{_law_key(law)}#{arabic}")
    for match in EN_ARTICLE.finditer(text or ""):
        found.add(f"{_law_key(match['law'])}#{int(match['number'])}")
    return frozenset(found)


def _law_key(name: str) -> str:
    """One key per law: the corpus' full name where it knows the law, else the name without
    the "of the People's Republic of China" / 中华人民共和国 qualifiers."""
    name = normalise(name).replace("’", "'")
    resolved = retrieval.resolve_law(name) if re.search(r"[\u4e00-\u9fff]", name) else None
    if resolved:
        name = normalise(resolved)
    for qualifier in ("中华人民共和国", " of the people's republic of china", "《", "》", "〈", "〉"):
        name = name.replace(qualifier, "")
    return name.strip(" ,")


def amounts(text: str) -> frozenset[float]:
    """Money amounts named in ``text`` in yuan (万 multiplied out); years, dates, article and
    item numbers are not amounts (a bare number needs 元/yuan/RMB beside it)."""
    found = set()
    text = unicodedata.normalize("NFKC", text or "")
    for number, unit in AMOUNT.findall(text):
        if unit:
            value = float(number.replace(",", ""))
            found.add(value * 10_000 if unit.startswith("万") else value)
    for number in RMB_PREFIX.findall(text):
        found.add(float(number.replace(",", "")))
    return frozenset(found)
