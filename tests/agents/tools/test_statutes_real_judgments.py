"""What a student or agent notices when searching the statutes for a real case: the general-part
rules a criminal sentence rests on come with the charge's article, and a civil claim's remedy
finds the rule on it. Queries are written as real indictments and pleadings word them."""

from __future__ import annotations

from agents.tools.governing_laws import governing_laws
from agents.tools.legal_circumstances import charge_fines, circumstance_terms
from agents.tools.legal_remedies import remedy_terms
from agents.tools.statute_headings import charge_forms
from agents.tools.statutes import statute_query, statute_search

CRIMINAL_LAW = "《中华人民共和国刑法》"
THEFT_WITH_SURRENDER = (
    "2021年3月5日，被告人李某在某超市内窃取他人手机一部，价值3200元。案发后，被告人李某主动到派出所投案，"
    "如实供述了自己的犯罪事实。"
)
DRUNK_DRIVING_WITH_PROBATION = (
    "被告人王某醉酒后驾驶小型轿车在道路上行驶，被执勤民警查获，经鉴定血液酒精含量为180毫克/100毫升。"
    "公诉机关建议判处被告人王某拘役二个月，缓刑三个月，并处罚金。"
)


def top(cause: str, facts: str, *, claims: tuple[str, ...] = (), top_k: int = 5) -> list[str]:
    query = statute_query(cause=cause, claims=claims, facts=facts)
    return [hit.citation for hit in statute_search(query, top_k=top_k, cause_of_action=cause)]


def article(number: str) -> str:
    return f"{CRIMINAL_LAW}第{number}条"


def test_a_theft_whose_defendant_surrendered_finds_the_surrender_article_beside_the_theft_article():
    found = top("盗窃罪", THEFT_WITH_SURRENDER)
    assert found[0] == article("二百六十四")
    assert article("六十七") in found


def test_a_recommended_probation_and_fine_find_the_rules_on_probation_and_fines():
    found = top("危险驾驶罪", DRUNK_DRIVING_WITH_PROBATION)
    assert article("一百三十三") + "之一" in found
    assert article("七十二") in found
    assert article("五十二") in found


def test_a_charge_whose_article_punishes_with_a_fine_brings_the_rules_on_fines_unasked():
    assert charge_fines("盗窃罪") and not charge_fines("故意伤害罪")
    found = top("盗窃罪", "被告人赵某窃取他人电动车一辆，价值2600元。")
    assert article("五十二") in found


def test_one_act_of_a_selective_charge_finds_the_article_of_the_whole_charge():
    assert "贩卖毒品罪" in charge_forms("走私、贩卖、运输、制造毒品罪")
    found = top("贩卖毒品罪", "被告人张某以300元的价格向吸毒人员贩卖甲基苯丙胺0.5克，被当场抓获。")
    assert found[0] == article("三百四十七")
    assert governing_laws("贩卖毒品罪").allows("中华人民共和国刑法", "妨害社会管理秩序罪")


def test_acting_with_an_accomplice_finds_the_rule_on_joint_crime():
    found = top("盗窃罪", "被告人赵某伙同钱某深夜撬开停放在路边的电动车，窃得电瓶两块，价值1500元。")
    assert article("二十五") in found


def test_the_facts_of_a_crime_do_not_bring_the_criminal_procedure_law_unless_procedure_is_raised():
    facts = "被告人孙某因琐事与被害人发生争执，持木棍殴打被害人致其轻伤二级。"
    assert not any("刑事诉讼法" in citation for citation in top("故意伤害罪", facts))
    plea = top("故意伤害罪", facts + "被告人自愿认罪认罚，签署具结书。", top_k=10)
    assert "《中华人民共和国刑事诉讼法》第十五条" in plea


def test_circumstances_are_read_from_the_words_of_the_facts_not_from_article_numbers():
    terms = circumstance_terms(THEFT_WITH_SURRENDER, "盗窃罪")
    assert "自首" in terms and "罚金" in terms
    assert not any(character.isdigit() for term in terms for character in term)
    assert circumstance_terms("被告人持刀抢劫", "") == []


def test_a_loan_claim_for_overdue_interest_finds_the_interest_articles():
    found = top(
        "民间借贷纠纷",
        "被告向原告借款10万元，约定一年后归还，到期未还。",
        claims=("判令被告偿还借款本金10万元并支付逾期利息",),
    )
    assert "《中华人民共和国民法典》第六百七十六条" in found
    assert "《中华人民共和国民法典》第六百七十四条" in found


def test_a_traffic_accident_with_compulsory_insurance_finds_the_insurer_s_liability_without_a_cause():
    facts = (
        "2019年5月3日，被告驾驶小型轿车与原告驾驶的电动自行车相撞，致原告受伤。交警认定被告负事故全部责任。"
        "被告车辆在保险公司投保了交强险。"
    )
    found = [hit.citation for hit in statute_search(facts)]
    assert "《中华人民共和国道路交通安全法》第七十六条" in found


def test_a_dismissal_without_economic_compensation_finds_the_compensation_rules():
    facts = "原告于2015年入职被告公司，双方签订劳动合同。2018年被告以经营困难为由将原告辞退，未支付经济补偿。"
    found = [hit.citation for hit in statute_search(facts, cause_of_action="劳动合同纠纷")]
    assert "《中华人民共和国劳动合同法》第四十六条" in found
    assert "《中华人民共和国劳动合同法》第四十七条" in found


def test_remedies_are_read_from_the_words_of_a_pleading():
    terms = remedy_terms("判令被告支付逾期利息及违约金，被告车辆投保了交强险")
    assert "逾期利息" in terms and "违约金" in terms
    assert any("强制保险" in term for term in terms)
    assert remedy_terms("双方系朋友关系") == []
