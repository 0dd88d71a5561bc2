"""Citations quoted from the statute corpus as cited (issue 41, item 4): a 之N article is its
own article, a paragraph (款) cited is that paragraph, in Chinese and in English, and what the
corpus lacks is said so rather than quoted from a neighbouring provision."""

from __future__ import annotations

import pytest

from agents.tools.citations import article_paragraphs, citations_check, zh_numeral
from agents.tools.statutes import statute_search

DANGEROUS_DRIVING = "在道路上驾驶机动车，有下列情形之一的，处拘役，并处罚金"
TRAFFIC_ACCIDENT = "违反交通运输管理法规，因而发生重大事故"
SURRENDER = "犯罪以后自动投案，如实供述自己的罪行的，是自首"
OTHER_CRIMES = "被采取强制措施的犯罪嫌疑人、被告人和正在服刑的罪犯"
CONFESSION = "犯罪嫌疑人虽不具有前两款规定的自首情节，但是如实供述自己罪行的，可以从轻处罚"
CL = "《中华人民共和国刑法》"


@pytest.mark.parametrize(
    ("citation", "source", "opening"),
    [
        ("《刑法》第一百三十三条之一", f"{CL}第一百三十三条之一", DANGEROUS_DRIVING),
        ("《中华人民共和国刑法》第一百三十三条", f"{CL}第一百三十三条", TRAFFIC_ACCIDENT),
        ("《刑法》第一百三十三条之二", f"{CL}第一百三十三条之二", "对行驶中的公共交通工具的驾驶人员使用暴力"),
        ("《刑法》第六十七条第三款", f"{CL}第六十七条第三款", CONFESSION),
        ("依照刑法第六十七条第二款", f"{CL}第六十七条第二款", OTHER_CRIMES),
        ("《刑法》第67条第1款", f"{CL}第六十七条第一款", SURRENDER),
        ("《刑法》第六十七条", f"{CL}第六十七条", SURRENDER),
        ("Criminal Law, Article 67, paragraph 3", f"{CL}第六十七条第三款", CONFESSION),
        ("Article 67, paragraph 3, of the Criminal Law", f"{CL}第六十七条第三款", CONFESSION),
        ("Criminal Law Art. 67(3)", f"{CL}第六十七条第三款", CONFESSION),
        ("Criminal Law of the People's Republic of China, Article 133-1", f"{CL}第一百三十三条之一", DANGEROUS_DRIVING),
    ],
)
def test_a_citation_quotes_its_own_article_sub_article_and_paragraph(citation, source, opening):
    (check,) = citations_check(citation)
    assert check.exists, check.message
    assert check.source == source
    assert check.text.startswith(opening), check.text[:40]


def test_a_paragraph_cited_is_that_paragraph_alone():
    (check,) = citations_check("《刑法》第六十七条第一款")
    assert check.text.startswith(SURRENDER) and OTHER_CRIMES not in check.text


def test_a_paragraph_keeps_the_items_it_lists():
    (check,) = citations_check("《刑法》第一百三十三条之一第一款")
    assert check.text.startswith(DANGEROUS_DRIVING) and "（二）醉酒驾驶机动车的" in check.text


@pytest.mark.parametrize(
    ("citation", "message"),
    [
        ("《刑法》第一百三十三条之九", "has no article 133 (之九)"),
        ("《刑法》第六十七条第五款", "has 3 paragraph(s) in the corpus, not a paragraph 5"),
        ("Criminal Law, Article 67, paragraph 5", "not a paragraph 5"),
        ("《民法典》第九千条", "has no article 9000"),
    ],
)
def test_what_the_corpus_lacks_is_said_plainly_and_nothing_else_is_quoted(citation, message):
    (check,) = citations_check(citation)
    assert not check.exists and check.text is None
    assert message in check.message


def test_every_article_of_a_list_after_one_law_is_checked_on_its_own():
    checks = citations_check("依照《中华人民共和国刑法》第一百三十三条之一、第六十七条第三款、第五十二条之规定")
    assert [check.source for check in checks] == [
        f"{CL}第一百三十三条之一",
        f"{CL}第六十七条第三款",
        f"{CL}第五十二条",
    ]


def test_an_articles_paragraphs_are_its_lines_and_items_stay_with_their_paragraph():
    text = "第一款规定：\n（一）甲；\n（二）乙。\n前款规定的情形，从重处罚。"
    assert article_paragraphs(text) == ["第一款规定：\n（一）甲；\n（二）乙。", "前款规定的情形，从重处罚。"]


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (3, "三"),
        (10, "十"),
        (15, "十五"),
        (67, "六十七"),
        (110, "一百一十"),
        (133, "一百三十三"),
        (1087, "一千零八十七"),
    ],
)
def test_numbers_are_written_as_the_statutes_write_them(number, words):
    assert zh_numeral(number) == words


def test_a_search_citing_a_sub_article_finds_that_article_first():
    hits = statute_search("《刑法》第一百三十三条之一", top_k=3)
    assert hits[0].citation == f"{CL}第一百三十三条之一" and hits[0].text.startswith(DANGEROUS_DRIVING)
