"""A civil claim finds the rule the remedy it asks turns on, even when no cause of action is
given (what the benchmark's civil judgments give): overdue interest on a loan, overtime pay,
the insurer's share of the appraisal costs, paid annual leave, a deposit taken from a worker;
and a paragraph of background facts brings no unrelated law. The queries are worded as
pleadings and judgments word them."""

from __future__ import annotations

from agents.tools.statutes import statute_query, statute_search


def top(facts: str, *claims: str, cause: str | None = None) -> list[str]:
    query = statute_query(cause=cause or "", claims=claims, facts=facts)
    found = statute_search(query, top_k=5, cause_of_action=cause)
    return [hit.citation.removeprefix("《中华人民共和国") for hit in found]


def test_a_loan_repaid_neither_in_principal_nor_interest_finds_the_overdue_interest_article():
    found = top("被告向原告借款10万元，约定月利率1%，到期后被告未还本付息。", "判令被告偿还借款本金并支付利息")
    assert "民法典》第六百七十六条" in found


def test_an_overtime_pay_claim_finds_the_labour_law_s_overtime_rates():
    found = top("原告于2019年入职被告公司，经常延长工作时间。", "判令被告支付加班费2万元")
    assert "劳动法》第四十四条" in found


def test_an_appraisal_fee_in_an_insured_accident_finds_the_rule_that_the_insurer_bears_it():
    found = top(
        "原告车辆与被告车辆相撞，经交警认定被告负全责。被告车辆在保险公司投保了交强险。",
        "判令被告保险公司赔偿车辆损失及鉴定费3000元",
    )
    assert "保险法》第六十四条" in found


def test_unpaid_annual_leave_finds_the_labour_law_s_paid_annual_leave():
    found = top("原告在被告公司工作五年，从未休过带薪年休假。", "判令被告支付未休年休假工资")
    assert "劳动法》第四十五条" in found


def test_a_deposit_taken_from_a_worker_finds_the_rule_against_it():
    found = top("2019年原告入职被告公司担任司机，被告收取原告保证金5000元，双方没有签订书面的劳动合同。")
    assert "劳动合同法》第九条" in found
    assert "劳动合同法》第十条" in found


def test_a_background_paragraph_brings_no_article_of_an_unrelated_law_into_a_labour_case():
    facts = "\n".join(
        [
            "被告运输公司成立于2002年，2007年设立分公司，2009年注销该分公司，公司章程载明了股东的出资额。",
            "原告自2009年起在被告处担任售票员，双方没有签订书面的劳动合同，被告未为原告缴纳社会保险。",
            "2015年3月原告向被告邮寄解除劳动合同通知书，以被告未签订劳动合同为由解除劳动关系。",
        ]
    )
    found = top(facts)
    labour_laws = ("劳动合同法》", "劳动法》", "劳动争议调解仲裁法》", "社会保险法》")
    assert [citation for citation in found if not citation.startswith(labour_laws)] == []
    assert "劳动合同法》第十条" in found
