"""The offline court listens: a student who argues the case and one who types "asdf" at
every turn get different judgments, in the direction a lawyer expects, and each judgment's
reasoning names the points that decided it."""

from __future__ import annotations

import json

from agents.scripted import ScriptedAgent
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
        decision = "decline" if act == "answer_mediation" else None
        if self.lines is None:
            draft = ArtifactDraft(act, EMPTY) if request.step.artifact else None
            return Reply(text=EMPTY, artifact=draft, decision=decision)
        if act in self.lines:
            return Reply(text=self.lines[act], decision=decision)
        return ScriptedAgent().respond(request)

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        return MemoryUpdate()

    def drain_calls(self) -> list[dict]:
        return []


def judgment(case_id: str, seat: str, student: Student, *, target_side: str, last_stage: str, kind: str) -> str:
    case = json.loads((DEMO_CASES / f"{case_id}.json").read_text(encoding="utf-8"))
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
