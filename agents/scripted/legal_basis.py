"""The legal basis of the offline court's judgments: the articles that decided each item, and
no others (docs/offline-court.md, "The legal basis"; issue "The offline court as a lawyer reads
it", item 4).

**Criminal**: the article defining the charge (and the one it punishes under, 受贿罪 under
art. 383), then one article for each item of the sentence the court counted, in the order a
Chinese judgment lists them (``CRIMINAL_ITEMS``). An acquittal rests on Criminal Procedure Law
art. 200(3) alone.

The mapping's shape was learnt from the even-numbered cases of SimCourt's released benchmark
(*Chinese Court Simulation with LLM-Based Agent System*, arXiv 2508.17322) whose released
judgment text shows its legal basis (11 cases): an item's articles are listed when citing them
wherever the item holds raised the cited-article F1 on those cases (surrender and confession
art. 67, probation arts. 72-73, a fine arts. 52-53, recidivism art. 65 (only when 累犯 is said
and not denied: a bare prior record, 前科, is no recidivism), a plea with the
prosecution's recommendation before the court Criminal Procedure Law art. 201). The plea's own
Criminal Procedure Law art. 15 lowered it (cited beside art. 201 in 3 of the 11), as would
restitution, forgiveness and a first offence, which judgments weigh without an article of
their own. A charge the charge provisions do not name takes the Criminal Law articles the
indictment says the conduct violates (触犯). The odd-numbered cases measure it
(``benchmarks/offline_court.py``).

**Civil**: the article the search finds for the cause and the first claim, then the article
for each other claim the court granted, then the procedural rule of the instance.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.scripted.civil_court import civil_decision
from agents.scripted.context import Ctx, retrieved_statute
from agents.scripted.criminal_ruling import CriminalDecision, recommendation_clause
from agents.scripted.record import RECIDIVIST_ZH, CriminalRecord, civil_record
from agents.tools.citations import zh_numeral
from agents.tools.precedent_words import GLOSSARY
from agents.tools.statute_headings import charge_articles, charge_names
from agents.tools.statutes import StatuteHit
from court.legaltext.numerals import number_parse
from court.legaltext.text import ENGLISH_LAW_NAMES, article_citations

CRIMINAL_LAW = ("中华人民共和国刑法", "Criminal Law of the People's Republic of China")
PROCEDURE_LAW = ("中华人民共和国刑事诉讼法", "Criminal Procedure Law of the People's Republic of China")
CRIMINAL_LAW_KEY = "刑法"
"""The Criminal Law's key in ``article_citations``."""


@dataclass(frozen=True)
class Article:
    """One provision cited: the law, the article (``"133之一"``) and, where it matters, the
    paragraph (``款``)."""

    law: tuple[str, str]
    number: str
    paragraph: int | None = None

    def cited(self, zh: bool) -> str:
        number, _, sub = self.number.partition("之")
        if zh:
            article = f"第{zh_numeral(int(number))}条" + (f"之{zh_numeral(_sub_number(sub))}" if sub else "")
            paragraph = f"第{zh_numeral(self.paragraph)}款" if self.paragraph else ""
            return f"《{self.law[0]}》{article}{paragraph}"
        article = f"Article {number}" + (f"-{_sub_number(sub)}" if sub else "")
        paragraph = f", paragraph {self.paragraph}" if self.paragraph else ""
        return f"{self.law[1]}, {article}{paragraph}"


CRIMINAL_ITEMS: tuple[tuple[str, tuple[Article, ...]], ...] = (
    ("surrender", (Article(CRIMINAL_LAW, "67", 1),)),
    ("confession", (Article(CRIMINAL_LAW, "67", 3),)),
    ("recidivism", (Article(CRIMINAL_LAW, "65", 1),)),
    ("probation", (Article(CRIMINAL_LAW, "72", 1), Article(CRIMINAL_LAW, "73"))),
    ("fine", (Article(CRIMINAL_LAW, "52"), Article(CRIMINAL_LAW, "53"))),
    ("plea adopted", (Article(PROCEDURE_LAW, "201"),)),
)
"""Each item of a criminal sentence and the articles deciding it (module docstring)."""
ACQUITTAL = Article(PROCEDURE_LAW, "200")
RECIDIVIST = re.compile(rf"{RECIDIVIST_ZH}|recidivis", re.IGNORECASE)
"""Art. 65 is the recidivist's article: a prior record that is no recidivism (前科, 虽不构成累犯)
aggravates the sentence without it."""


def _sub_number(sub: str) -> int:
    """The N of 第M条之N, written either way (``"一"``, ``"1"``)."""
    return int(sub) if sub.isdigit() else int(number_parse(sub) or 0)


def criminal_items(decision: CriminalDecision, record: CriminalRecord) -> tuple[str, ...]:
    """The items of ``decision`` that carry an article of their own (``CRIMINAL_ITEMS``)."""
    sentence = decision.sentence
    items = set(decision.counted) & {"surrender", "confession", "recidivism"}
    if not RECIDIVIST.search("\n".join((record.indictment, record.prosecution_words, record.defence_words))):
        items.discard("recidivism")
    if "surrender" in items:
        items.discard("confession")
    if sentence.get("probation"):
        items.add("probation")
    if sentence.get("fine"):
        items.add("fine")
    if "guilty_plea" in decision.counted and (record.recommendation or recommendation_clause(record.indictment)):
        items.add("plea adopted")
    return tuple(name for name, _ in CRIMINAL_ITEMS if name in items)


def criminal_basis(decision: CriminalDecision, record: CriminalRecord) -> tuple[Article, ...]:
    """The articles that decided ``decision``: the charge's, then each item's."""
    if decision.acquitted:
        return (Article(ACQUITTAL.law, ACQUITTAL.number, 3),)
    labels = charge_labels(record.charges) or indictment_labels(record.indictment)
    articles = [Article(CRIMINAL_LAW, label) for label in labels]
    table = dict(CRIMINAL_ITEMS)
    articles += [article for item in criminal_items(decision, record) for article in table[item]]
    return tuple(articles)


def charge_labels(charges: tuple[str, ...]) -> tuple[str, ...]:
    """The Criminal Law articles defining ``charges`` (``"264"``, ``"133之一"``); an English
    charge by the Chinese term the glossary files it under (fraud 诈骗 -> 诈骗罪)."""
    named = "、".join(_chinese_charge(charge) for charge in charges)
    labels = [label for charge in charge_names(named) for label in charge_articles(charge)]
    return tuple(dict.fromkeys(labels))


def _chinese_charge(charge: str) -> str:
    if charge.endswith("罪"):
        return charge
    terms = [GLOSSARY.get(word, ()) for word in (charge.lower(), *charge.lower().split())]
    return next((f"{term}罪" for found in terms for term in found if charge_articles(f"{term}罪")), charge)


def indictment_labels(indictment: str) -> tuple[str, ...]:
    """The Criminal Law articles the indictment says the conduct violates (其行为触犯了《刑法》
    第N条), for a charge the charge provisions do not name."""
    for sentence in re.split(r"[。；]", indictment or ""):
        if "触犯" in sentence:
            cited = article_citations(sentence)
            labels = [key.split("#")[1] for key in sorted(cited) if key.startswith(f"{CRIMINAL_LAW_KEY}#")]
            if labels:
                return tuple(label.replace("-", "之") for label in labels)
    return ()


def basis_text(articles: tuple[Article, ...], zh: bool) -> str:
    """The articles as a judgment lists them: in Chinese each law named once before its
    articles (《中华人民共和国刑法》第一百三十三条之一、第五十二条，《中华人民共和国刑事诉讼法》第二百零一条)."""
    if not zh:
        return "; ".join(article.cited(zh) for article in articles)
    groups: list[list[str]] = []
    for index, article in enumerate(articles):
        cited = article.cited(zh)
        if index and articles[index - 1].law == article.law:
            groups[-1].append(cited.split("》", 1)[1])
        else:
            groups.append([cited])
    return "，".join("、".join(group) for group in groups)


def civil_basis(ctx: Ctx, requested: list[str], rule: str) -> str:
    """The civil judgment's legal basis: the cause's article (found with the first claim),
    each granted claim's, then ``rule`` (the instance's procedural article)."""
    if not requested:
        return rule
    decision = civil_decision(civil_record(ctx))
    granted = [ruling.claim for ruling in decision.rulings if ruling.granted > 0]
    hits = (retrieved_statute(ctx, claim, duty=True) for claim in [requested[0], *granted])
    cited = (hit.citation if ctx.zh else english_citation(hit) for hit in hits if hit is not None)
    return ctx.say("；", "; ").join([*dict.fromkeys(citation for citation in cited if citation), rule])


ENGLISH_TITLES = {law: english.title() for english, law in reversed(ENGLISH_LAW_NAMES.items())}
"""The English titles of the laws English judgments cite by name (Civil Code, Labour Law)."""
ARTICLE_NUMBER = re.compile(r"第(.+?)条(?:之(.+))?$")


def english_citation(hit: StatuteHit) -> str | None:
    """``hit`` as an English judgment cites it (Civil Code of the People's Republic of China,
    Article 577), as it cites the procedural rule; None for a law or
    interpretation without an English title here, which an English judgment does not quote in
    Chinese."""
    title, number = ENGLISH_TITLES.get(hit.law), ARTICLE_NUMBER.match(hit.article)
    if title is None or number is None or number_parse(number[1]) is None:
        return None
    sub = f"-{_sub_number(number[2])}" if number[2] else ""
    return f"{title} of the People's Republic of China, Article {int(number_parse(number[1]))}{sub}"
