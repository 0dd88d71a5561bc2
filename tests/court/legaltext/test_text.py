"""The legal-reference elements and parties' roles that judgment alignment compares
(LegalWorld C.4, Table 11)."""

from __future__ import annotations

import pytest

from court.legaltext.text import article_citations, legal_reference_keys, party_roles, provisions


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


CC, CL, RTSL = "civil code", "criminal law", "road traffic safety law"
CITATION_FORMS = [
    # English: the law before its articles
    ("Civil Code of the People's Republic of China, Article 585", {f"{CC}#585"}),
    ("Civil Code, Article 585", {f"{CC}#585"}),
    ("Civil Code Article 675", {f"{CC}#675"}),
    ("Civil Code, Art. 585", {f"{CC}#585"}),
    ("Civil Code Art 585", {f"{CC}#585"}),
    ("Civil Code § 585", {f"{CC}#585"}),
    ("PRC Civil Code Art. 585", {f"{CC}#585"}),
    ("the Civil Code of the PRC, Article 585", {f"{CC}#585"}),
    ("Criminal Law Article 67", {f"{CL}#67"}),
    ("Criminal Law of the People's Republic of China, Article 67, paragraph 3", {f"{CL}#67"}),
    ("Civil Code, Articles 1179, 1183 and 1208", {f"{CC}#1179", f"{CC}#1183", f"{CC}#1208"}),
    ("Civil Code, Articles 1179, 1183, and 1208", {f"{CC}#1179", f"{CC}#1183", f"{CC}#1208"}),
    ("Civil Code Arts. 712-713", {f"{CC}#712", f"{CC}#713"}),
    ("Civil Code Articles 712 to 713", {f"{CC}#712", f"{CC}#713"}),
    ("Civil Code §§ 712–714", {f"{CC}#712", f"{CC}#713", f"{CC}#714"}),
    ("the Road Traffic Safety Law, Article 76", {f"{RTSL}#76"}),
    ("Labour Contract Law Article 82", {"labour contract law#82"}),
    # English: the articles before their law
    ("Article 585 of the Civil Code", {f"{CC}#585"}),
    ("article 585 of the civil code", {f"{CC}#585"}),
    ("Art. 585 of the Civil Code", {f"{CC}#585"}),
    ("§ 585 of the Civil Code", {f"{CC}#585"}),
    ("Articles 1179, 1183 and 1208 of the Civil Code", {f"{CC}#1179", f"{CC}#1183", f"{CC}#1208"}),
    ("Arts. 712-713 of the Civil Code", {f"{CC}#712", f"{CC}#713"}),
    ("Article 67, paragraph 3, of the Criminal Law", {f"{CL}#67"}),
    ("Article 76 of the Road Traffic Safety Law of the People's Republic of China", {f"{RTSL}#76"}),
    # English: articles whose law is named elsewhere in the text
    ("Under the Civil Code the lease ends: see Arts. 712-713.", {f"{CC}#712", f"{CC}#713"}),
    ("Article 585 of the Civil Code applies, and so do Arts. 712-713.", {f"{CC}#585", f"{CC}#712", f"{CC}#713"}),
    ("Article 722 allows termination; the Civil Code is clear.", {f"{CC}#722"}),
    # Chinese: a title in 《》
    ("《民法典》第585条", {"民法典#585"}),
    ("《中华人民共和国民法典》第五百八十五条", {"民法典#585"}),
    ("《民法典》第５８５条", {"民法典#585"}),
    ("《中华人民共和国民法典》第七百一十二条至第七百一十三条", {"民法典#712", "民法典#713"}),
    ("《民法典》第七百一十二条、第七百一十三条", {"民法典#712", "民法典#713"}),
    ("《民法典》第五百七十七条和第五百八十五条", {"民法典#577", "民法典#585"}),
    ("《刑法》第133条之一", {"刑法#133-1"}),
    ("《刑法》第一百三十三条之一第一款第（二）项", {"刑法#133-1"}),
    ("《中华人民共和国刑法》第六十七条第三款", {"刑法#67"}),
    ("《中华人民共和国劳动合同法》第八十二条", {"劳动合同法#82"}),
    ("《民法典》第133条", {"民法典#133"}),
    # Chinese: the law named without 《》
    ("民法典第五百八十五条", {"民法典#585"}),
    ("依照民法典第585条的规定", {"民法典#585"}),
    ("刑法第六十七条第三款", {"刑法#67"}),
    ("根据刑法第一百三十三条之一", {"刑法#133-1"}),
    ("民法典第七百一十二条至第七百一十三条", {"民法典#712", "民法典#713"}),
    ("根据民法典第五百七十七条、第五百八十五条的规定", {"民法典#577", "民法典#585"}),
    # Chinese: an article whose law was named before it
    ("依照《民法典》第五百七十七条的规定。同时，第五百八十五条规定了违约金", {"民法典#577", "民法典#585"}),
    # not citations
    ("2024年3月1日支付120,000元", set()),
    ("The court awards RMB 120,000 within 10 days.", set()),
    ("双方签订的《借款合同》第三条约定", set()),
]


@pytest.mark.parametrize(("text", "keys"), CITATION_FORMS, ids=[text[:40] for text, _ in CITATION_FORMS])
def test_every_citation_form_is_read_as_the_articles_it_cites(text: str, keys: set[str]):
    assert article_citations(text) == keys


def test_there_are_forty_citation_forms_in_both_languages():
    chinese = [text for text, _ in CITATION_FORMS if any("\u4e00" <= char <= "\u9fff" for char in text)]
    assert len(CITATION_FORMS) >= 40 and len(chinese) >= 15 and len(CITATION_FORMS) - len(chinese) >= 25


def test_the_reference_articles_of_the_issue_are_cited_in_english_forms():
    """Issue 32: "Article 585 of the Civil Code" and "Arts. 712-713" scored "cites 0 of 4"."""
    references = [
        "Civil Code of the People's Republic of China, Article 712",
        "Civil Code of the People's Republic of China, Article 713",
        "Civil Code of the People's Republic of China, Article 722",
        "Civil Code of the People's Republic of China, Article 585",
    ]
    wanted = frozenset().union(*(article_citations(reference) for reference in references))
    said = article_citations("Under Article 585 of the Civil Code the deposit is forfeit; see also Arts. 712-713.")
    assert len(wanted & said) == 3


def test_legal_reference_keys_read_the_same_forms_table_11():
    assert legal_reference_keys("Article 585 of the Civil Code") >= {"law:civil code", "article:civil code#585"}
    assert legal_reference_keys("依照民法典第五百八十五条") >= {"law:民法典", "article:民法典#585"}
    assert "article:刑法#133" in legal_reference_keys("《刑法》第一百三十三条之一"), "a sub-article is its article"


@pytest.mark.parametrize(
    ("text", "cited"),
    [
        ("《刑法》第一百三十三条之一", [("刑法", 133, 1, None)]),
        ("《刑法》第六十七条第三款", [("刑法", 67, None, 3)]),
        ("依照刑法第六十七条第三款", [("刑法", 67, None, 3)]),
        ("《刑法》第二百六十四条第（二）项", [("刑法", 264, None, None)]),
        (
            "依照《刑法》第一百三十三条之一、第六十七条第三款、第五十二条",
            [("刑法", 133, 1, None), ("刑法", 67, None, 3), ("刑法", 52, None, None)],
        ),
        ("Criminal Law, Article 67, paragraph 3", [("Criminal Law", 67, None, 3)]),
        ("Article 67, paragraph 3, of the Criminal Law", [("Criminal Law", 67, None, 3)]),
        ("Criminal Law Art. 67(3)", [("Criminal Law", 67, None, 3)]),
        ("Criminal Law, Article 133-1", [("Criminal Law", 133, 1, None)]),
        ("Civil Code, Arts. 712-713", [("Civil Code", 712, None, None), ("Civil Code", 713, None, None)]),
    ],
)
def test_a_provision_cited_keeps_its_sub_article_and_paragraph(text, cited):
    found = [(item.law, item.cited.article, item.cited.sub, item.cited.paragraph) for item in provisions(text)]
    assert found == cited


def test_a_paragraph_is_not_part_of_the_article_compared():
    assert article_citations("《刑法》第六十七条第三款") == article_citations("《刑法》第六十七条第一款") == {"刑法#67"}
    assert article_citations("Criminal Law, Article 133-1") == {"criminal law#133-1"}
