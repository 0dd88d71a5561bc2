"""What proves a head of damages or a fee (``agents.scripted.damage_heads``), as a table."""

from __future__ import annotations

import pytest

from agents.scripted.damage_heads import names_purpose, proves_head, purposes


@pytest.mark.parametrize(
    ("exhibit", "claim", "proves"),
    [
        ("病历资料及司法鉴定意见", "残疾赔偿金67572元", True),
        ("医疗费票据", "残疾赔偿金67572元", False),
        ("司法鉴定意见书（十级伤残）", "精神损害抚慰金16000元", True),
        ("死亡证明、火化证明", "死亡赔偿金及丧葬费", True),
        ("住院病历", "住院伙食补助1050元", True),
        ("住院病历", "交通费800元", True),
        ("收入证明", "误工费48600元", True),
        ("收入证明", "护理费12195元", False),
        ("门诊病历及医疗费发票", "医疗费17092.35元", True),
        ("鉴定费发票", "鉴定费1800元", True),
        ("The appraisal report: ten-grade disability", "Disability compensation RMB 67,572", True),
        ("Hospital discharge record", "Transport costs RMB 350", True),
        ("借款合同", "残疾赔偿金67572元", False),
    ],
)
def test_a_head_of_personal_injury_damages_is_proved_by_the_paper_it_is_computed_from(exhibit, claim, proves):
    assert proves_head(exhibit, claim) is proves


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        ("判决胡志宇赔偿李睿维修费16,430元", {"维修"}),
        ("停运损失费3774元", {"损失"}),
        ("被告偿付原告船员工资28500元", {"工资"}),
        ("判令被告赔偿损失及补偿款", set()),
        ("支付违约金200000元", {"违约"}),
    ],
)
def test_a_fee_or_debt_is_named_by_its_purpose(claim, expected):
    assert purposes(claim) == frozenset(expected)


@pytest.mark.parametrize(
    ("exhibit", "claim", "named"),
    [
        ("车辆维修费用发票和清单", "赔偿维修费16,430元", True),
        ("营运损失和贬值损失的评估鉴定", "停运损失费3774元", True),
        ("微信聊天记录，双方结算工资共欠48500元", "偿付船员工资28500元", True),
        ("赔偿协议", "赔偿金5万元", False),
        ("车辆维修费用发票和清单", "交通费350元", False),
    ],
)
def test_an_exhibit_that_names_the_purpose_proves_the_fee(exhibit, claim, named):
    assert names_purpose(exhibit, claim) is named
