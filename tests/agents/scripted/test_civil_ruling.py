"""The first-instance rule on shapes real records take (MASER's released cases, even ids), as a
table (``agents.scripted.civil_ruling``): what the plaintiff proved and stated, undefended,
is granted; an item no exhibit proves is still dismissed."""

from __future__ import annotations

import pytest

from agents.scripted.civil_court import civil_decision
from agents.scripted.claims import claim_items, claim_read
from agents.scripted.record import CivilRecord, Claim, Exhibit


def undefended(claims: list[str], *exhibits: str) -> CivilRecord:
    """Every item stated, every exhibit produced, no defence: MASER's records hold the
    plaintiff's side only."""
    items = claim_items(claims)
    return CivilRecord(
        "zh",
        "plaintiff",
        "defendant",
        tuple(Claim(text, True, claim_read(text).amount) for text in items),
        tuple(Exhibit("plaintiff", name, "", True) for name in exhibits),
        (),
    )


def granted(record: CivilRecord) -> dict[str, float]:
    return {ruling.claim: ruling.granted for ruling in civil_decision(record).rulings}


@pytest.mark.parametrize(
    ("record", "item", "share", "why"),
    [
        (
            undefended(
                ["要求三被告偿还借款本金5万元，并自2017年3月20日到还款之日止按月利率2分给付利息"], "借款合同", "欠据"
            ),
            "自2017年3月20日到还款之日止按月利率2分给付利息",
            1.0,
            "MASER 158: the interest runs on the principal the loan contract proves",
        ),
        (
            undefended(
                ["请求判令被告王建军、罗海琴偿还本案借款本金2万元", "被告杨茹对该债务承担连带清偿责任"],
                "《个人保证借款合同》",
            ),
            "被告杨茹对该债务承担连带清偿责任",
            1.0,
            "MASER 152: the guarantor's joint liability stands on the debt the guaranteed loan contract proves",
        ),
        (
            undefended(
                [
                    "判令解除2021年11月18日二被告与原告签订的《委托某某餐具清洗配送中心清洗餐具协议》",
                    "判令二被告共同向原告支付违约金200000元",
                    "判令二被告共同赔偿原告餐具配送利润损失40万元",
                ],
                "《委托某某餐具清洗配送中心清洗餐具协议》签署证明",
            ),
            "判令二被告共同向原告支付违约金200000元",
            1.0,
            "MASER 154: the agreed penalty is proved by the agreement",
        ),
        (
            undefended(
                [
                    "判令解除2021年11月18日二被告与原告签订的《委托某某餐具清洗配送中心清洗餐具协议》",
                    "判令二被告共同向原告支付违约金200000元",
                    "判令二被告共同赔偿原告餐具配送利润损失40万元",
                ],
                "《委托某某餐具清洗配送中心清洗餐具协议》签署证明",
            ),
            "判令二被告共同赔偿原告餐具配送利润损失40万元",
            0.0,
            "a loss of profit needs proof of the loss: the agreement alone does not prove it",
        ),
        (
            undefended(["判令被告一支付租金41807元", "判令被告二、被告三对被告一应付租金及违约金承担连带责任"]),
            "判令被告二、被告三对被告一应付租金及违约金承担连带责任",
            0.0,
            "no exhibit at all: the burden of proof is unmet, the secured debt and its security alike",
        ),
    ],
)
def test_what_an_undefended_plaintiff_proved_is_granted(record, item, share, why):
    assert granted(record)[item] == share, why
