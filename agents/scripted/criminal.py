"""The criminal trial (SimCourt): court discipline, identity and rights, the indictment and
the plea, examination, evidence, argument, the final statement, judgment and the trial record.

``open_court``, ``present_evidence``, ``argue``, ``rebut``, ``final_statement`` and
``pronounce_judgment`` are the criminal court's wording of acts both hearings share: the act
table dispatches them to ``hearing``, which hands a criminal trial over to them.
"""

from __future__ import annotations

import re

from agents.scripted.context import (
    Ctx,
    as_list,
    court_name,
    evidence_lines,
    numbered,
    split_sentences,
)
from agents.scripted.criminal_ruling import RATES, circumstance_name, criminal_decision
from agents.scripted.legal_basis import basis_text, criminal_basis
from agents.scripted.record import circumstances_in, criminal_record
from court.engine.steps import ArtifactDraft

CITATION = re.compile(r"《[^》]+》\s*第|第[一二三四五六七八九十百零\d]+条|\bArt(?:icle|s?\.)\s*\d", re.IGNORECASE)
"""A sentence citing an article."""


def indictment_of(ctx: Ctx) -> dict:
    """The indictment as far as the seat may see it (empty when it may not)."""
    return ctx.field("indictment") or {}


def _recommendation(ctx: Ctx) -> dict:
    return indictment_of(ctx).get("sentencing_recommendation") or {}


def _describe_sentence(ctx: Ctx, sentence: dict) -> str:
    months = int(sentence.get("imprisonment_months") or 0)
    probation, fine = sentence.get("probation"), sentence.get("fine") or 0
    parts = []
    if months:
        # Criminal detention runs up to six months; fixed-term imprisonment starts at six.
        if months < 6:
            parts.append(ctx.say(f"拘役{months}个月", f"{months} months' criminal detention"))
        else:
            parts.append(ctx.say(f"有期徒刑{months}个月", f"{months} months' imprisonment"))
    if probation:
        parts.append(
            ctx.say(f"缓刑{probation}个月", f"suspended for {probation} months")
            if not isinstance(probation, bool)
            else ctx.say("适用缓刑", "suspended")
        )
    if fine:
        parts.append(ctx.say(f"并处罚金人民币{fine}元", f"and a fine of RMB {fine}"))
    return ctx.sep().join(parts) or ctx.say("免予刑事处罚", "exempted from criminal punishment")


def open_court(ctx: Ctx) -> str:
    return ctx.say(
        f"现在开庭。{court_name(ctx)}依法公开审理{ctx.name('prosecution')}指控被告人{ctx.name('defendant')}"
        f"{ctx.view.case['cause_of_action']}一案。",
        f"The court is now in session. {court_name(ctx)} hears in public the case in which "
        f"{ctx.name('prosecution')} charges the defendant {ctx.name('defendant')} with {ctx.view.case['cause_of_action'].lower()}.",
    )


def announce_discipline(ctx: Ctx) -> str:
    return ctx.say(
        "请肃静。现在宣布法庭纪律：旁听人员不得录音录像，不得喧哗；诉讼参与人发言须经审判长许可。",
        "Silence, please. Court rules: no recording, no disturbance; participants speak only with the presiding judge's leave.",
    )


def verify_identity(ctx: Ctx) -> str:
    return ctx.say(
        "被告人，请陈述你的姓名、出生日期、职业和住址，以及是否受过刑事处罚。",
        "Defendant, state your name, date of birth, occupation and address, and whether you have any criminal record.",
    )


def confirm_identity(ctx: Ctx) -> str:
    info = indictment_of(ctx).get("defendant_info", "")
    return ctx.say(
        f"我叫{ctx.name('defendant')}。{split_sentences(info)[0] if info else ''}",
        f"My name is {ctx.name('defendant')}. {split_sentences(info)[0] if info else ''}",
    )


def inform_rights(ctx: Ctx) -> str:
    return ctx.say(
        "被告人依法享有申请回避、辩护、最后陈述等权利。你听清楚了吗？是否申请回避？",
        "The defendant has the right to apply for recusal, to a defence and to a final statement. Do you understand, and do you apply for recusal?",
    )


def acknowledge_rights(ctx: Ctx) -> str:
    return ctx.say("听清楚了，不申请回避。", "I understand. I do not apply for recusal.")


def read_indictment(ctx: Ctx) -> str:
    indictment = indictment_of(ctx)
    return ctx.say(
        f"公诉人宣读起诉书：{indictment.get('indictment', '')}本院认为，被告人的行为已构成{ctx.sep().join(as_list(indictment.get('charges')))}。"
        f"建议判处{_describe_sentence(ctx, _recommendation(ctx))}。",
        f"The prosecution reads the indictment: {indictment.get('indictment', '')} The conduct constitutes "
        f"{ctx.sep().join(as_list(indictment.get('charges')))}. We recommend {_describe_sentence(ctx, _recommendation(ctx))}.",
    )


def ask_plea(ctx: Ctx) -> str:
    return ctx.say(
        "被告人，你对起诉书指控的犯罪事实和罪名有无异议？是否认罪认罚？",
        "Defendant, do you contest the facts and charge in the indictment? Do you plead guilty and accept the recommendation?",
    )


def plead(ctx: Ctx) -> str:
    if ctx.persona("disclosure_willingness") == "low":
        return ctx.say(
            "基本事实我认，但有些细节不是起诉书说的那样。",
            "I accept the basic facts, but some details are not as the indictment says.",
        )
    return ctx.say(
        "我对指控的事实和罪名没有异议，自愿认罪认罚。",
        "I do not contest the facts or the charge; I plead guilty and accept the recommendation.",
    )


def question_defendant(ctx: Ctx) -> str:
    if ctx.view.role == "prosecutor":
        return ctx.say(
            "被告人，案发当时的经过是怎样的？你是否清楚自己行为的性质？",
            "Defendant, describe what happened. Did you understand the nature of what you were doing?",
        )
    return ctx.say(
        "被告人，案发后你是否如实供述？事后有没有采取弥补措施？",
        "Defendant, did you confess truthfully after the event, and have you done anything to make amends since?",
    )


def answer_examination(ctx: Ctx) -> str:
    """First to the prosecutor (what happened), then to defence counsel (conduct since)."""
    if ctx.own_turns("examination") == 0:
        info = indictment_of(ctx).get("indictment", "")
        mood = ctx.say("我很后悔。", "I deeply regret it. ") if ctx.persona("emotional_stability") != "high" else ""
        account = (
            split_sentences(info)[:2] if ctx.persona("disclosure_willingness") != "low" else split_sentences(info)[:1]
        )
        return ctx.say(f"{mood}情况是这样的：{''.join(account)}", f"{mood}What happened was: {' '.join(account)}")
    if not ctx.evidence():
        return ctx.say("我到案后如实交代了全部经过。", "I told the police everything once I was caught.")
    return ctx.say(
        "我到案后如实交代了全部经过，事后也尽力弥补，相关材料由辩护人在举证时提交。",
        "I told the police everything, and I have tried to make amends since; my counsel will produce the papers.",
    )


def present_evidence(ctx: Ctx) -> str:
    items = ctx.evidence()
    owner = ctx.say("公诉人", "The prosecution") if ctx.view.side == "prosecution" else ctx.say("辩护人", "The defence")
    return ctx.say(
        f"{owner}出示以下证据：\n{numbered(ctx, evidence_lines(ctx, items))}",
        f"{owner} presents:\n{numbered(ctx, evidence_lines(ctx, items))}",
    )


def comment_evidence(ctx: Ctx) -> str:
    return ctx.say(
        "我同意辩护人的意见，没有补充。",
        "I agree with my counsel and have nothing to add.",
    )


def open_debate(ctx: Ctx) -> str:
    return ctx.say(
        "法庭调查结束，现在进行法庭辩论，先由公诉人发表公诉意见。",
        "The investigation is closed. Argument begins with the prosecution.",
    )


def argue(ctx: Ctx) -> str:
    charges = ctx.sep().join(as_list(indictment_of(ctx).get("charges")))
    if ctx.view.role == "prosecutor":
        return ctx.say(
            f"公诉人认为，在案证据确实充分，被告人构成{charges}，建议判处{_describe_sentence(ctx, _recommendation(ctx))}。",
            f"The evidence is reliable and sufficient: the defendant is guilty of {charges}. We recommend {_describe_sentence(ctx, _recommendation(ctx))}.",
        )
    mitigation = ctx.sep().join(item["name"] for item in ctx.evidence()) or ctx.say("认罪态度", "the guilty plea")
    return ctx.say(
        f"辩护人对罪名不持异议，但请法庭考虑以下从轻情节：{mitigation}。{_circumstances_argued(ctx)}被告人认罪认罚，请求从轻处罚。",
        f"The defence does not contest the charge but asks the court to weigh the mitigation: {mitigation}. "
        f"{_circumstances_argued(ctx)}The defendant pleads guilty; we ask for leniency.",
    )


def _circumstances_argued(ctx: Ctx) -> str:
    """The mitigating circumstances the case file shows (the indictment, the defendant's
    particulars, the defence's own evidence), named as the court counts them: competent
    counsel puts before the court every one the record supports."""
    indictment = indictment_of(ctx)
    shown = f"{indictment.get('indictment', '')}\n{indictment.get('defendant_info', '')}\n" + "\n".join(
        evidence_lines(ctx, ctx.evidence())
    )
    names = sorted(name for name in circumstances_in(shown) if RATES[name] < 0 and name != "guilty_plea")
    if not names:
        return ""
    listed = ctx.sep().join(circumstance_name(name, ctx.zh) for name in names)
    return ctx.say(f"被告人具有{listed}情节，依法可以从轻处罚。", f"The defendant has these circumstances: {listed}. ")


def rebut(ctx: Ctx) -> str:
    if ctx.view.role == "prosecutor":
        return ctx.say(
            "辩护人所提从轻情节已在量刑建议中予以考虑，量刑建议适当。",
            "The mitigation the defence raises is already reflected in the recommendation, which is appropriate.",
        )
    return ctx.say(
        "辩护人坚持从轻处罚的意见，请法庭充分考虑被告人的悔罪表现。",
        "The defence maintains its plea for leniency in view of the defendant's remorse.",
    )


def self_defence(ctx: Ctx) -> str:
    return ctx.say(
        "我同意辩护人的意见，我知道错了。",
        "I agree with my counsel. I know I was wrong.",
    )


def invite_final_statement(ctx: Ctx) -> str:
    return ctx.say(
        "法庭辩论结束。被告人，你还有什么最后陈述？",
        "Argument is closed. Defendant, you may make a final statement.",
    )


def final_statement(ctx: Ctx) -> str:
    return ctx.say(
        "我认罪认罚，真诚悔过，请求法庭从轻处罚，给我一个改过自新的机会。",
        "I admit my guilt and accept the recommended penalty. I sincerely regret it and ask the court for leniency.",
    )


def pronounce_judgment(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    """Decide on the trial as heard (``ruling``): acquit when the prosecution proved nothing,
    else sentence from the recommendation's baseline, moved by the circumstances argued."""
    indictment = indictment_of(ctx)
    charges = ctx.sep().join(as_list(indictment.get("charges")))
    record = criminal_record(ctx)
    decision = criminal_decision(record)
    basis = basis_text(criminal_basis(decision, record), ctx.zh)
    facts = facts_found(indictment.get("indictment", ""))
    title = ctx.say("刑事判决书", "Criminal judgment")
    defendant = ctx.name("defendant")
    reasons = ctx.sep().join(decision.reasons) or ctx.say(
        "辩方未提出有证据支持的量刑情节", "the defence raised no supported circumstance"
    )
    if decision.acquitted:
        verdict = ctx.say(f"被告人{defendant}无罪。", f"The defendant {defendant} is acquitted.")
        reasoning = ctx.say(f"{reasons}。", f"{reasons}.")
    else:
        verdict = ctx.say(
            f"被告人{defendant}犯{charges}，判处{decision.summary}。",
            f"The defendant {defendant} is convicted of {charges} and sentenced to {decision.summary}.",
        )
        reasoning = ctx.say(
            f"被告人{defendant}的行为构成{charges}。关于量刑：{reasons}。",
            f"The defendant's conduct constitutes {charges}. As to sentence: {reasons}.",
        )
    body = ctx.say(
        f"{title}\n\n公诉机关：{ctx.name('prosecution')}\n被告人：{defendant}\n\n经审理查明：{facts}\n\n"
        f"本院认为：{reasoning}\n\n法律依据：{basis}\n\n判决如下：\n{verdict}",
        f"{title}\n\nProsecution: {ctx.name('prosecution')}\nDefendant: {defendant}\n\nFacts found: {facts}\n\n"
        f"Reasoning: {reasoning}\n\nLegal basis: {basis}\n\nThe court orders:\n{verdict}",
    )
    return ctx.say(f"现在宣判：{verdict}", f"Judgment: {verdict}"), ArtifactDraft(title, body)


def facts_found(indictment: str) -> str:
    """What the indictment charges as fact, as the judgment's 经审理查明 restates it: the part
    after 查明 and before the evidence list or the procuratorate's view where the indictment
    has them, without the sentences citing law (the articles the judgment applies are its
    legal basis, not the indictment's)."""
    start = re.search(r"查明[：:]", indictment)
    text = indictment[start.end() :] if start else indictment
    end = re.search(r"认定上述事实的证据|上述事实|本院认为", text)
    text = text[: end.start()] if end and end.start() > 0 else text
    return "".join(sentence for sentence in split_sentences(text) if not CITATION.search(sentence)).strip()


def write_trial_record(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    judgment = ctx.artifact("criminal_judgment")
    lines = [
        f"{turn['speaker']}：{turn['text']}" if ctx.zh else f"{turn['speaker']}: {turn['text']}"
        for turn in ctx.view.dialogue
    ]
    body = ctx.say(
        f"庭审笔录\n\n案由：{ctx.view.case['cause_of_action']}\n被告人：{ctx.name('defendant')}\n\n宣判记录：\n"
        + "\n".join(lines)
        + (f"\n\n判决书：{judgment['title']}" if judgment else ""),
        f"Trial record\n\nCause: {ctx.view.case['cause_of_action']}\nDefendant: {ctx.name('defendant')}\n\nPronouncement:\n"
        + "\n".join(lines)
        + (f"\n\nJudgment: {judgment['title']}" if judgment else ""),
    )
    return ctx.say(
        "庭审笔录已制作完毕，请诉讼参与人阅后签字。",
        "The trial record is complete; participants are asked to read and sign it.",
    ), ArtifactDraft(ctx.say("庭审笔录", "Trial record"), body)
