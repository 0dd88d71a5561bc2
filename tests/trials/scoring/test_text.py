"""The legal-reference elements and parties' roles that judgment alignment compares
(LegalWorld C.4, Table 11)."""

from __future__ import annotations

import pytest

from trials.scoring.text import article_citations, legal_reference_keys, party_roles


def test_a_judicial_interpretation_is_its_own_law_not_the_code_it_embeds_table_11():
    keys = legal_reference_keys("《最高人民法院关于适用〈中华人民共和国民法典〉婚姻家庭编的解释（一）》第八十三条")
    # not 民法典 article 83 (a chapter on legal persons); the corpus holds no chapters for it
    interpretation = "最高人民法院关于适用民法典婚姻家庭编的解释(一)"
    assert keys == {f"law:{interpretation}", f"article:{interpretation}#83"}


def test_a_law_cited_by_title_alone_counts_and_a_contract_does_not_table_11():
    keys = legal_reference_keys("根据《中华人民共和国民法典》的规定，双方签订的《借款合同》合法有效")
    assert keys == {"law:民法典"}


@pytest.mark.parametrize(
    ("text", "name", "instance", "roles"),
    [
        ("原告陈某某与被告周某某民间借贷纠纷一案", "周某某", "first", {"defendant"}),
        ("上诉人（原审被告）：周某某，男", "周某某", "second", {"appellant", "defendant"}),
        ("被上诉人（原审原告）陈某某", "陈某某", "second", {"appellee", "plaintiff"}),
        ("答辩人（被上诉人）：陈某某", "陈某某", "second", {"appellee"}),
        ("被答辩人：陈某某", "陈某某", "first", {"plaintiff"}),
        ("The appellant Huang Jun shall pay the appellee Liu Fang", "Liu Fang", "second", {"appellee"}),
        ("Appellant (original defendant): Huang Jun", "Huang Jun", "second", {"appellant", "defendant"}),
        ("Respondent: Huang Jun", "Huang Jun", "first", {"defendant"}),
        ("Huang Jun and Liu Fang", "Liu Fang", "first", set()),
    ],
)
def test_a_partys_role_is_the_role_word_before_its_name_and_the_one_in_brackets_table_11(
    text: str, name: str, instance: str, roles: set[str]
):
    assert party_roles(text, name, instance) == roles


def test_articles_listed_after_one_law_name_are_each_cited():
    """Courts name the law once before a list (AgentsCourt E.1 extracts every article)."""
    cited = article_citations(
        "依照《中华人民共和国刑法》第一百三十三条之一、第六十七条第三款、第五十二条及第七十二条之规定"
    )
    assert cited == {"刑法#133-1", "刑法#67", "刑法#52", "刑法#72"}
    assert article_citations("《民法典》第133条") == {"民法典#133"}, "第133条 is not 第133条之一"
