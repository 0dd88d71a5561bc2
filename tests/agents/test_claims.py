"""Reading claims as a court does (``agents.scripted.claims``), as a table: a case file's claims
in whatever shape a person typed them, and the items a court reads in them."""

from __future__ import annotations

import pytest

from agents.scripted.claims import ACCRUAL, COSTS, DECLARATION, SUM, claims_read, orders_below

RENOVATION_EN = [
    "Order the defendant to pay the outstanding renovation price of RMB 80,000",
    "Order the defendant to pay overdue-payment interest on RMB 80,000 from 1 June 2024",
    "Order the defendant to bear the court fees",
]


def kinds(claims: list[str]) -> list[tuple[str, float | None, float | None]]:
    return [(item.kind, item.amount, item.base) for item in claims_read(claims)]


@pytest.mark.parametrize(
    ("claims", "expected", "shape"),
    [
        (
            RENOVATION_EN,
            [(SUM, 80_000, None), (ACCRUAL, None, 80_000), (COSTS, None, None)],
            "a list: interest on RMB 80,000 is a base, not a second RMB 80,000",
        ),
        (
            [
                "Order the defendant to pay the outstanding renovation price of RMB 80,000, overdue-payment "
                "interest on RMB 80,000 from 1 June 2024, and bear the court fees"
            ],
            [(SUM, 80_000, None), (ACCRUAL, None, 80_000), (COSTS, None, None)],
            "one English sentence, the costs at its end",
        ),
        (
            ["Order the defendant to pay RMB 60,000 for the goods and bear the court fees"],
            [(SUM, 60_000, None), (COSTS, None, None)],
            "'... and bear the court fees' is a claim of its own",
        ),
        (
            ["Order the defendant to pay nursing fees, lost income and nutrition costs of RMB 31,200"],
            [(SUM, 31_200, None)],
            "heads of one sum stay one item",
        ),
        (
            [
                "Terminate the renovation contract and order the defendant to pay RMB 80,000 and bear the costs of the action"
            ],
            [(DECLARATION, None, None), (SUM, 80_000, None), (COSTS, None, None)],
            "a declaration, a sum and the costs in one sentence",
        ),
        (
            ["判令被告支付工程款80000元及逾期付款利息（以80000元为基数，自2024年6月1日起计算），并承担诉讼费"],
            [(SUM, 80_000, None), (ACCRUAL, None, 80_000), (COSTS, None, None)],
            "一句话：及…利息（以…为基数），并承担诉讼费",
        ),
        (
            [
                "1. 判令被告支付工程款80000元；2. 判令被告以80000元为基数，按一年期贷款市场报价利率支付自2024年6月1日起"
                "至实际清偿之日止的逾期利息；3. 本案诉讼费由被告负担"
            ],
            [(SUM, 80_000, None), (ACCRUAL, None, 80_000), (COSTS, None, None)],
            "编号列表写在一行里",
        ),
        (
            ["判令被告支付货款356000元、以未付货款为基数按日万分之五支付违约金、承担诉讼费"],
            [(SUM, 356_000, None), (ACCRUAL, None, None), (COSTS, None, None)],
            "以顿号分开；违约金以未付货款（本金）为基数",
        ),
        (
            ["判令依法分割被告名下证券账户内于离婚时的资产共计480000元，原告分得其中60%即288000元"],
            [(SUM, 288_000, None)],
            "“即”后是请求的数额，共计的是财产总额",
        ),
        (
            ["确认原、被告之间的装修合同于2024年7月1日解除", "本案诉讼费用由被告负担"],
            [(DECLARATION, None, None), (COSTS, None, None)],
            "确认之诉没有给付数额",
        ),
        (
            ["Order the defendant to pay liquidated damages of RMB 72,000 for early termination"],
            [(SUM, 72_000, None)],
            "a fixed penalty with no base or rate is a sum",
        ),
        (
            ["判令被告支付原告货款171642元，并按照年贷款利率6%支付所欠款项的利息22313元（暂计算至2021年1月21日）"],
            [(SUM, 171_642, None), (ACCRUAL, None, None)],
            "MASER 4：，并按照…利率支付的利息是另一项",
        ),
        (
            ["判令张某某、某某公司共同支付某某组织材料款149920元、逾期付款利息15516.72元，以上合计165436.72元"],
            [(SUM, 149_920, None), (SUM, 15_516.72, None)],
            "MASER 10：以上合计是总数，不是一项请求；算好的利息是一笔数额",
        ),
    ],
)
def test_claims_are_read_item_by_item_whatever_their_shape(claims, expected, shape):
    assert kinds(claims) == expected, shape


@pytest.mark.parametrize(
    ("claim", "rate", "since"),
    [
        (RENOVATION_EN[1], "", "from 1 June 2024"),
        (
            "Order the defendant to pay interest on RMB 50,000 at 6% per annum from 2024-03-01",
            "at 6% per annum",
            "from 2024-03-01",
        ),
        (
            "判令被告以200000元为基数，按年利率3.45%支付自2023年9月1日起至实际清偿之日止的逾期利息",
            "按年利率3.45%",
            "自2023年9月1日起",
        ),
        ("判令被告按合同约定以未付货款为基数按日万分之五支付违约金", "按日万分之五", ""),
    ],
)
def test_an_accrual_keeps_its_rate_and_start(claim, rate, since):
    (item,) = claims_read([claim])
    assert (item.kind, item.rate, item.since) == (ACCRUAL, rate, since)


@pytest.mark.parametrize(
    ("orders", "payable", "bases"),
    [
        (
            "1. The defendant Huang Jun shall pay the plaintiff Liu Fang RMB 71,760 within ten days of this judgment "
            "taking effect\n2. The plaintiff's other claims are dismissed",
            71_760,
            [],
        ),
        (
            "1. The defendant Green Leaf Cafe Co., Ltd. shall pay the plaintiff rent of RMB 67,200 and liquidated "
            "damages of RMB 24,000, less the deposit of RMB 48,000, that is RMB 43,200, within ten days; "
            "2. The plaintiff's other claims are dismissed.",
            43_200,
            [],
        ),
        (
            "一、被告周某某于本判决生效之日起十日内归还原告陈某某借款本金120000元；二、被告周某某以120000元为基数，按一年期"
            "贷款市场报价利率支付自2023年9月1日起至实际清偿之日止的逾期利息；三、驳回原告陈某某的其他诉讼请求。",
            120_000,
            [120_000],
        ),
        ("1. The plaintiff's claims are dismissed in full", None, []),
    ],
)
def test_the_orders_below_are_read_as_the_sum_payable_and_the_interest_on_it(orders, payable, bases):
    below = orders_below(orders)
    assert below.payable == payable
    assert [item.base for item in below.accruals] == bases
