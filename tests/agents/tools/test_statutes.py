from __future__ import annotations

import json

from agents.tools.citations import citations_check
from agents.tools.governing_laws import CHAPTER_OF_CHARGE, CIVIL_CAUSES, CRIMINAL_RELATED, full_name, governing_laws
from agents.tools.statute_index import statute_index
from agents.tools.statutes import (
    EXCERPT_CHARS,
    article_excerpt,
    fuse,
    statute_query,
    statute_search,
)
from agents.tools.toolbox import ToolBox
from court.engine.machine import trial_start
from court.engine.visibility import build_view
from tests.conftest import demo_case_seeds

TRAFFIC = "机动车交通事故责任纠纷"
INSURER_PAYS = "保险公司赔偿损失"
ROAD_TRAFFIC_76 = "《中华人民共和国道路交通安全法》第七十六条"
RAILWAY_17 = "《中华人民共和国铁路法》第十七条"
GUARANTEE_688 = "《中华人民共和国民法典》第六百八十八条"
LOAN_FACTS = (
    "2022年4月10日，被告赵某某向原告借款30万元，出具借条，约定借期一年。被告钱某某在借条上签名。"
    "借款到期后，赵某某未还本金。"
)


def citations(**search) -> list[str]:
    return [hit.citation for hit in statute_search(**search)]


def rank(found: list[str], citation: str) -> float:
    return found.index(citation) if citation in found else float("inf")


def test_a_cause_keeps_the_search_to_its_governing_laws():
    governing = governing_laws(TRAFFIC).laws
    unrestricted = statute_search(INSURER_PAYS)
    restricted = statute_search(INSURER_PAYS, cause_of_action=TRAFFIC)
    assert any(hit.law not in governing for hit in unrestricted), "the whole corpus answers without a cause"
    assert restricted and all(hit.law in governing for hit in restricted)


def test_boosting_ranks_a_governing_law_article_above_an_unrelated_one():
    unrestricted = citations(query=INSURER_PAYS)
    boosted = citations(query=INSURER_PAYS, cause_of_action=TRAFFIC, restrict=False)
    assert rank(unrestricted, RAILWAY_17) < rank(unrestricted, ROAD_TRAFFIC_76)
    assert rank(boosted, ROAD_TRAFFIC_76) < rank(boosted, RAILWAY_17)
    governing = governing_laws(TRAFFIC).laws
    medical = statute_search("赔偿医疗费 护理费 误工费", cause_of_action=TRAFFIC, restrict=False)
    assert any(hit.law not in governing for hit in medical), "a boost prefers, it does not exclude"


def test_claims_and_points_in_dispute_find_what_the_facts_alone_miss():
    facts_only = citations(query=LOAN_FACTS)
    with_claims = citations(
        query=statute_query(
            claims=["判令被告钱某某对上述债务承担连带清偿责任", "本案诉讼费用由二被告负担"],
            points=["被告钱某某是否为连带责任保证人"],
            facts=LOAN_FACTS,
        )
    )
    assert GUARANTEE_688 not in facts_only
    assert GUARANTEE_688 in with_claims


def test_a_query_lists_each_part_on_its_own_line_without_the_costs_claim():
    query = statute_query(
        cause="民间借贷纠纷", claims=["判令被告归还借款", "本案诉讼费用由被告负担"], facts=" 借款未还 "
    )
    assert query.splitlines() == ["民间借贷纠纷", "判令被告归还借款", "借款未还"]


def test_a_law_the_query_names_is_searched_whatever_the_cause():
    found = statute_search("民事诉讼法 当事人对自己提出的主张有责任提供证据", cause_of_action="民间借贷纠纷")
    assert found[0].citation == "《中华人民共和国民事诉讼法》第六十七条"


def test_a_charge_searches_the_general_part_and_its_own_chapter_of_the_criminal_law():
    theft = governing_laws("盗窃罪")
    assert theft.allows(full_name("刑法"), "侵犯财产罪") and theft.allows(full_name("刑法"), "刑罚的具体运用")
    assert not theft.allows(full_name("刑法"), "危害公共安全罪")
    hits = statute_search("盗窃公私财物，数额较大", cause_of_action="盗窃罪")
    assert hits[0].citation == "《中华人民共和国刑法》第二百六十四条"


def test_a_cause_is_matched_to_its_row_or_the_most_specific_row_it_contains():
    assert governing_laws("商铺租赁合同纠纷") == CIVIL_CAUSES["租赁合同纠纷"]
    assert governing_laws("房屋租赁合同纠纷") == CIVIL_CAUSES["房屋租赁合同纠纷"]
    assert governing_laws("Private lending dispute") is None
    assert governing_laws("") is None


def test_the_table_names_only_laws_and_chapters_the_corpus_holds():
    index = statute_index()
    charges = {*CRIMINAL_RELATED, *CHAPTER_OF_CHARGE}
    for row in [*CIVIL_CAUSES.values(), *(governing_laws(charge) for charge in charges)]:
        assert row.laws <= index.law_names, row.laws - index.law_names
        titles = {chapter for law, chapter in index.parts if law in row.laws}
        named = {*row.chapters, *(chapter for _, chapters in row.confined for chapter in chapters)}
        assert named <= titles, named - titles


def test_a_judicial_interpretation_is_not_checked_as_the_law_it_interprets():
    check = citations_check("依照《关于适用〈民法典〉婚姻家庭编的解释（一）》第八十三条")[0]
    assert not check.exists and check.message.startswith("no law named")
    assert citations_check("《民法典》第一千零八十七条")[0].exists


def test_the_statute_tool_searches_the_case_cause_unless_told_otherwise():
    lending = next(case for case in demo_case_seeds() if case["id"] == "zh-civil-private-lending")
    box = ToolBox(build_view(trial_start(case=lending, target_side="plaintiff"), "plaintiff_lawyer", phase="intake"))
    own_cause = json.loads(box.call("search_statutes", json.dumps({"query": INSURER_PAYS})))["result"]
    no_cause = json.loads(box.call("search_statutes", json.dumps({"query": INSURER_PAYS, "cause_of_action": ""})))
    assert own_cause and all(hit["law"] == full_name("民法典") for hit in own_cause)
    assert any(hit["law"] != full_name("民法典") for hit in no_cause["result"])


def test_fusion_keeps_one_line_s_clear_answer_among_articles_two_lines_half_match():
    shared = [{"id": article, "score": score} for article, score in zip(range(1, 7), (10, 8, 7, 6, 5, 4), strict=True)]
    guarantee = [{"id": 99, "score": 9.0}, *({"id": row["id"], "score": row["score"] / 3} for row in shared)]
    fused = fuse([shared, list(shared), guarantee])
    assert 99 in sorted(fused, key=lambda article: -fused[article])[:5]


def test_a_claim_for_repayment_finds_the_rule_on_interest_before_the_loan_contract_s_definition():
    found = citations(query="判令被告归还借款本金并支付利息", cause_of_action="民间借贷纠纷")
    interest_674, definition_667 = "《中华人民共和国民法典》第六百七十四条", "《中华人民共和国民法典》第六百六十七条"
    assert found[0] == interest_674
    assert rank(found, interest_674) < rank(found, definition_667)


def test_the_civil_cause_s_own_line_adds_nothing_to_a_search_confined_to_its_laws():
    lease, rent = "房屋租赁合同纠纷", "判令被告支付拖欠的租金"
    with_cause_line = citations(query=statute_query(cause=lease, claims=[rent]), cause_of_action=lease)
    assert with_cause_line == citations(query=rent, cause_of_action=lease)
    assert citations(query=lease, cause_of_action=lease), "the cause alone is still searched"


def test_a_charge_search_finds_the_article_defining_the_charge_whatever_the_query_asks():
    injury, surrender = "故意伤害罪", "被告人是否构成自首"
    article_234, article_67 = "《中华人民共和国刑法》第二百三十四条", "《中华人民共和国刑法》第六十七条"
    found = citations(query=surrender, cause_of_action=injury)
    assert found[0] == article_234
    assert article_67 in found
    assert article_234 not in citations(query=surrender), "without the charge nothing names the article"


def test_the_statute_tool_gives_each_article_s_citation_and_opening_sentences_which_check_citations_completes():
    lending = next(case for case in demo_case_seeds() if case["id"] == "zh-civil-private-lending")
    box = ToolBox(build_view(trial_start(case=lending, target_side="plaintiff"), "plaintiff_lawyer", phase="intake"))
    hits = json.loads(box.call("search_statutes", json.dumps({"query": "借款到期未还 逾期利息", "top_k": 5})))["result"]
    assert hits and all(set(hit) == {"law", "article", "citation", "text"} for hit in hits)
    for hit in hits:
        whole = citations_check(hit["citation"])[0]
        assert whole.exists and whole.text.startswith(hit["text"].removesuffix("…"))
        assert len(hit["text"]) <= EXCERPT_CHARS + 1
        assert hit["text"].endswith("…") == (hit["text"] != whole.text.strip())
    assert any(hit["text"].endswith("…") for hit in hits), "a long article is cut to its opening sentences"


def test_an_article_excerpt_keeps_whole_sentences_and_marks_what_it_leaves_out():
    three = "第一句规则。\n第二句补充。\n" + "第三句很长" * 30 + "。"
    assert article_excerpt(three) == "第一句规则。\n第二句补充。…"
    assert article_excerpt("短条文。") == "短条文。"
    assert article_excerpt("长" * 200) == "长" * EXCERPT_CHARS + "…"
