"""What proves a head of damages or a fee the claims name, when the exhibit's words do not
repeat the claim's (docs/offline-court.md, "Civil").

Two rules, each a table:

* **Personal injury.** The Supreme People's Court's Interpretation on personal-injury damages
  (《最高人民法院关于审理人身损害赔偿案件适用法律若干问题的解释》, arts. 6-17) computes each head
  from a kind of paper: disability compensation and the solatium for mental distress from the
  disability appraisal (伤残鉴定), nursing and nutrition from the periods the appraisal or the
  doctor sets, the hospital meal allowance and transport from the hospital stay, death
  compensation and funeral costs from the death record. A claim for 残疾赔偿金 is proved by the
  司法鉴定意见 although the two share no word (MASER 436).
* **The fee's purpose.** A fee or a debt is named by its purpose (维修费 by 维修, 停运损失费 by
  损失, 船员工资 by 工资): an exhibit that names the purpose proves the item, however jieba cuts
  the two (维修费 whole in the claim, 维修 + 费用 in the invoice's name: MASER 424).
"""

from __future__ import annotations

import re

import jieba

INJURY_PROOF: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (re.compile(head, re.IGNORECASE), re.compile(proof, re.IGNORECASE))
    for head, proof in (
        (r"残疾赔偿金|残疾辅助器具|disability compensation", r"伤残|残疾|鉴定|disabilit|apprais"),
        (r"精神(?:损害)?抚慰金|mental distress|emotional distress", r"伤残|残疾|鉴定|死亡|disabilit|apprais|death"),
        (r"死亡赔偿金|丧葬费|death compensation|funeral", r"死亡|火化|注销|death|funeral"),
        (r"被扶养人生活费|dependants?'? living", r"户口|亲属|扶养|出生|household|dependant"),
        (
            r"后续治疗费|护理费|营养费|nursing|nutrition",
            r"鉴定|医嘱|病历|住院|护理|营养|apprais|medical record|hospital",
        ),
        (
            r"住院伙食补助|交通费|住宿费|hospital meal|transport",
            r"住院|病历|就医|医疗|交通|住宿|hospital|medical|transport",
        ),
        (r"误工费|lost earnings|lost wages", r"误工|收入|工资|鉴定|劳动合同|income|wage|salary|apprais"),
        (r"医疗费|医药费|治疗费|medical expenses", r"医疗|医药|病历|诊断|门诊|住院|医院|medical|hospital"),
        (r"鉴定费|评估费|appraisal fee", r"鉴定|评估|apprais|assess"),
    )
)
"""A head of personal-injury damages and the papers it is computed from."""

PURPOSE_ENDINGS = ("费用", "费", "金", "款")
"""How a fee or a debt is named after its purpose (维修费, 租金, 补偿款)."""
DEBTS = frozenset({"工资", "报酬", "租金", "货款", "价款", "借款", "欠款", "本金", "利息"})
"""Debts named whole: the word itself is the purpose."""
BARE_PURPOSES = frozenset({"赔偿", "补偿", "费用", "款项", "支付", "给付", "偿还"})
"""What is left of 赔偿金 or 补偿款: every claim for money is one; it names no purpose."""


def proves_head(exhibit: str, claim: str) -> bool:
    """``exhibit`` (an exhibit's name and purpose) is a paper the head of damages ``claim``
    names is computed from."""
    return any(head.search(claim) and proof.search(exhibit) for head, proof in INJURY_PROOF)


def names_purpose(exhibit: str, claim: str) -> bool:
    """``exhibit`` names the purpose of a fee or debt ``claim`` asks for (Chinese claims)."""
    return any(purpose in exhibit for purpose in purposes(claim))


def purposes(claim: str) -> frozenset[str]:
    """The purposes of the fees and debts ``claim`` names: 维修 of 维修费, 工资 of 船员工资."""
    found = set()
    for word in jieba.lcut(claim):
        if word in DEBTS:
            found.add(word)
            continue
        for ending in PURPOSE_ENDINGS:
            stem = word.removesuffix(ending)
            if stem != word and len(stem) >= 2:
                found.add(stem)
                break
    return frozenset(found - BARE_PURPOSES)
