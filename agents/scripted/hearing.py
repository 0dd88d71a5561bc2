"""The hearing: first- and second-instance civil trials (FIT, SIT), from the opening to
mediation and judgment.

The acts a criminal trial shares with them (``open_court``, ``present_evidence``, ``argue``,
``rebut``, ``final_statement``, ``pronounce_judgment``) are registered once, here, and hand a
criminal trial over to the functions of the same name in ``criminal``.
"""

from __future__ import annotations

import re

from agents.scripted import criminal
from agents.scripted.civil_judgment import civil_orders
from agents.scripted.claims import claim_items
from agents.scripted.context import (
    Ctx,
    as_list,
    client_account,
    client_wants,
    evidence_lines,
    numbered,
)
from agents.scripted.legal_basis import civil_basis
from court.engine.machine import ADVICE
from court.engine.steps import ArtifactDraft
from court.procedures.civil import MEDIATION_ANSWER
from court.procedures.seats import opposite


def _first_second(ctx: Ctx) -> tuple[str, str]:
    first = ctx.opener()
    return first, opposite(first)


def open_court(ctx: Ctx) -> str:
    if ctx.view.procedure == "criminal":
        return criminal.open_court(ctx)
    first, second = _first_second(ctx)
    instance = ctx.say("第一审", "first-instance") if ctx.first_instance_trial else ctx.say("第二审", "second-instance")
    return ctx.say(
        f"现在开庭。本院依法审理{ctx.name(first)}与{ctx.name(second)}{ctx.view.case['cause_of_action']}一案，适用{instance}程序。"
        "当事人享有申请回避、举证、辩论和最后陈述等诉讼权利。请双方确认到庭情况。",
        f"The court is in session to hear {ctx.name(first)} v. {ctx.name(second)}, a "
        f"{ctx.view.case['cause_of_action'].lower()}, under the {instance} procedure. The parties may apply for "
        "recusal, adduce evidence, argue and make final statements. Please confirm appearance.",
    )


def confirm_appearance(ctx: Ctx) -> str:
    return ctx.say(
        "双方当事人及代理人均已到庭，对合议庭组成人员不申请回避。",
        "Both parties and counsel are present; no application for recusal.",
    )


def invite_statement(ctx: Ctx) -> str:
    if ctx.first_instance_trial:
        return ctx.say(
            "现在进行法庭调查。请原告陈述诉讼请求及事实理由，被告随后答辩。",
            "Court investigation begins. The plaintiff states the claims and reasons; the defendant then answers.",
        )
    return ctx.say(
        "现在进行法庭调查。请上诉人陈述上诉请求和理由，被上诉人随后答辩。",
        "Court investigation begins. The appellant states the appeal requests and grounds; the appellee then answers.",
    )


def state_claims(ctx: Ctx) -> str:
    if ctx.view.stage == "SIT":
        appeal = ctx.appeal()
        return ctx.say(
            f"上诉请求：{ctx.sep().join(as_list(appeal.get('appeal_requests')))}。上诉理由：{appeal.get('appeal_reasons', '')}",
            f"Appeal requests: {ctx.sep().join(as_list(appeal.get('appeal_requests')))}. Grounds: {appeal.get('appeal_reasons', '')}",
        )
    return ctx.say(
        f"原告的诉讼请求是：{ctx.sep().join(ctx.claims())}。事实与理由：{ctx.facts()}",
        f"The plaintiff claims: {ctx.sep().join(ctx.claims())}. Facts and reasons: {ctx.facts()}",
    )


def state_defence(ctx: Ctx) -> str:
    if ctx.view.stage == "SIT":
        defenses = ctx.field("appellee_defenses", ctx.view.side, "") or ctx.say(
            "一审判决认定事实清楚，适用法律正确。",
            "The judgment below is correct in fact and law.",
        )
        return ctx.say(
            f"被上诉人答辩如下：{defenses}请求驳回上诉，维持原判。",
            f"The appellee answers: {defenses} We ask the court to dismiss the appeal.",
        ) + _own_appeal(ctx)
    return ctx.say(f"被告答辩如下：{ctx.facts()}", f"The defendant answers: {ctx.facts()}")


def _own_appeal(ctx: Ctx) -> str:
    """The appellee's own requests when it appealed too (both sides did): stated as the
    appellant states them, or the court does not hear them."""
    requests = _cross_requests(ctx) if ctx.view.side != ctx.opener() else []
    if not requests:
        return ""
    return ctx.say(
        f"我方亦提起上诉，上诉请求：{ctx.sep().join(requests)}。",
        f" We appeal too; our requests: {ctx.sep().join(requests)}.",
    )


def _cross_requests(ctx: Ctx) -> list[str]:
    """The appellee's own appeal requests (both sides appealed), none when it only answers."""
    return ctx.appeal_requests(opposite(ctx.opener()))


def invite_evidence(ctx: Ctx) -> str:
    return ctx.say(
        "下面进行举证质证。请双方依次出示证据并发表质证意见。",
        "We turn to evidence. Each side presents its evidence in turn and the other side cross-examines.",
    )


def _evidence_offered(ctx: Ctx, side: str) -> list[dict]:
    items = list(ctx.evidence(side))
    if ctx.view.stage == "SIT":
        items = list(ctx.field("new_evidence", side, []) or [])
    return items


def present_evidence(ctx: Ctx) -> str:
    if ctx.view.procedure == "criminal":
        return criminal.present_evidence(ctx)
    items = _evidence_offered(ctx, ctx.view.side)
    if not items:
        return ctx.say(
            "我方在本审程序中没有新的证据提交，坚持原审已提交的证据。",
            "We have no new evidence at this instance and rely on the evidence already before the court.",
        )
    return ctx.say(
        f"我方出示以下证据：\n{numbered(ctx, evidence_lines(ctx, items))}",
        f"We present the following evidence:\n{numbered(ctx, evidence_lines(ctx, items))}",
    )


def cross_examine(ctx: Ctx) -> str:
    items = _evidence_offered(ctx, ctx.other) if ctx.view.procedure == "civil" else ctx.evidence(ctx.other)
    if not items:
        return ctx.say(
            "对方未提交新证据，我方无质证意见。",
            "The other side offered no new evidence; nothing to cross-examine.",
        )
    names = ctx.sep().join(item["name"] for item in items)
    return ctx.say(
        f"对{names}的真实性无异议，但对其关联性和证明目的有异议，不能证明对方的主张。",
        f"As to {names}: we do not dispute authenticity, but we contest relevance and what they are offered to prove.",
    )


def question_party_first(ctx: Ctx) -> str:
    first, _ = _first_second(ctx)
    if ctx.view.stage == "SIT":
        requests = ctx.appeal_requests() or [ctx.say("上诉请求", "the appeal")]
        return ctx.say(
            f"请{ctx.name(first)}本人回答：你提出“{requests[0]}”，认为一审判决错在哪里？有无新的事实？",
            f'{ctx.name(first)}, in person: you ask that "{requests[0]}". Where did the first-instance judgment go wrong, '
            "and are there new facts?",
        )
    claims = ctx.claims() or [ctx.say("诉讼请求", "the claims")]
    return ctx.say(
        f"请{ctx.name(first)}本人回答：{claims[0]}这一项，具体依据是什么？相关款项或行为发生的时间如何？",
        f'{ctx.name(first)}, in person: on what basis do you make the claim "{claims[0]}", and when did the events happen?',
    )


def question_party_second(ctx: Ctx) -> str:
    _, second = _first_second(ctx)
    return ctx.say(
        f"请{ctx.name(second)}本人回答：对对方主张的基本事实是否认可？有无相反证据？",
        f"{ctx.name(second)}, in person: do you accept the basic facts the other side asserts, and have you contrary evidence?",
    )


def answer_judge(ctx: Ctx) -> str:
    return ctx.say(f"审判长，{client_account(ctx)}", f"Your Honour, {client_account(ctx)}")


def summarise_disputes(ctx: Ctx) -> str:
    claims = ctx.claims()
    if ctx.view.stage == "SIT":
        claims = ctx.appeal_requests() or claims
    focus = numbered(
        ctx,
        [
            ctx.say(
                f"关于“{claim}”是否有事实和法律依据",
                f'whether "{claim}" is supported in fact and law',
            )
            for claim in claims
        ],
    )
    return ctx.say(
        f"法庭调查结束。本庭归纳争议焦点如下：\n{focus}\n请双方围绕争议焦点发表辩论意见。",
        f"The investigation is closed. The points in dispute are:\n{focus}\nCounsel, please argue to these points.",
    )


def argue(ctx: Ctx) -> str:
    if ctx.view.procedure == "criminal":
        return criminal.argue(ctx)
    evidence = ctx.sep().join(item["name"] for item in ctx.evidence()) or ctx.say("在案证据", "the evidence on file")
    if ctx.view.side == ctx.opener():
        return ctx.say(
            f"我方认为，{evidence}相互印证，足以证明我方主张的事实，依照{ctx.rule('civil_first')}，对方未能提出足以反驳的证据，应承担不利后果。",
            f"Our case is that {evidence} corroborate one another and prove the facts we rely on; under {ctx.rule('civil_first')} "
            "the other side has not produced evidence to rebut them and must bear the consequence.",
        )
    return ctx.say(
        f"我方认为，对方的证据不能形成完整证据链。我方提交的{evidence}足以反驳对方主张，请求法庭依法驳回。",
        f"Our case is that the other side's evidence does not form a complete chain, while {evidence} rebut their "
        "assertions; the court should reject them.",
    )


def rebut(ctx: Ctx) -> str:
    if ctx.view.procedure == "criminal":
        return criminal.rebut(ctx)
    return ctx.say(
        "对方的辩论意见回避了争议焦点，且无证据支持，我方坚持前述意见。",
        "The other side's argument sidesteps the points in dispute and lacks evidence; we maintain our submissions.",
    )


def invite_final_statements(ctx: Ctx) -> str:
    return ctx.say(
        "法庭辩论结束。现在由双方当事人作最后陈述。",
        "Argument is closed. Each party may now make a final statement.",
    )


def final_statement(ctx: Ctx) -> str:
    if ctx.view.procedure == "criminal":
        return criminal.final_statement(ctx)
    return ctx.say(
        f"我坚持我方的意见。{client_wants(ctx)}",
        f"I maintain my position. {client_wants(ctx)}",
    )


def propose_mediation(ctx: Ctx) -> str:
    return ctx.say(
        "在判决前，本庭询问双方是否愿意在法院主持下进行调解？",
        "Before judgment, the court asks whether the parties are willing to settle by court mediation.",
    )


DECLINE_ADVICE = re.compile(
    r"不同意|不接受|拒绝|不要调解|decline|reject|refuse|do not (?:settle|accept|agree)", re.IGNORECASE
)
ACCEPT_ADVICE = re.compile(r"同意|接受|accept|settle|agree", re.IGNORECASE)


def _counsel_advice(ctx: Ctx) -> str | None:
    """What the party's own counsel advised about mediation just now (a person advises a
    client played by an agent): ``accept``, ``decline`` or None when counsel said neither."""
    advice = [
        turn["text"]
        for turn in ctx.view.dialogue
        if turn["phase"] == "mediation"
        and turn["act"] == ADVICE[MEDIATION_ANSWER]
        and turn["seat"] == f"{ctx.view.side}_lawyer"
    ]
    if not advice:
        return None
    if DECLINE_ADVICE.search(advice[-1]):
        return "decline"
    return "accept" if ACCEPT_ADVICE.search(advice[-1]) else None


def answer_mediation(ctx: Ctx) -> tuple[str, str]:
    """Accept or decline as counsel advised, else by the party's goals; a party never states
    its bottom line in court."""
    goals = ctx.field("goals", ctx.view.side, {}) or {}
    advice = _counsel_advice(ctx)
    if advice == "accept" or (advice is None and goals.get("accepts_mediation")):
        return ctx.say(
            "我同意调解，愿意在合理范围内协商解决。", "I agree to mediation and will negotiate within reason."
        ), "accept"
    return ctx.say(
        "我不同意调解，请求法院依法判决。", "I do not agree to mediation and ask the court to decide."
    ), "decline"


def write_mediation_record(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    first, second = _first_second(ctx)
    terms = [turn["text"] for turn in ctx.view.dialogue if turn["phase"] == "mediation" and turn["seat"] != "judge"]
    body = ctx.say(
        f"民事调解书\n\n当事人：{ctx.name(first)}、{ctx.name(second)}\n\n经本院主持调解，双方自愿达成如下协议：\n{numbered(ctx, terms)}\n\n"
        "本调解书经双方签收后，即具有法律效力。",
        f"Civil Mediation Agreement\n\nParties: {ctx.name(first)} and {ctx.name(second)}\n\nWith the court's mediation the parties "
        f"voluntarily agree:\n{numbered(ctx, terms)}\n\nThis agreement takes legal effect once signed by both parties.",
    )
    return ctx.say(
        "双方达成调解协议，本庭制作调解书。",
        "The parties have settled; the court records the mediation agreement.",
    ), ArtifactDraft(ctx.say("民事调解书", "Mediation agreement"), body)


def pronounce_judgment(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    if ctx.view.procedure == "criminal":
        return criminal.pronounce_judgment(ctx)
    first, second = _first_second(ctx)
    orders, reason = civil_orders(ctx)
    if ctx.first_instance_trial:
        rule, title = (
            ctx.rule("civil_first"),
            ctx.say("民事判决书（一审）", "Civil judgment (first instance)"),
        )
        requested = ctx.claims()
    else:
        rule, title = (
            ctx.rule("civil_second"),
            ctx.say("民事判决书（二审）", "Civil judgment (second instance)"),
        )
        requested = ctx.appeal_requests() + _cross_requests(ctx)
    rule = civil_basis(ctx, requested, rule)
    found = [ctx.facts(first), ctx.facts(second)]
    evidence = [item["name"] for item in ctx.evidence(first) + ctx.evidence(second)]
    body = ctx.say(
        f"{title}\n\n一、当事人\n{ctx.name(first)}；{ctx.name(second)}\n\n二、诉讼请求\n{numbered(ctx, claim_items(requested))}\n\n"
        f"三、本院查明\n经庭审举证质证，双方提交的{ctx.sep().join(evidence)}已当庭出示。{found[0]}\n\n"
        f"四、本院认为\n{reason}\n\n五、法律依据\n{rule}\n\n判决如下：\n{numbered(ctx, orders)}\n\n案件受理费按各方胜诉比例负担。",
        f"{title}\n\n1. Parties\n{ctx.name(first)}; {ctx.name(second)}\n\n2. Claims\n{numbered(ctx, claim_items(requested))}\n\n"
        f"3. Facts found\nThe evidence adduced ({ctx.sep().join(evidence)}) was examined in court. {found[0]}\n\n"
        f"4. Reasoning\n{reason}\n\n5. Legal basis\n{rule}\n\nThe court orders:\n{numbered(ctx, orders)}\n\n"
        "Court fees are borne in proportion to each side's success.",
    )
    spoken = ctx.say(f"现在宣判：{ctx.sep().join(orders)}。", f"Judgment: {ctx.sep().join(orders)}.")
    return spoken, ArtifactDraft(title, body)
