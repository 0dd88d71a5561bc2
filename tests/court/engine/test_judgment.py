"""Reading who lost what in a first-instance judgment: the scripted judge's, a court's as the
case files quote them, and a model's free text, in Chinese and English."""

from __future__ import annotations

import copy

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.judgment import appeal_from_judgment, orders_lost, sides_that_lost
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.procedures.civil import CIVIL_SEATS
from tests.conftest import demo_case_seeds

BOTH = {"plaintiff", "defendant"}


def scripted_judgment(seed: dict) -> str:
    state = trial_start(case=seed, target_side="plaintiff", last_stage="FIT")
    trial_run(state, {seat: ScriptedAgent() for seat in CIVIL_SEATS})
    return state.artifacts_of("first_instance_judgment")[-1].text


@pytest.mark.parametrize(
    ("orders", "losers"),
    [
        # the real courts' orders, as the demo case files record them
        (
            "判决如下：一、被告深圳市某某物流有限公司于本判决生效之日起十日内支付原告李某某二倍工资差额66000元；"
            "二、驳回原告的其他诉讼请求。",
            BOTH,
        ),
        (
            "判决如下：一、被告潍坊某某机电设备有限公司于本判决生效之日起十日内支付原告货款356000元；"
            "二、案件受理费6640元由被告负担。",
            {"defendant"},
        ),
        (
            "The court orders: 1. The defendant Huang Jun shall pay the plaintiff Liu Fang RMB 74,900 within ten days; "
            "2. The plaintiff's other claims are dismissed. Court fees of RMB 1,540 are borne RMB 700 by the plaintiff "
            "and RMB 840 by the defendant.",
            BOTH,
        ),
        ("判决如下：\n驳回原告的全部诉讼请求。\n案件受理费4300元，由原告负担。", {"plaintiff"}),
        (
            "The court orders:\nThe plaintiff's claims are dismissed in their entirety.\nCosts are borne by the plaintiff.",
            {"plaintiff"},
        ),
        ("判决如下：\n本案诉讼费用由被告负担。", set()),
        ("判决如下：\n一、驳回被告（反诉原告）的反诉请求；\n二、被告向原告返还押金5000元。", {"defendant"}),
        # a model's free text: the orders follow 判决如下 in a sentence, the appeal notice after them
        (
            "本院认为，借贷关系成立。依照《民法典》第六百七十五条之规定，判决如下：一、被告李某于本判决生效之日起十日内"
            "偿还原告张某借款50000元；二、驳回原告张某的其他诉讼请求。如不服本判决，可在判决书送达之日起十五日内提起上诉。",
            BOTH,
        ),
    ],
)
def test_the_orders_say_which_sides_lost_anything_and_costs_alone_count_for_nobody(orders, losers):
    assert sides_that_lost(orders) == losers


def test_claims_the_judgment_recites_are_not_its_orders():
    judgment = "民事判决书\n\n二、诉讼请求\n1. 判令被告支付货款356000元\n\n判决如下：\n驳回原告的全部诉讼请求。"
    assert sides_that_lost(judgment) == {"plaintiff"}


@pytest.mark.parametrize("seed", [s for s in demo_case_seeds() if s["procedure"] == "civil"], ids=lambda s: s["id"])
def test_the_scripted_judge_granting_every_claim_leaves_only_the_defendant_a_loser(seed):
    """The defence brings no evidence, so the scripted judge grants every claim the plaintiff
    proved: the plaintiff lost nothing (the costs order aside)."""
    seed["first_instance"]["evidence"] = [
        item for item in seed["first_instance"]["evidence"] if item["side"] == "plaintiff"
    ]
    judgment = scripted_judgment(seed)
    lost = orders_lost(judgment)
    assert lost["plaintiff"] == [] and lost["defendant"], judgment
    assert not any("诉讼费用" in order or "litigation costs" in order for order in lost["defendant"]), (
        "the claim that the defendant bear the costs, granted, is no loss"
    )


def test_the_scripted_judge_granting_part_of_the_claims_leaves_both_sides_losers(civil_seed):
    """The defence proves RMB 30,000 of the loan repaid: the plaintiff gets the rest."""
    judgment = scripted_judgment(copy.deepcopy(civil_seed))
    assert sides_that_lost(judgment) == BOTH
    assert orders_lost(judgment)["plaintiff"] == ["The plaintiff's other claims are dismissed"]


def test_an_appeal_drafted_from_the_judgment_contests_the_orders_the_side_lost():
    orders = "判决如下：\n1. 支持原告诉讼请求：判令被告归还借款本金200000元\n\n案件受理费由败诉方负担。"
    appeal = appeal_from_judgment(orders, "defendant", "zh")
    assert appeal["appeal_requests"] == ["撤销一审判决“支持原告诉讼请求：判令被告归还借款本金200000元”一项，依法改判"]
    assert appeal_from_judgment(orders, "plaintiff", "en")["appeal_requests"] == []


def test_a_company_name_with_co_ltd_is_not_cut_from_the_order_it_is_in():
    """The lease case's agent appealed "...shall pay the plaintiff Harbour View Property
    Management Co., Ltd.." when the full stop of "Ltd." was read as the order's end."""
    judgment = (
        "The court orders:\n"
        "1. The defendant Green Leaf Cafe Co., Ltd. shall pay the plaintiff Harbour View Property Management"
        " Co., Ltd. RMB 86,400 within ten days of this judgment taking effect\n"
        "2. The plaintiff's other claims are dismissed"
    )
    assert orders_lost(judgment)["defendant"] == [
        "The defendant Green Leaf Cafe Co., Ltd. shall pay the plaintiff Harbour View Property Management"
        " Co., Ltd. RMB 86,400 within ten days of this judgment taking effect"
    ]
