"""The offline court listens: a student who argues the case and one who types "asdf" at
every turn get different judgments, in the direction a lawyer expects, and each judgment's
reasoning names the points that decided it."""

from __future__ import annotations

import copy
import json
from dataclasses import replace

from agents.scripted.agent import ScriptedAgent
from agents.scripted.context import disposition_of
from court.engine.machine import trial_start
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.runner import End, trial_run
from court.engine.steps import ArtifactDraft, MemoryUpdate, Reply
from court.legaltext.sentences import sentence_extract
from court.legaltext.text import amounts
from court.procedures import procedure_for
from tests.conftest import DEMO_CASES

EMPTY = "asdf"


class Student:
    """A person at a seat: says ``lines[act]`` when the act has a line, else (for the
    paperwork and the formalities) what ``fallback`` would; ``EMPTY`` types asdf at every turn."""

    def __init__(self, lines: dict[str, str] | None = None) -> None:
        self.lines = lines

    def respond(self, request: TurnRequest, *, on_delta=None) -> Reply:
        act = request.step.act
        decision = "decline" if act in ("answer_mediation", "answer_appeal") else None
        if self.lines is None:
            draft = ArtifactDraft(act, EMPTY) if request.step.artifact else None
            return Reply(text=EMPTY, artifact=draft, decision=decision)
        if act in self.lines:
            return Reply(text=self.lines[act], decision=decision)
        reply = ScriptedAgent().respond(request)
        return replace(reply, decision="decline") if act == "answer_appeal" else reply

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        return MemoryUpdate()

    def drain_calls(self) -> list[dict]:
        return []


def judgment(
    case_id: str | dict, seat: str, student: Student, *, target_side: str, last_stage: str | None, kind: str
) -> str:
    """The last judgment of ``kind`` in a trial of a demo case (by id) or of a case file typed fresh."""
    case = case_id if isinstance(case_id, dict) else json.loads((DEMO_CASES / f"{case_id}.json").read_text("utf-8"))
    state = trial_start(case=case, target_side=target_side, human_seats={seat: "student"}, last_stage=last_stage)
    seats = procedure_for(case["procedure"]).seats
    participants = {other: ScriptedAgent() for other in seats} | {seat: student}
    assert isinstance(trial_run(state, participants), End)
    return state.artifacts_of(kind)[-1].text


TRAFFIC_DEFENCE = {
    "state_defence": (
        "We do not deny the collision. But Ms Liu crossed against the red pedestrian signal: her own fault "
        "reduces our client's share to no more than 60%. The RMB 18,000 already paid under the compulsory "
        "insurance must be deducted."
    ),
    "present_evidence": (
        "We produce the intersection surveillance video, showing the plaintiff crossing on red, and the "
        "compulsory traffic insurance payment record of RMB 18,000."
    ),
    "argue": (
        "Under the Road Traffic Safety Law of the People's Republic of China, Article 76, a pedestrian's "
        "fault reduces the driver's liability. The video proves it; 60% is the most our client should bear."
    ),
}


def test_defence_counsel_who_proves_the_red_light_and_the_insurance_pays_less_than_one_who_types_asdf():
    play = dict(case_id="en-civil-traffic-accident", seat="defendant_lawyer", target_side="defendant", last_stage="FIT")
    argued = judgment(**play, student=Student(TRAFFIC_DEFENCE), kind="first_instance_judgment")
    empty = judgment(**play, student=Student(), kind="first_instance_judgment")
    pays = lambda text: max(amounts(disposition_of(text)))  # noqa: E731
    assert pays(argued) < pays(empty), (disposition_of(argued), disposition_of(empty))
    assert pays(argued) == (86_400 + 31_200 + 20_000 - 18_000) * 0.6, "60 % of the losses less the insurer's payment"
    assert "Intersection surveillance video" in argued and "the defendant bears 60 %" in argued
    assert "Intersection surveillance video" not in empty.split("Reasoning", 1)[1].split("Legal basis")[0]


LENDING_PLAINTIFF = {
    "state_claims": "请求判令被告归还借款本金200000元，并按年利率3.45%支付逾期利息。被告借款到期后一直未还。",
    "present_evidence": "原告出示：一、借条；二、招商银行转账凭证，证明借款已实际交付；三、微信聊天记录，证明被告承认欠款。",
    "argue": "借贷关系有借条和转账凭证证明，依照《中华人民共和国民法典》第六百七十五条，被告应当按期返还借款。",
}


def test_plaintiffs_counsel_who_proves_the_loan_wins_what_one_who_types_asdf_loses():
    play = dict(case_id="zh-civil-private-lending", seat="plaintiff_lawyer", target_side="plaintiff", last_stage="FIT")
    argued = judgment(**play, student=Student(LENDING_PLAINTIFF), kind="first_instance_judgment")
    empty = judgment(**play, student=Student(), kind="first_instance_judgment")
    assert "支付120000元" in disposition_of(argued), "the loan less the 80,000 the defence proved repaid"
    assert "驳回原告的全部诉讼请求" in disposition_of(empty)
    assert "《借条（2023年3月1日）》" in argued and "未完成举证责任" in empty


DRIVING_DEFENCE = {
    "question_defendant": "被告人，你到案后是否如实供述？有没有赔偿对方、取得谅解？",
    "present_evidence": "辩护人出示：赔偿协议及收款凭证（8600元）；被害人出具的谅解书；单位出具的工作表现证明。",
    "argue": (
        "被告人到案后如实供述，系坦白；自愿认罪认罚；已赔偿被害人损失并取得谅解；系初犯。"
        "被告人有固定工作，单位愿意监管，请求对其适用缓刑。"
    ),
}


def test_defence_counsel_who_argues_the_mitigation_gets_a_lighter_sentence_than_one_who_types_asdf():
    play = dict(case_id="zh-criminal-dangerous-driving", seat="attorney", target_side="defendant", last_stage=None)
    argued = judgment(**play, student=Student(DRIVING_DEFENCE), kind="criminal_judgment")
    empty = judgment(**play, student=Student(), kind="criminal_judgment")
    lighter, heavier = sentence_extract(argued, "zh"), sentence_extract(empty, "zh")
    assert lighter.imprisonment_months < heavier.imprisonment_months
    assert lighter.fine < heavier.fine
    assert "取得被害人谅解" in argued and "取得被害人谅解" not in empty


def test_a_prosecutor_who_produces_no_evidence_loses_the_case():
    play = dict(case_id="en-criminal-telecom-fraud", seat="prosecutor", target_side="defendant", last_stage=None)
    empty = judgment(**play, student=Student(), kind="criminal_judgment")
    assert "acquitted" in disposition_of(empty) and "produced no evidence" in empty


def renovation(claims: list[str] | None = None, second: dict | None = None) -> dict:
    """A case typed fresh in the authoring page (issue 41): a renovation contract, RMB 80,000
    owed, interest claimed on it, and a defective-work defence deducting RMB 18,000."""
    case = json.loads((DEMO_CASES / "en-civil-traffic-accident.json").read_text("utf-8"))
    case.pop("consultation", None)
    return case | {
        "id": "typed-renovation",
        "title": "Zhang Wei Decoration Co. v. Li Na (renovation contract)",
        "cause_of_action": "Construction contract dispute",
        "parties": [
            {"side": "plaintiff", "name": "Zhang Wei Decoration Co.", "kind": "company", "details": "a contractor"},
            {"side": "defendant", "name": "Li Na", "kind": "person", "details": "the owner of the flat"},
        ],
        "first_instance": {
            "claims": claims
            or [
                "Order the defendant to pay the outstanding renovation price of RMB 80,000",
                "Order the defendant to pay overdue-payment interest on RMB 80,000 from 1 June 2024",
                "Order the defendant to bear the court fees",
            ],
            "facts_and_reasons": "The plaintiff renovated the defendant's flat under a contract of 1 March 2024 for "
            "RMB 80,000, payable on completion. The work was completed and accepted on 31 May 2024; nothing was paid.",
            "evidence": [
                {
                    "side": "plaintiff",
                    "name": "Renovation contract of 1 March 2024",
                    "purpose": "the price of RMB 80,000",
                },
                {"side": "plaintiff", "name": "Completion acceptance record", "purpose": "the work was accepted"},
                {"side": "plaintiff", "name": "Payment demand letters", "purpose": "payment was demanded and refused"},
                {
                    "side": "defendant",
                    "name": "Photographs of the leaking bathroom",
                    "purpose": "defective waterproofing",
                },
                {"side": "defendant", "name": "Repair invoice of RMB 18,000", "purpose": "the defective work repaired"},
            ],
            "defenses": "The bathroom waterproofing was defective and leaked into the flat below. RMB 18,000 spent "
            "repairing the defective work must be deducted from the price.",
        },
        "second_instance": second
        or {
            "appellant_side": "defendant",
            "appeal_requests": ["Vary item 1 to reduce the sum payable to RMB 50,000"],
            "appeal_reasons": "",
            "appellee_defenses": "",
            "new_evidence": [],
        },
    }


RENOVATION_DEFENCE = {
    "state_defence": "We accept the contract, but the bathroom waterproofing was defective and leaked into the flat "
    "below. RMB 18,000 spent repairing the defective work must be deducted from the price.",
    "present_evidence": "We produce the photographs of the leaking bathroom and the repair invoice of RMB 18,000.",
    "argue": "Under the Civil Code, Article 577, the contractor answers for defective work: RMB 18,000 comes off.",
}
OWNER = dict(seat="defendant_lawyer", target_side="defendant", last_stage="FIT", kind="first_instance_judgment")


def orders_of(text: str) -> str:
    return disposition_of(text)


def test_a_case_typed_fresh_orders_the_price_less_the_repair_and_interest_on_it_never_a_second_sum():
    argued = orders_of(judgment(renovation(), student=Student(RENOVATION_DEFENCE), **OWNER))
    empty = orders_of(judgment(renovation(), student=Student(), **OWNER))
    assert "160,000" not in argued + empty, "interest on RMB 80,000 is not a second RMB 80,000"
    assert "shall pay the plaintiff Zhang Wei Decoration Co. RMB 62,000" in argued, "18,000 off the principal"
    assert "overdue-payment interest on RMB 62,000 at the one-year loan prime rate (LPR) from 1 June 2024" in argued
    assert "RMB 80,000 within ten days" in empty and "interest on RMB 80,000" in empty
    assert max(amounts(argued)) < max(amounts(empty)), "the argued defence never fares worse than asdf"


def test_claims_in_one_sentence_ending_with_the_court_fees_are_each_answered_in_the_reasoning():
    sentence = [
        "Order the defendant to pay the outstanding renovation price of RMB 80,000, overdue-payment interest on "
        "RMB 80,000 from 1 June 2024, and bear the court fees"
    ]
    for student in (Student(RENOVATION_DEFENCE), Student()):
        text = judgment(renovation(sentence), student=student, **OWNER)
        reasoning = text.split("4. Reasoning", 1)[1].split("5. Legal basis", 1)[0]
        assert reasoning.count("As to ") == 3, reasoning
        assert "dismissed in full" not in orders_of(text), "a stated, proven claim is granted"


BOILERPLATE = "Set aside the order"
REASONED_APPEAL = {
    "appellant_side": "plaintiff",
    "appeal_requests": [
        "Vary item 1 to order the appellee to pay the full price of RMB 80,000 with overdue-payment interest on it",
        "Order the appellee to bear the appeal costs",
    ],
    "appeal_reasons": "The appellee's own plumber moved the drain after completion and caused the leak.",
    "appellee_defenses": "The judgment below is right and should be affirmed.",
    "new_evidence": [
        {
            "side": "plaintiff",
            "name": "Plumber's work order of 10 June 2024",
            "purpose": "the appellee's own plumber moved the drain and caused the leak, so the RMB 18,000 repair "
            "is not the appellant's liability",
        }
    ],
}
APPEAL = OWNER | {"last_stage": None, "kind": "second_instance_judgment"}


def test_a_boilerplate_appeal_leaves_the_judgment_affirmed_and_a_reasoned_one_varies_it_in_full():
    """The student won the deduction and declines to appeal; the contractor's agent appeals."""
    boilerplate = judgment(renovation(), student=Student(RENOVATION_DEFENCE), **APPEAL)
    assert BOILERPLATE in boilerplate.split("2. Claims", 1)[1], "the appeal drafted from the orders lost"
    assert "The appeal is dismissed and the judgment below affirmed" in orders_of(boilerplate)
    assert "borne by the appellant Zhang Wei Decoration Co." in orders_of(boilerplate)
    assert "produced no new evidence" in boilerplate and ": ; granted" not in boilerplate

    reasoned = orders_of(
        judgment(renovation(second=copy.deepcopy(REASONED_APPEAL)), student=Student(RENOVATION_DEFENCE), **APPEAL)
    )
    assert 'RMB 62,000 within ten days of this judgment taking effect" of the judgment below is set aside' in reasoned
    assert "shall pay the plaintiff Zhang Wei Decoration Co. RMB 80,000 within ten days" in reasoned
    assert "overdue-payment interest on RMB 80,000" in reasoned, "the interest follows the principal as varied"
    assert "costs of the appeal are borne by the appellee Li Na" in reasoned


def renovation_zh(claims: list[str]) -> dict:
    """The renovation case typed fresh in Chinese."""
    case = json.loads((DEMO_CASES / "zh-civil-private-lending.json").read_text("utf-8"))
    case.pop("consultation", None)
    return case | {
        "id": "typed-renovation-zh",
        "title": "张某装饰公司诉李某装饰装修合同纠纷",
        "cause_of_action": "装饰装修合同纠纷",
        "parties": [
            {"side": "plaintiff", "name": "张某装饰公司", "kind": "company", "details": "装修公司"},
            {"side": "defendant", "name": "李某", "kind": "person", "details": "房屋业主"},
        ],
        "first_instance": {
            "claims": claims,
            "facts_and_reasons": "2024年3月1日双方签订装修合同，约定工程款80000元，竣工后支付。工程于2024年5月31日竣工验收，被告至今未付款。",
            "evidence": [
                {"side": "plaintiff", "name": "装修合同", "purpose": "工程款80000元及付款期限"},
                {"side": "plaintiff", "name": "竣工验收单", "purpose": "工程已竣工验收"},
                {"side": "defendant", "name": "卫生间漏水照片", "purpose": "防水工程质量不合格"},
                {
                    "side": "defendant",
                    "name": "维修费用发票（18000元）",
                    "purpose": "因防水质量问题支出维修费用18000元",
                },
            ],
            "defenses": "卫生间防水工程质量不合格，导致漏水。因防水质量问题被告支出维修费用18000元，应从工程款中扣除。",
        },
    }


RENOVATION_DEFENCE_ZH = {
    "state_defence": "卫生间防水工程质量不合格，导致漏水。因防水质量问题被告支出维修费用18000元，应从工程款中扣除。",
    "present_evidence": "被告出示：一、卫生间漏水照片；二、维修费用发票（18000元）。",
    "argue": "依照《中华人民共和国民法典》第五百七十七条，原告应对质量问题承担责任，维修费用18000元应予扣除。",
}
ZH_SENTENCE = ["判令被告支付工程款80000元及逾期付款利息（以80000元为基数，自2024年6月1日起计算），并承担诉讼费"]


def test_a_chinese_case_typed_in_one_sentence_is_answered_item_by_item():
    argued = judgment(renovation_zh(ZH_SENTENCE), student=Student(RENOVATION_DEFENCE_ZH), **OWNER)
    empty = judgment(renovation_zh(ZH_SENTENCE), student=Student(), **OWNER)
    assert "支付62000元" in orders_of(argued) and "以62000元为基数" in orders_of(argued), "扣除维修费，利息随本金"
    assert "支付80000元" in orders_of(empty) and "以80000元为基数" in orders_of(empty)
    assert "160000" not in orders_of(argued) + orders_of(empty)
    for text in (argued, empty):
        reasoning = text.split("四、本院认为", 1)[1].split("五、法律依据", 1)[0]
        assert reasoning.count("关于“") == 3, reasoning


def test_two_defendants_sued_together_are_both_ordered_to_pay():
    """MASER 154: "判令二被告共同向原告支付违约金" was ordered against the first defendant alone."""
    case = renovation_zh(ZH_SENTENCE)
    case["parties"].append({"side": "defendant", "name": "王某", "kind": "person", "details": "房屋共有人"})
    orders = orders_of(judgment(case, student=Student(), **OWNER))
    assert "被告李某、王某于本判决生效之日起十日内" in orders, orders
