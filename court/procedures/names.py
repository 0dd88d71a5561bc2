"""What people read for the procedures' ids: seat, stage, phase and act names and the
headings of a case file, in the case's language ("LC" is 法律咨询 or "Legal consultation";
``state_claims`` is "State your claims"). The ids stay in the protocol and the stored
records; pages (the ``names`` template filters) and the room's script (``names_for``, put in
the page) show these names."""

from __future__ import annotations

from typing import Any

from court.procedures import procedure_for

STAGES = {
    "LC": ("Legal consultation", "法律咨询"),
    "CD": ("Drafting the complaint", "起诉状撰写"),
    "DD": ("Drafting the defence", "答辩状撰写"),
    "FIT": ("First-instance trial", "一审庭审"),
    "AD-Det": ("Deciding whether to appeal", "上诉决定"),
    "AD": ("Drafting the appeal", "上诉状撰写"),
    "AR": ("Drafting the appeal response", "上诉答辩状撰写"),
    "SIT": ("Second-instance trial", "二审庭审"),
    "preparation": ("Opening of the court", "开庭准备"),
    "investigation": ("Court investigation", "法庭调查"),
    "evidence": ("Evidence", "举证质证"),
    "debate": ("Court debate", "法庭辩论"),
    "final_statement": ("The defendant's final statement", "被告人最后陈述"),
    "judgment": ("Judgment", "宣判"),
}
PHASES = {
    "intake": ("Hearing the client", "了解案情"),
    "follow_up": ("The lawyer's questions", "律师询问"),
    "interview": ("Interview", "询问"),
    "questions": ("The client's questions", "当事人提问"),
    "advice": ("Advice", "法律意见"),
    "opening": ("Opening", "开庭"),
    "investigation": ("Court investigation", "法庭调查"),
    "questioning": ("Questions from the bench", "法庭询问"),
    "evidence": ("Evidence", "举证质证"),
    "debate": ("Court debate", "法庭辩论"),
    "final_statements": ("Final statements", "最后陈述"),
    "mediation": ("Mediation", "调解"),
    "appeal_decision": ("Whether to appeal", "是否上诉"),
    "indictment": ("The indictment", "宣读起诉书"),
    "examination": ("Examination of the defendant", "讯问被告人"),
    "prosecution_evidence": ("The prosecution's evidence", "控方举证"),
    "defence_evidence": ("The defence's evidence", "辩方举证"),
    "arguments": ("Arguments", "辩论意见"),
    "statement": ("Final statement", "最后陈述"),
    "pronouncement": ("Pronouncement", "宣判"),
    "document": ("Writing the document", "制作文书"),
}
SEATS = {
    "plaintiff_lawyer": ("Counsel for the plaintiff", "原告代理人"),
    "defendant_lawyer": ("Counsel for the defendant", "被告代理人"),
    "plaintiff_client": ("Plaintiff (the client)", "原告（当事人）"),
    "defendant_client": ("Defendant (the client)", "被告（当事人）"),
    "judge": ("Judge", "审判长"),
    "prosecutor": ("Public prosecutor", "公诉人"),
    "attorney": ("Defence counsel", "辩护人"),
    "defendant": ("Defendant", "被告人"),
    "stenographer": ("Court clerk", "书记员"),
}
FIELDS = {
    "facts": ("Facts", "事实与理由"),
    "evidence": ("Evidence", "证据"),
    "goals": ("Goals", "诉讼目标"),
    "goal": ("Goal", "目标"),
    "bottom_line": ("Bottom line", "底线"),
    "accepts_mediation": ("Open to mediation", "是否接受调解"),
    "consultation_questions": ("Questions for the lawyer", "咨询问题"),
    "claims": ("Claims", "诉讼请求"),
    "appeal": ("The appeal", "上诉"),
    "appeal_requests": ("Appeal requests", "上诉请求"),
    "appeal_reasons": ("Reasons for the appeal", "上诉理由"),
    "appellee_defenses": ("The appellee's answer", "被上诉人答辩意见"),
    "new_evidence": ("New evidence", "新证据"),
    "indictment": ("Indictment", "起诉书"),
    "defendant_info": ("The defendant", "被告人基本情况"),
    "charges": ("Charges", "指控罪名"),
    "sentencing_recommendation": ("Sentencing recommendation", "量刑建议"),
    "plaintiff": ("Plaintiff", "原告"),
    "defendant": ("Defendant", "被告"),
    "prosecution": ("Prosecution", "公诉方"),
    "shared": ("", ""),
    "defenses": ("Defences", "抗辩意见"),
    "procedural_progress": ("Procedural progress", "程序进展"),
    "client_profile": ("Client profile", "当事人情况"),
    "positions": ("Positions", "各方立场"),
    "notes": ("Notes", "备注"),
    True: ("yes", "是"),
    False: ("no", "否"),
}
"""Headings of a seat's case file (``engine.visibility`` field keys), of the values in it and
of the keys of its memory (``engine.memory``)."""
GROUNDS = {
    "leading": ("leading question", "诱导性发问"),
    "speculation": ("speculation", "推测性陈述"),
    "irrelevant": ("irrelevant", "与本案无关"),
    "hearsay": ("hearsay", "传闻证据"),
    "argumentative": ("argumentative", "辩论性发问"),
    "beyond_scope": ("beyond the scope", "超出范围"),
    "other": ("other", "其他"),
}
"""The grounds of an objection (``court.engine.objections.GROUNDS``)."""
ACTS = {
    "acknowledge": ("Acknowledge", "确认"),
    "acknowledge_rights": ("Say that you understand your rights", "表示知悉诉讼权利"),
    "announce_discipline": ("Announce the rules of the courtroom", "宣布法庭纪律"),
    "answer_examination": ("Answer the questions put to you", "回答讯问"),
    "answer_follow_up": ("Answer the lawyer's follow-up question", "回答律师的追问"),
    "answer_judge": ("Answer the judge's question", "回答法官的提问"),
    "answer_mediation": ("Say whether you accept mediation", "表明是否同意调解"),
    "answer_appeal": ("Say whether you appeal the judgment", "表明是否对一审判决提起上诉"),
    "answer_question": ("Answer the question", "回答提问"),
    "approve_position": ("Approve the position to be taken", "确认代理意见"),
    "argue": ("Argue your side's case", "发表辩论意见"),
    "ask_follow_up": ("Ask a follow-up question", "追问"),
    "ask_plea": ("Ask the defendant to answer the charge", "询问被告人对指控的意见"),
    "ask_question": ("Ask your question", "提出问题"),
    "comment_evidence": ("Comment on the evidence", "发表质证意见"),
    "confirm_appearance": ("Confirm who appears", "核对出庭人员"),
    "confirm_identity": ("Confirm your identity", "核对身份信息"),
    "confirm_position": ("Confirm your position", "确认立场"),
    "cross_examine": ("Comment on the other side's evidence", "对对方证据发表质证意见"),
    "describe_dispute": ("Describe the dispute", "陈述纠纷经过"),
    "final_statement": ("Make your final statement", "作最后陈述"),
    "inform_rights": ("Tell the defendant of their rights", "告知诉讼权利"),
    "invite_evidence": ("Invite the parties to present their evidence", "请当事人举证"),
    "invite_final_statement": ("Invite the defendant's final statement", "请被告人作最后陈述"),
    "invite_final_statements": ("Invite the final statements", "请双方作最后陈述"),
    "invite_statement": ("Invite the statement", "请当事人陈述"),
    "open_court": ("Open the court", "宣布开庭"),
    "open_debate": ("Open the debate", "宣布法庭辩论开始"),
    "plead": ("Answer the charge", "对指控作出答辩"),
    "present_evidence": ("Present your evidence", "出示证据"),
    "pronounce_judgment": ("Pronounce the judgment", "宣告判决"),
    "propose_mediation": ("Propose mediation", "主持调解"),
    "provide_materials": ("Provide the materials asked for", "提供所需材料"),
    "question_defendant": ("Question the defendant", "讯问被告人"),
    "question_party_first": ("Question the first party", "询问一方当事人"),
    "question_party_second": ("Question the other party", "询问另一方当事人"),
    "read_indictment": ("Read the indictment", "宣读起诉书"),
    "rebut": ("Rebut", "反驳"),
    "rule_objection": ("Rule on the objection", "对异议作出裁定"),
    "object": ("Object", "提出异议"),
    "question_party": ("Question a party", "询问当事人"),
    "write_consultation_record": ("Write the consultation record", "撰写咨询记录"),
    "draft_complaint": ("File the complaint", "撰写并提交起诉状"),
    "draft_defence": ("File the defence", "撰写并提交答辩状"),
    "draft_appeal": ("File the appeal", "撰写并提交上诉状"),
    "draft_appeal_response": ("File the response to the appeal", "撰写并提交上诉答辩状"),
    "write_trial_record": ("Write the trial record", "制作庭审笔录"),
    "request_materials": ("Ask the client for materials", "请当事人提供材料"),
    "review_judgment": ("Review the judgment with your client", "与当事人研究一审判决"),
    "self_defence": ("Speak in your own defence", "自行辩护"),
    "state_claims": ("State your claims", "陈述诉讼请求"),
    "state_defence": ("State your defence", "发表答辩意见"),
    "summarise_advice": ("Summarise your advice", "总结法律意见"),
    "summarise_disputes": ("Summarise the points in dispute", "归纳争议焦点"),
    "verify_identity": ("Verify the defendant's identity", "核实被告人身份"),
}
ACTS_IN_PHASE = {
    ("mediation", "summarise_advice"): ("Advise your client on mediation", "就是否调解向当事人提出意见"),
}
"""An act that asks something else in one phase: counsel's advice in the mediation phase is
whether to settle (``engine.machine.ADVICE``), not a summary of the consultation's advice."""


AGENDA = {
    "client": ("The client's particulars", "委托人的基本情况"),
    "defendant": ("The other side's particulars", "对方当事人的情况"),
    "facts": ("What happened", "案件经过"),
    "dispute": ("The points in dispute", "争议焦点"),
    "claims": ("What the client wants", "诉讼请求"),
    "evidence": ("The evidence", "证据"),
}
"""The items of a consultation's legal agenda (MASER Appendix A.2; ``court.agenda``)."""


def agenda_name(key: str, language: str) -> str:
    return _named(AGENDA, key, language)


def _named(names: dict, key: Any, language: str) -> str:
    if key not in names:
        plain = str(key).replace("_", " ")
        return plain[:1].upper() + plain[1:]
    english, chinese = names[key]
    return chinese if language == "zh" else english


def stage_name(stage: str, language: str) -> str:
    return _named(STAGES, stage, language)


def phase_name(phase: str, language: str) -> str:
    return _named(PHASES, phase, language)


def act_name(act: str, language: str, phase: str = "") -> str:
    """The act as the seat whose turn it is reads it, in ``phase`` where it asks something else there."""
    if (phase, act) in ACTS_IN_PHASE:
        return _named(ACTS_IN_PHASE, (phase, act), language)
    return _named(ACTS, act, language)


def seat_name(seat: str, language: str) -> str:
    return _named(SEATS, seat, language)


def ground_name(ground: str, language: str) -> str:
    return _named(GROUNDS, ground, language)


def field_name(key: Any, language: str) -> str:
    return _named(FIELDS, key, language)


def names_for(procedure: str, language: str) -> dict[str, dict[str, str]]:
    """Every name a page of a trial of ``procedure`` may need, for the room's script."""
    stages = procedure_for(procedure).stages
    return {
        "stages": {stage.id: stage_name(stage.id, language) for stage in stages},
        "phases": {phase: phase_name(phase, language) for phase in PHASES},
        "acts": {act: act_name(act, language) for act in ACTS},
        "seats": {seat: seat_name(seat, language) for seat in procedure_for(procedure).seats},
    }


PENALTIES = {
    "fixed_term": ("imprisonment", "有期徒刑"),
    "criminal_detention": ("criminal detention", "拘役"),
    "public_surveillance": ("public surveillance", "管制"),
    "life_imprisonment": ("life imprisonment", "无期徒刑"),
    "death_suspended": ("death with a two-year reprieve", "死刑缓期二年执行"),
    "death": ("death", "死刑"),
    "exempt": ("exempt from criminal punishment", "免予刑事处罚"),
    "acquitted": ("acquitted", "无罪"),
}
"""``sentence.penalty`` of a case file (docs/case-format.md)."""


def sentence_words(sentence: dict[str, Any], language: str) -> str:
    """A case file's ``sentence`` (or sentencing recommendation) as a court writes it:
    有期徒刑十个月，缓刑一年，罚金人民币5000元 / 10 months' imprisonment; suspended for 12
    months; a fine of RMB 5,000."""
    zh = language == "zh"
    kind = sentence.get("penalty") or "fixed_term"
    name = _named(PENALTIES, kind, language)
    months = sentence.get("imprisonment_months")
    parts = [(f"{name}{_number(months)}个月" if zh else f"{_number(months)} months' {name}") if months else name]
    probation = sentence.get("probation")
    if probation is True:
        parts.append("缓刑" if zh else "suspended (probation)")
    elif isinstance(probation, int | float) and probation > 0:
        parts.append(f"缓刑{_number(probation)}个月" if zh else f"suspended for {_number(probation)} months")
    fine = sentence.get("fine")
    if fine:
        parts.append(f"罚金人民币{_number(fine)}元" if zh else f"a fine of RMB {_number(fine):,}")
    return "，".join(parts) if zh else "; ".join(parts)


def _number(value: int | float) -> int | float:
    return int(value) if float(value).is_integer() else value
