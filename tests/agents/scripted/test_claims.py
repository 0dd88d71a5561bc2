"""Claims in the shapes real complaints take (MASER's released records, even ids), read item by
item (``agents.scripted.claims``): a sum and the interest on it in one sentence are two items;
a rate split off by a semicolon belongs to the interest before it; another's joint liability or
a mortgagee's priority secures the debt and asks for no sum."""

from __future__ import annotations

import pytest

from agents.scripted.claims import ACCRUAL, COSTS, DECLARATION, SUM, claims_read


def kinds(claims: list[str]) -> list[tuple[str, float | None]]:
    return [(item.kind, item.amount) for item in claims_read(claims)]


@pytest.mark.parametrize(
    ("claims", "expected", "shape"),
    [
        (
            [
                "判令二被告共同向原告支付违约金200000元; 判令二被告共同赔偿原告利润损失40万元; "
                "诉讼过程中原告将诉讼请求第二项中的请求数额变更为：1065492元。",
                "本案案件受理费由二被告承担。",
            ],
            [(SUM, 200_000), (SUM, 1_065_492), (COSTS, None)],
            "MASER 154: an amendment of item 2's sum is item 2's sum, not an item of its own",
        ),
        (
            [
                "被告应支付原告贷款本息、逾期罚息及提前还款违约金等合计106504.02元（至2020年11月30日，后续按罚息利率19.35%计算至实付日）",
                "被告承担本案诉讼费用",
            ],
            [(SUM, 106_504.02), (COSTS, None)],
            "MASER 98: heads listed and added up in one sum are that sum, not an accrual with no base",
        ),
        (
            [
                "请求依法判决分割苏连生名下对改造事务中心享有的580万债权，确认享有50%的份额为290万元;"
                "依法分割1168.57平方米拆迁安置房，确认享有50%的面积",
                "诉讼费由被告承担",
            ],
            [(DECLARATION, None), (DECLARATION, None), (COSTS, None)],
            "MASER 458: the share of a division (确认享有50%的份额) is part of the division, not a claim of its own",
        ),
        (
            ["要求三被告偿还借款本金5万元，并自2017年3月20日到还款之日止按月利率2分给付利息", "诉讼费由被告承担"],
            [(SUM, 50_000), (ACCRUAL, None), (COSTS, None)],
            "MASER 158: 本金…，并自…起按…利率给付利息 is the principal and the interest on it",
        ),
        (
            [
                "判令孙某某、刘某、张某某共同连带给付船员劳务工资14万元及自2024年2月10日起到实际给付之日止按照全国银行间拆借中心公布的一年期贷款利率计算的利息"
            ],
            [(SUM, 140_000), (ACCRUAL, None)],
            "MASER 442: 工资…及自…起…计算的利息",
        ),
        (
            [
                "判令被告符××立即支付油款944630元，并向原告支付以上述款项为基数自2023年11月27日起至清偿完毕日止按一年期贷款市场报价利率计算的逾期付款损失"
            ],
            [(SUM, 944_630), (ACCRUAL, None)],
            "MASER 634: …，并向原告支付以上述款项为基数…的逾期付款损失",
        ),
        (
            ["判决吴新平返还借款本金210000元并支付利息", "月利率0.5％，自2020年10月24日起算至履行完毕之日"],
            [(SUM, 210_000), (ACCRUAL, None)],
            "MASER 60: the rate after a semicolon says how the interest runs, no claim of its own",
        ),
        (
            ["判令被告一支付租金41807元", "判令被告二、被告三对被告一应付租金及违约金承担连带责任"],
            [(SUM, 41_807), (DECLARATION, None)],
            "MASER 94: joint liability for the rent and the penalty asks for no penalty of its own",
        ),
        (
            ["被告偿付原告船员工资28500元", "原告对上述债权对告江xx和陈x丙名下的“浙岭渔运60011”船享有船舶优先权"],
            [(SUM, 28_500), (DECLARATION, None)],
            "MASER 688: a maritime lien over the debt above",
        ),
        (
            [
                "判决被告及时偿还原告借款本金110 000.00元及资金占用利息（从2020年11月1日起按贷款市场报价利率计算利息至实际支付之日止）"
            ],
            [(SUM, 110_000), (ACCRUAL, None)],
            "MASER 288: a space as the thousands separator is one number, not RMB 0",
        ),
        (
            ["赔偿医疗费38428.25元", "护理费12195元", "各项经济损失合计50623.25元"],
            [(SUM, 38_428.25), (SUM, 12_195)],
            "MASER 436: 各项经济损失合计 adds up the sums before it, no claim of its own",
        ),
        (
            ["判令被告支付本金10万元", "利息共计2万元"],
            [(SUM, 100_000), (SUM, 20_000)],
            "a head with its own total (利息共计) is a claim, not the total of the others",
        ),
        (
            ["Order the defendant to pay the outstanding price of RMB 80,000, overdue-payment interest on RMB 80,000"],
            [(SUM, 80_000), (ACCRUAL, None)],
            "a thousands comma is no break between a sum and its interest",
        ),
    ],
)
def test_real_claim_shapes_are_read_item_by_item(claims, expected, shape):
    assert kinds(claims) == expected, shape
