"""What each act asks of the seat whose turn it is, as a prompt's task says it: (Chinese,
English). An act with no entry is named from ``court.procedures.names``."""

from __future__ import annotations

ACT_TITLES = {
    "describe_dispute": ("向律师介绍纠纷经过", "describe your dispute to the lawyer"),
    "ask_follow_up": ("向当事人追问关键事实和证据", "ask the client follow-up questions on key facts and evidence"),
    "answer_follow_up": ("回答律师的追问", "answer the lawyer's follow-up questions"),
    "ask_question": ("向律师提出你关心的一个法律问题", "ask the lawyer one legal question you care about"),
    "answer_question": (
        "回答当事人的问题：法律关系、适用规则、风险和建议",
        "answer the client's question: legal relationship, rule, risk and advice",
    ),
    "summarise_advice": ("总结咨询意见和下一步安排", "summarise your advice and the next steps"),
    "acknowledge": ("回应律师的总结", "respond to the lawyer's summary"),
    "request_materials": (
        "请当事人提供和核对起草文书所需的材料",
        "ask the client for the materials the pleading needs",
    ),
    "provide_materials": ("提供和核对律师需要的材料", "provide and check the materials the lawyer needs"),
    "confirm_position": ("向当事人确认文书的主张和立场", "confirm the pleading's position with the client"),
    "approve_position": ("确认或修改律师提出的方案", "approve or amend the lawyer's proposal"),
    "review_judgment": (
        "与当事人研究一审判决，确定二审立场",
        "review the first-instance judgment with the client and set the appeal position",
    ),
    "open_court": (
        "宣布开庭，核对当事人，告知诉讼权利",
        "open the court, identify the parties and inform them of their rights",
    ),
    "confirm_appearance": ("确认到庭情况，回应是否申请回避", "confirm appearance and whether you apply for recusal"),
    "invite_statement": ("宣布法庭调查开始，请一方陈述", "open the court investigation and invite the statements"),
    "state_claims": (
        "陈述诉讼请求（或上诉请求）及事实理由",
        "state the claims (or appeal requests) with facts and reasons",
    ),
    "state_defence": ("发表答辩意见", "state the defence"),
    "invite_evidence": ("组织举证质证", "open evidence presentation and cross-examination"),
    "present_evidence": ("出示本方证据并说明证明目的", "present your evidence and what each item proves"),
    "cross_examine": (
        "对对方证据发表质证意见（真实性、合法性、关联性）",
        "cross-examine the other side's evidence (authenticity, legality, relevance)",
    ),
    "question_party_first": ("向先陈述的一方当事人发问", "question the party who opened"),
    "question_party_second": ("向另一方当事人发问", "question the other party"),
    "answer_judge": ("回答审判长的提问", "answer the judge's question"),
    "summarise_disputes": ("归纳争议焦点，宣布进入法庭辩论", "sum up the points in dispute and open the debate"),
    "argue": ("围绕争议焦点发表辩论意见", "argue the points in dispute"),
    "rebut": ("针对对方辩论意见进行反驳", "rebut the other side's argument"),
    "invite_final_statements": ("宣布辩论结束，请当事人最后陈述", "close the debate and invite final statements"),
    "final_statement": ("作最后陈述", "make your final statement"),
    "propose_mediation": ("询问双方是否愿意调解", "ask whether the parties will accept mediation"),
    "answer_mediation": ("答复是否同意调解", "answer whether you accept mediation"),
    "answer_appeal": (
        "根据一审判决中对本方不利的判项，决定是否提起上诉并说明理由",
        "decide from the orders the first-instance judgment made against your side whether to appeal, and say why",
    ),
    "announce_discipline": ("宣布法庭纪律", "announce the court rules"),
    "verify_identity": ("核实被告人身份", "verify the defendant's identity"),
    "confirm_identity": ("陈述个人身份情况", "state your identity"),
    "inform_rights": ("告知被告人诉讼权利", "inform the defendant of their rights"),
    "acknowledge_rights": ("回应权利告知", "respond to the notice of rights"),
    "read_indictment": ("宣读起诉书", "read the indictment"),
    "ask_plea": ("询问被告人对指控的意见", "ask the defendant's plea"),
    "plead": ("对指控表明态度", "plead to the charge"),
    "question_defendant": ("讯问/发问被告人", "question the defendant"),
    "answer_examination": ("回答提问", "answer the question"),
    "comment_evidence": ("对证据发表意见", "comment on the evidence"),
    "open_debate": ("宣布法庭辩论开始", "open the debate"),
    "self_defence": ("作自行辩护", "speak in your own defence"),
    "invite_final_statement": ("请被告人最后陈述", "invite the defendant's final statement"),
    "rule_objection": (
        "就刚才提出的反对作出裁定（有效或无效）并说明理由",
        "rule on the objection just raised (sustained or overruled) with a reason",
    ),
}
ACT_TITLES_IN_PHASE = {
    ("mediation", "summarise_advice"): (
        "就是否接受调解向当事人提出建议，并说明理由",
        "advise your client whether to accept mediation, and why",
    ),
}
"""An act that asks something else in one phase (``court.procedures.names.ACTS_IN_PHASE``)."""


def act_title(act: str, phase: str = "") -> tuple[str, str] | None:
    """What ``act`` asks in ``phase``, (Chinese, English); None for an act with no title."""
    return ACT_TITLES_IN_PHASE.get((phase, act)) or ACT_TITLES.get(act)
