"""Citation checking: every article a text cites (``provisions``), checked against the
statute corpus (``statutes``, its article lookup): the 之N article's own text, the paragraph's
when a paragraph is cited, or what the corpus lacks. The agents' ``check_citations`` tool and
the debrief's quotes of the provisions cited rest on it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.tools.statutes import CJK_CHARACTER, article_find, corpus_version, law_resolve
from court.legaltext.text import ENGLISH_LAW_NAMES, Provision, provisions

ITEM_MARK = re.compile(r"^(?:[（(][一二三四五六七八九十]+[)）]|[一二三四五六七八九十]+、)")
ZH_DIGITS = "零一二三四五六七八九"


@dataclass(frozen=True)
class CitationCheck:
    citation: str
    exists: bool
    law: str | None
    text: str | None
    """The text of the provision cited: the 之N article's own (第一百三十三条之一 is not 第一百三十三条),
    and only the paragraph when one is cited (第六十七条第三款)."""
    message: str
    corpus: str
    source: str = ""
    """The corpus' own citation of what ``text`` quotes (《中华人民共和国刑法》第六十七条第三款);
    empty when the corpus lacks the law or the article."""


def citations_check(text: str) -> list[CitationCheck]:
    """Every article ``text`` cites, checked against the corpus (wrong numbers flagged):
    《民法典》第六百七十五条, a list after one law (《刑法》第一百三十三条之一、第六十七条第三款), a law
    named without 《》 (刑法第六十七条), or in English ("Criminal Law, Article 67, paragraph 3").
    Each check quotes the provision cited (``provision_check``)."""
    checks, seen = [], set()
    for found in provisions(text or ""):
        check = provision_check(found)
        if check.citation not in seen:
            seen.add(check.citation)
            checks.append(check)
    return checks


def provision_check(found: Provision) -> CitationCheck:
    """One cited provision against the corpus: the 之N article's own text, the paragraph's
    when a paragraph is cited; a law, article, 之N article or paragraph the corpus lacks is
    said so (``exists`` False, no text)."""
    cited = found.cited
    chinese = CJK_CHARACTER.search(cited.written) is not None
    citation = f"《{found.law.strip('《》')}》{cited.written}" if chinese else f"{found.law}, {cited.written}"
    full = law_resolve(found.law) if chinese or CJK_CHARACTER.search(found.law) else _english_law(found)
    if full is None:
        return CitationCheck(citation, False, None, None, f"no law named {found.law} in the corpus", corpus_version())
    article = article_find(full, cited.article, cited.sub)
    label = f"{cited.article}" + (f" (之{zh_numeral(cited.sub)})" if cited.sub else "")
    if article is None:
        return CitationCheck(citation, False, full, None, f"{full} has no article {label}", corpus_version())
    source = f"《{full}》{article['article_no']}"
    if cited.paragraph is None:
        return CitationCheck(citation, True, full, article["article_text"], "exists", corpus_version(), source)
    paragraphs = article_paragraphs(article["article_text"])
    if not 1 <= cited.paragraph <= len(paragraphs):
        message = f"{source} has {len(paragraphs)} paragraph(s) in the corpus, not a paragraph {cited.paragraph}"
        return CitationCheck(citation, False, full, None, message, corpus_version(), source)
    source += f"第{zh_numeral(cited.paragraph)}款"
    return CitationCheck(citation, True, full, paragraphs[cited.paragraph - 1], "exists", corpus_version(), source)


def _english_law(found: Provision) -> str | None:
    """The corpus' (Chinese) name of a law an English citation names (Criminal Law -> 中华人民共和国刑法)."""
    return ENGLISH_LAW_NAMES.get(found.key.rpartition("#")[0])


def article_paragraphs(text: str) -> list[str]:
    """An article's paragraphs (款) as the corpus writes them, one a line; an item's line
    (（一）…) belongs to the paragraph that lists it."""
    paragraphs: list[str] = []
    for line in (line.strip() for line in (text or "").splitlines()):
        if line and paragraphs and ITEM_MARK.match(line):
            paragraphs[-1] += "\n" + line
        elif line:
            paragraphs.append(line)
    return paragraphs


def zh_numeral(number: int) -> str:
    """A paragraph's or article's number as a statute writes it (3 -> 三, 67 -> 六十七, 133 -> 一百三十三)."""
    if number < 10:
        return ZH_DIGITS[number]
    if number < 20:
        return "十" + (ZH_DIGITS[number % 10] if number % 10 else "")
    if number < 100:
        return ZH_DIGITS[number // 10] + "十" + (ZH_DIGITS[number % 10] if number % 10 else "")
    for unit, name in ((1000, "千"), (100, "百")):
        if number >= unit:
            rest = number % unit
            tail = ("零" if rest < unit // 10 else "") + _small(rest) if rest else ""
            return ZH_DIGITS[number // unit] + name + tail
    return str(number)


def _small(number: int) -> str:
    """The tail of a number after its hundreds or thousands: 10-19 are 一十…, as in 一百一十条."""
    return "一" + zh_numeral(number) if 10 <= number < 20 else zh_numeral(number)
