"""Rule-based judgment alignment (LegalWorld C.4, docs/sources.md): each component against a
hand-computed example, and the demo cases' own real judgments."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from court.documents import document_compose
from scoring.alignment import (
    action_requested,
    appeal_action,
    disposition_items,
    judgment_alignment,
    key_points,
    phi,
    table2_cells,
)

DEMO_CASES = Path(__file__).resolve().parents[2] / "demo" / "cases"
PARTIES = [
    {"side": "plaintiff", "name": "青岛某某五金制品有限公司", "kind": "organization", "details": ""},
    {"side": "defendant", "name": "潍坊某某机电设备有限公司", "kind": "organization", "details": ""},
]


def demo_case(name: str) -> dict:
    return json.loads((DEMO_CASES / f"{name}.json").read_text(encoding="utf-8"))


def first_instance_from_real_fields(case: dict, **replaced: str) -> str:
    """A generated first-instance judgment whose every section is the case's real counterpart."""
    stage = case["first_instance"]
    roles = {"plaintiff": "原告", "defendant": "被告"}
    sections = {
        "parties": "\n".join(f"{roles[party['side']]}：{party['name']}" for party in case["parties"]),
        "claims": "；".join(stage["claims"]),
        "facts_found": stage["court_findings"],
        "reasoning": stage["court_findings"],
        "legal_basis": "、".join(stage["legal_references"]),
        "orders": stage["disposition"],
    }
    return document_compose("first_instance_judgment", case["language"], sections | replaced)


def test_phi_is_the_clamped_square_root():
    assert [phi(-0.2), phi(0.25), phi(1.7)] == [0.0, 0.5, 1.0]


def test_reasoning_is_the_plain_set_overlap_f1_and_only_structure_goes_through_phi_c4():
    case = {
        "language": "en",
        "parties": [{"side": "plaintiff", "name": "Zhang Wei"}, {"side": "defendant", "name": "Li Na"}],
        "first_instance": {"court_findings": "The lease is valid and rent is reduced."},
    }
    generated = document_compose(
        "first_instance_judgment",
        "en",
        {"facts_found": "The lease is valid.", "reasoning": "The deposit is forfeited."},
    )
    scores = judgment_alignment(generated=generated, case=case, instance="first")
    # reasoning terms: real {lease, valid, rent, reduced}, generated {lease, valid, deposit, forfeited}
    #   2 shared → P = 2/4, R = 2/4, F1 = 0.5 → 5.0 (a set-like dimension: F1 as it is, no φ)
    # structure, the partial numeric match: 2 of 6 sections → φ = sqrt(1/3) = 0.57735 → 5.7735
    # no disposition and no references: verdict, legal_reference, entity unavailable (None)
    # overall = (5.0 + 5.7735) / 2 = 5.3868, not lowered by the three skipped components
    assert scores == {
        "verdict": None,
        "reasoning": pytest.approx(5.0),
        "legal_reference": None,
        "entity": None,
        "structure": pytest.approx(10 * math.sqrt(1 / 3)),
        "overall": pytest.approx(5.3868, abs=1e-4),
    }


def test_legal_reference_is_the_f1_of_laws_articles_and_provision_families_table_11():
    case = {
        "language": "zh",
        "parties": PARTIES,
        "first_instance": {
            "legal_references": [
                "《中华人民共和国民法典》第五百七十七条",
                "《中华人民共和国民法典》第五百八十五条",
                "《中华人民共和国民法典》第六百二十一条",
            ]
        },
    }
    generated = document_compose(
        "first_instance_judgment",
        "zh",
        {"legal_basis": "《民法典》第577条、《中华人民共和国民法典》第五百八十五条、《民法典》第五百零九条"},
    )
    scores = judgment_alignment(generated=generated, case=case, instance="first")
    # real: the law 民法典, articles 577, 585, 621, families 第八章 违约责任 (577, 585) and
    #   第九章 买卖合同 (621): 6 elements
    # generated: 民法典, 577 (第577条 = 第五百七十七条), 585, 509, families 违约责任 and
    #   第四章 合同的履行 (509): 6 elements, 4 shared → P = R = 4/6, F1 = 2/3 → 6.67
    assert scores["legal_reference"] == pytest.approx(20 / 3)


def test_the_right_provision_family_with_another_article_earns_part_of_the_score_table_11():
    case = {
        "language": "zh",
        "parties": PARTIES,
        "first_instance": {"legal_references": ["《中华人民共和国民法典》第六百六十七条", "《民法典》第六百七十五条"]},
    }
    nearby = document_compose("first_instance_judgment", "zh", {"legal_basis": "依照《民法典》第六百七十九条"})
    # real {law 民法典, 667, 675, family 第十二章 借款合同}; generated {law 民法典, 679, 借款合同}:
    #   2 shared → P = 2/3, R = 2/4, F1 = 2·(1/3) / (7/6) = 4/7 → 5.714; as exact articles it was 0
    assert judgment_alignment(generated=nearby, case=case, instance="first")["legal_reference"] == pytest.approx(40 / 7)
    other_law = document_compose("first_instance_judgment", "zh", {"legal_basis": "《劳动合同法》第六百六十七条"})
    assert judgment_alignment(generated=other_law, case=case, instance="first")["legal_reference"] == 0.0
    listed = document_compose(
        "first_instance_judgment", "zh", {"legal_basis": "依照《中华人民共和国民法典》第六百六十七条、第六百七十五条"}
    )
    assert judgment_alignment(generated=listed, case=case, instance="first")["legal_reference"] == 10.0


def test_disposition_splits_into_orders_without_court_fees():
    disposition = (
        "一、被告于本判决生效之日起十日内支付原告货款356000元；二、被告以356000元为基数按日万分之五支付违约金；"
        "三、驳回原告的其他诉讼请求。案件受理费6640元，由被告负担。"
    )
    assert disposition_items(disposition) == [
        "被告于本判决生效之日起十日内支付原告货款356000元；",
        "被告以356000元为基数按日万分之五支付违约金；",
        "驳回原告的其他诉讼请求。",
    ]
    assert key_points(disposition) == {("order", 356000.0), ("accrue", 356000.0), ("reject", None)}


def test_verdict_and_entity_compare_key_points_and_amounts():
    case = {
        "language": "zh",
        "parties": PARTIES,
        "first_instance": {
            "disposition": "一、被告潍坊某某机电设备有限公司支付原告青岛某某五金制品有限公司货款356000元；"
            "二、被告以356000元为基数按日万分之五支付违约金；三、驳回原告的其他诉讼请求。案件受理费6640元由被告负担。"
        },
    }
    orders = "一、被告潍坊某某机电设备有限公司支付原告货款356000元；二、驳回原告的其他诉讼请求。"
    generated = document_compose("first_instance_judgment", "zh", {"orders": orders})
    scores = judgment_alignment(generated=generated, case=case, instance="first")
    # verdict: real {(order, 356000), (accrue, 356000), (reject, -)}, generated {(order, 356000), (reject, -)}
    #   P = 2/2, R = 2/3, F1 = 2·1·(2/3) / (1 + 2/3) = 0.8 → 8.0
    assert scores["verdict"] == pytest.approx(8.0)
    # entity: real {青岛…, 潍坊…, 青岛… as plaintiff, 潍坊… as defendant, 356000} (court fee 6640
    #   excluded), generated {潍坊…, 潍坊… as defendant (被告潍坊…), 356000}: the plaintiff's name is
    #   not in the generated judgment → P = 3/3, R = 3/5, F1 = 2·0.6 / 1.6 = 0.75 → 7.5
    assert scores["entity"] == pytest.approx(7.5)


def test_entity_checks_each_partys_role_mapping_table_11():
    case = demo_case("en-civil-traffic-accident")

    def naming(huang_jun: str, liu_fang: str) -> str:
        parties = f"{huang_jun}: Huang Jun\n{liu_fang}: Liu Fang"
        orders = "1. The first-instance judgment is varied: Huang Jun shall pay Liu Fang RMB 72,660."
        return document_compose("second_instance_judgment", "en", {"parties": parties, "orders": orders})

    right = naming("Appellant (original defendant)", "Appellee (original plaintiff)")
    swapped = naming("Appellee (original plaintiff)", "Appellant (original defendant)")
    # real: 2 names, Huang Jun as appellant and as defendant, Liu Fang as appellee and as plaintiff,
    #   RMB 72,660: 7 elements, all in the right judgment → 10
    assert judgment_alignment(generated=right, case=case, instance="second")["entity"] == pytest.approx(10.0)
    # the roles swapped: the names and the amount still match (3), the four roles do not
    #   → P = R = 3/7 → 4.286
    assert judgment_alignment(generated=swapped, case=case, instance="second")["entity"] == pytest.approx(30 / 7)


def test_an_english_order_matching_one_amount_matches_one_key_point():
    case = demo_case("en-civil-commercial-lease")
    orders = (
        "1. The defendant Green Leaf Cafe Co., Ltd. shall pay the plaintiff RMB 43,200 within ten days;\n"
        "2. The plaintiff's other claims are dismissed."
    )
    generated = document_compose("first_instance_judgment", "en", {"orders": orders})
    # real key points: (order, 67200), (order, 24000), (order, 48000), (order, 43200), (reject, -)
    # generated: (order, 43200), (reject, -) → P = 2/2, R = 2/5, F1 = 2·0.4 / 1.4 = 0.5714 → 5.714
    assert judgment_alignment(generated=generated, case=case, instance="first")["verdict"] == pytest.approx(40 / 7)


@pytest.mark.parametrize(
    ("disposition", "action"),
    [
        ("驳回上诉，维持原判。二审案件受理费10元，由上诉人负担。", "affirm"),
        ("The appeal is dismissed and the judgment affirmed. Appeal court fees are borne by the appellant.", "affirm"),
        ("一、维持一审判决第一项；二、撤销一审判决第二项；三、上诉人支付违约金。", "vary"),
        (
            "1. Item 1 of the first-instance judgment is varied: the appellant shall pay RMB 72,660; 2. Item 2 is affirmed.",
            "vary",
        ),
        ("一、撤销一审判决；二、驳回被上诉人的诉讼请求。", "reverse"),
        ("撤销原判，发回重审。", "remand"),
        ("一、驳回上诉人的其他诉讼请求。", None),
    ],
)
def test_appeal_action_is_read_from_the_disposition(disposition: str, action: str | None):
    assert appeal_action(disposition) == action


def test_the_action_requested_reads_every_request_and_leaves_court_fees_out():
    # 一、二审 is not an order number: the first request, before it, still counts
    requests = ["撤销一审判决第一项、第三项，改判被上诉人归还借款本金200000元", "一、二审诉讼费用由被上诉人负担"]
    assert action_requested(requests) == "vary"
    assert action_requested(["Set aside the judgment and remand the case for retrial"]) == "remand"
    assert action_requested(["The judgment is correct."]) is None


def test_a_generated_judgment_made_of_the_real_fields_scores_ten():
    case = demo_case("zh-civil-private-lending")
    scores = judgment_alignment(generated=first_instance_from_real_fields(case), case=case, instance="first")
    assert scores == {
        "verdict": 10.0,
        "reasoning": 10.0,
        "legal_reference": 10.0,
        "entity": 10.0,
        "structure": 10.0,
        "overall": 10.0,
    }


def test_other_articles_and_amounts_lower_the_scores():
    case = demo_case("zh-civil-private-lending")
    generated = first_instance_from_real_fields(
        case,
        legal_basis="《中华人民共和国民法典》第六百六十七条、《中华人民共和国民法典》第五百七十七条",
        orders="一、被告周某某于本判决生效之日起十日内归还原告陈某某借款本金200000元；二、驳回原告陈某某的其他诉讼请求。",
    )
    scores = judgment_alignment(generated=generated, case=case, instance="first")
    # verdict: real {(order, 120000), (accrue, 120000), (reject, -)}, generated {(order, 200000), (reject, -)}
    #   P = 1/2, R = 1/3, F1 = 2·(1/6) / (5/6) = 0.4 → 4.0
    # legal_reference: real {laws 民法典 and 规定, articles 667, 675, 676, 规定 28, family 借款合同}: 7;
    #   generated {民法典, 667, 577, families 借款合同 and 违约责任}: 5; 3 shared
    #   → P = 3/5, R = 3/7, F1 = 2·(9/35) / (36/35) = 0.5 → 5.0
    # entity: real {陈某某, 周某某, 陈某某 as plaintiff, 周某某 as defendant, 120000}, generated the same
    #   with 200000: P = R = 4/5 → 8.0
    # reasoning and structure unchanged: 10; overall = (4 + 10 + 5 + 8 + 10) / 5 = 7.4
    assert scores == {
        "verdict": pytest.approx(4.0),
        "reasoning": pytest.approx(10.0),
        "legal_reference": pytest.approx(5.0),
        "entity": pytest.approx(8.0),
        "structure": pytest.approx(10.0),
        "overall": pytest.approx(7.4),
    }


def test_second_instance_scores_the_appeal_action():
    case = demo_case("en-civil-traffic-accident")
    stage = case["second_instance"]
    sections = {
        "parties": "Appellant Huang Jun; appellee Liu Fang",
        "appeal_requests": "; ".join(stage["appeal_requests"]),
        "facts_found": stage["appellate_findings"],
        "reasoning": stage["appellate_findings"],
        "legal_basis": "Civil Code of the People's Republic of China, Article 1179",
        "orders": "1. The first-instance judgment is set aside;\n"
        "2. The appellant Huang Jun shall pay the appellee Liu Fang RMB 72,660 within ten days.",
    }
    generated = document_compose("second_instance_judgment", "en", sections)
    scores = judgment_alignment(generated=generated, case=case, instance="second")
    # appeal action: real "Item 1 ... is varied" → vary; generated sets aside the whole judgment → reverse → 0
    # verdict: real {(vary, 72660), (affirm, -)}, generated {(set_aside, -), (order, 72660)} → no overlap → 0
    # entity: real {huang jun, liu fang, huang jun as appellant and as defendant, liu fang as appellee
    #   and as plaintiff, 72660}: 7; generated names only the appellate roles: 5, all real
    #   → P = 1, R = 5/7, F1 = 10/12 → 8.333; reasoning and structure (6 of 6) → 10
    # legal_reference: the real appellate texts cite no parseable article → unavailable
    # overall = (0 + 10 + 8.333 + 10 + 0) / 5 = 5.667
    assert scores == {
        "verdict": 0.0,
        "reasoning": pytest.approx(10.0),
        "legal_reference": None,
        "entity": pytest.approx(25 / 3),
        "structure": pytest.approx(10.0),
        "appeal_action": 0.0,
        "overall": pytest.approx(17 / 3),
    }


def test_a_case_without_a_second_instance_leaves_only_structure():
    case = demo_case("zh-civil-sales-contract")
    del case["second_instance"]
    generated = document_compose("second_instance_judgment", "zh", {"orders": "驳回上诉，维持原判。"})
    # only structure is available: 1 of 6 sections → φ = sqrt(1/6) = 0.40825 → 4.0825
    assert judgment_alignment(generated=generated, case=case, instance="second") == {
        "verdict": None,
        "reasoning": None,
        "legal_reference": None,
        "entity": None,
        "structure": pytest.approx(10 * math.sqrt(1 / 6)),
        "appeal_action": None,
        "overall": pytest.approx(10 * math.sqrt(1 / 6)),
    }


TABLE_2 = {
    "FIT": {"verdict": 8.17, "reasoning": 8.22, "legal_reference": 6.76, "entity": 8.99, "structure": 9.70},
    "SIT": {
        "verdict": 7.78,
        "reasoning": 8.69,
        "legal_reference": 7.29,
        "appeal_action": 7.58,
        "entity": 8.78,
        "structure": 9.02,
    },
}
"""The element cells of LegalWorld's Table 2."""


def test_table_2_overall_row_averages_the_element_means_and_reproduces_the_paper_table_2():
    cells = table2_cells([TABLE_2])
    # the paper's bottom row: FIT (8.17 + 8.22 + 6.76 + 8.99 + 9.70) / 5 = 8.368 → 8.37,
    #   SIT (7.78 + 8.69 + 7.29 + 7.58 + 8.78 + 9.02) / 6 = 8.19, Overall (8.368 + 8.19) / 2 = 8.279 → 8.28
    assert cells["overall"] == {
        "FIT": pytest.approx(8.368),
        "SIT": pytest.approx(8.19),
        "overall": pytest.approx(8.279),
    }
    # an element's Overall combines its two columns: verdict (8.17 + 7.78) / 2 = 7.975 (7.98 in the paper);
    #   appeal action has no FIT cell, so its Overall is the SIT one, 7.58
    assert cells["verdict"]["overall"] == pytest.approx(7.975)
    assert cells["appeal_action"] == {"FIT": None, "SIT": 7.58, "overall": 7.58}


def test_overall_averages_per_element_means_not_each_judgments_own_mean_table_2():
    # one judgment with only verdict and structure available (its own mean 10), one with all five at 0
    sparse = {"FIT": {"verdict": 10.0, "reasoning": None, "legal_reference": None, "entity": None, "structure": 10.0}}
    zeros = {"FIT": dict.fromkeys(("verdict", "reasoning", "legal_reference", "entity", "structure"), 0.0)}
    cells = table2_cells([sparse, zeros])
    # element means: verdict 5, reasoning 0, legal reference 0, entity 0, structure 5 → (5 + 0 + 0 + 0 + 5) / 5 = 2;
    #   the judgments' own means would give (10 + 0) / 2 = 5
    assert cells["overall"] == {"FIT": pytest.approx(2.0), "SIT": None, "overall": pytest.approx(2.0)}
