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
        (
            undefended(
                ["判决胡志宇赔偿李睿维修费16,430元；停运损失费3774元；车辆贬值费13950及鉴定费1198元"],
                "车辆维修费用发票和清单",
                "营运损失和贬值损失的评估鉴定",
            ),
            "判决胡志宇赔偿李睿维修费16,430元",
            1.0,
            "MASER 424: the repair invoice proves the repair costs, however jieba cuts 维修费 and 维修费用",
        ),
        (
            undefended(
                ["赔偿医疗费38428.25元；残疾赔偿金67572元；精神抚慰金5000元；交通费350元；鉴定费1900元"],
                "医疗费票据: 证明医疗费及后续治疗费用",
                "病历资料及司法鉴定意见: 证明住院伙食补助费、营养费、护理费等损失",
            ),
            "残疾赔偿金67572元",
            1.0,
            "MASER 436: disability compensation is computed from the appraisal's disability grade",
        ),
        (
            undefended(
                ["赔偿医疗费38428.25元；残疾赔偿金67572元；精神抚慰金5000元；交通费350元；鉴定费1900元"],
                "医疗费票据: 证明医疗费及后续治疗费用",
                "病历资料及司法鉴定意见: 证明住院伙食补助费、营养费、护理费等损失",
            ),
            "交通费350元",
            1.0,
            "MASER 436: transport to treatment follows the medical records",
        ),
        (
            undefended(
                ["被告向原告支付2020年7月8日-2021年3月11日的房屋租金48600元；被告向原告支付2020年取暖费2240.9元"],
                "房屋租用合同",
            ),
            "被告向原告支付2020年取暖费2240.9元",
            1.0,
            "MASER 186: the lease proves the heating charge it puts on the tenant",
        ),
        (
            undefended(
                ["被告偿付原告船员工资28500元；原告对上述债权对“浙岭渔运60011”船享有船舶优先权"],
                "原告与被告的微信聊天记录，用以证明原告在“浙岭渔运60011”船上工作，双方结算工资共欠48500元的事实",
                "渔业船舶所有权证书，用以证明“浙岭渔运60011”船登记的事实",
            ),
            "被告偿付原告船员工资28500元",
            1.0,
            "MASER 688: the chat in which the wages owed were settled proves the wages",
        ),
    ],
)
def test_what_an_undefended_plaintiff_proved_is_granted(record, item, share, why):
    assert granted(record)[item] == share, why
