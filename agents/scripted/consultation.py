"""The legal consultation (LC): the client tells the story, the lawyer asks, advises and
writes the consultation record."""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.scripted.context import (
    Ctx,
    client_account,
    client_wants,
    numbered,
    retrieved_statute,
    split_sentences,
)
from agents.scripted.record import COSTS, shared_terms
from agents.scripted.voice import in_own_voice
from court.agenda import AGENDA
from court.engine.steps import ArtifactDraft
from court.engine.withheld import cut, undisclosed

CLAIMING = re.compile(
    r"claim|compensat|entitled|recover|what can (?:i|we) (?:get|ask)|能要|可以要|赔偿|要求|主张|能不能要", re.IGNORECASE
)
"""A question about what the client can ask for: the answer lists the claims."""


def describe_dispute(ctx: Ctx) -> str:
    return ctx.say(
        f"律师您好，我是{ctx.name(ctx.view.side)}，想咨询一起{ctx.view.case['cause_of_action']}。{client_account(ctx)}",
        f"Hello, I'm {ctx.name(ctx.view.side)} and I need advice on a {ctx.view.case['cause_of_action'].lower()} matter. "
        f"{client_account(ctx)}",
    )


FOLLOW_UPS = (
    (
        "请先说一下您和对方的基本情况：双方的姓名、住址和联系电话，对方有没有法定代表人？",
        "First, your name, address and phone number, and the other side's: who is the other party, and do they "
        "have a representative?",
    ),
    (
        "请讲讲事情的经过：双方有没有书面约定，事情是什么时候发生的、金额多少？哪些事实有争议，可能会有什么抗辩？",
        "Now tell me what happened: is there a written agreement, when was it, and for what amount? Which facts "
        "are in dispute, and what defence do you expect?",
    ),
    (
        "您手里现有哪些证据，比如合同、转账记录、收据或证人？您希望通过诉讼达到什么结果？",
        "What evidence do you have, such as a contract, a receipt, a record or a witness? And what outcome do you "
        "want from litigation?",
    ),
)
"""The lawyer's questions after the client's account, one at a time, through MASER's legal
agenda (Appendix A.2; ``court.agenda``): the parties' particulars, the facts and the points in
dispute, the evidence and the claims."""


@dataclass(frozen=True)
class Closing:
    """A turn that closes its phase: the lawyer has no more questions for the client."""

    text: str


def ask_follow_up(ctx: Ctx) -> str | Closing:
    """The next of the lawyer's questions, each answered before the next is put; once all are
    asked, the lawyer closes the interview and invites the client's own questions."""
    asked = ctx.own_turns("follow_up")
    if asked < len(FOLLOW_UPS):
        return ctx.say(*FOLLOW_UPS[asked])
    return Closing(
        ctx.say(
            "好的，我需要了解的基本清楚了。您有什么想问我的吗？",
            "Thank you, that is all for now. What would you like to ask me?",
        )
    )


def answer_follow_up(ctx: Ctx) -> str:
    """The client answers what the lawyer just asked, item by item of the agenda it touches,
    from the client's own file (what they withhold stays out until asked: ``with_disclosure``);
    in the first answer the client also says what they want. A question touching no item
    gets what the client has and wants."""
    question = ctx.view.dialogue[-1]["text"] if ctx.view.dialogue else ""
    touched = [item.key for item in AGENDA if item.asked_in(question)]
    answers = {
        "client": _particulars,
        "defendant": _other_side,
        "facts": _dates_and_amounts,
        "dispute": _disputed,
        "evidence": _evidence_held,
        "claims": client_wants,
    }
    if not touched:
        touched = ["evidence", "claims"]
    elif "claims" not in touched and not ctx.own_turns("follow_up"):
        touched.append("claims")
    parts = [answers[key](ctx).strip() for key in touched]
    return ("" if ctx.zh else " ").join(_ended(ctx, part) for part in parts if part)


def _ended(ctx: Ctx, sentence: str) -> str:
    return sentence if sentence[-1] in "。！？.!?" else sentence + ctx.say("。", ".")


def _particulars(ctx: Ctx) -> str:
    return _party(ctx, ctx.view.side, "我叫{name}，{details}。", "My name is {name}; {details}.")


def _other_side(ctx: Ctx) -> str:
    return _party(ctx, ctx.other, "对方是{name}，{details}。", "The other side is {name}; {details}.")


def _party(ctx: Ctx, side: str, zh: str, en: str) -> str:
    party = next((party for party in ctx.view.case.get("parties") or [] if party["side"] == side), {})
    details = party.get("details") or ctx.say("其他情况我回头再告诉您", "I can give you the rest later")
    return ctx.say(zh, en).format(name=ctx.name(side), details=details.rstrip("。."))


def _dates_and_amounts(ctx: Ctx) -> str:
    """The sentences of the client's own account that give a date or an amount (all of it when
    none does), less what the client withholds."""
    held = [item.detail for item in undisclosed(ctx.view.persona, _told(ctx))]
    sentences = split_sentences(cut(ctx.facts(), held))
    dated = [sentence for sentence in sentences if re.search(r"\d|[一二三四五六七八九十百千万]+元", sentence)]
    told = ("" if ctx.zh else " ").join(dated or sentences)
    voiced = in_own_voice(
        told, side=ctx.view.side, parties=ctx.view.case.get("parties") or [], language=ctx.view.language
    )
    return ctx.say(f"时间和金额是这样的：{voiced}", f"The dates and amounts: {voiced}") if voiced else ""


def _told(ctx: Ctx) -> list[str]:
    return [turn["text"] for turn in ctx.view.dialogue if turn["seat"] == ctx.view.seat]


def _disputed(ctx: Ctx) -> str:
    goal = (ctx.field("goals", ctx.view.side, {}) or {}).get("goal")
    if not goal:
        return ctx.say("对方到底不认哪些，我也说不准。", "I can't say exactly what they will deny.")
    return ctx.say(
        f"我们争的就是这一点：{goal.rstrip('。')}，对方到现在都不认。",
        f"What we are at odds over: {goal.rstrip('.')}. They have not accepted it so far.",
    )


def _evidence_held(ctx: Ctx) -> str:
    evidence = [item["name"] for item in ctx.evidence()]
    if ctx.persona("disclosure_willingness") == "low":
        evidence = evidence[:1]
    listed = ctx.sep().join(evidence) or ctx.say("暂时没有整理", "nothing organised yet")
    return ctx.say(f"我手里有：{listed}。", f"What I have is: {listed}.")


def ask_question(ctx: Ctx) -> str:
    questions = ctx.field("consultation_questions", ctx.view.side, []) or []
    index = ctx.own_turns("questions")
    if not questions:
        return ctx.say(
            "我还想问，这个案子我胜诉的把握有多大？",
            "I also want to ask: how good are my chances?",
        )
    return questions[min(index, len(questions) - 1)]


def _retrieved_rule(ctx: Ctx, query: str) -> str:
    hit = retrieved_statute(ctx, query) if ctx.zh else None
    if hit is None:
        return ctx.rule("civil_first")
    first_sentence = (split_sentences(hit.text) or [hit.text])[0].rstrip("。")
    return f"{hit.citation}规定，{first_sentence}"


def answer_question(ctx: Ctx) -> str:
    """An answer to the question just asked: the relationship, then what of the client's own
    facts, claims and evidence bears on that question (by shared content terms), the rule, the
    risk and what to do. Two questions never get the same paragraph: the facts and items that
    bear on each differ, and failing that the answer names the question it answers."""
    question = ctx.view.dialogue[-1]["text"] if ctx.view.dialogue else ""
    answer = ("" if ctx.zh else " ").join(
        part for part in (_relationship(ctx, question), _bearing(ctx, question), _rule_and_risk(ctx)) if part
    )
    earlier = {turn["text"] for turn in ctx.view.dialogue if turn["seat"] == ctx.view.seat}
    if answer in earlier:
        answer = ctx.say(f"您问的是“{question}”。", f'You asked: "{question}" ') + answer
    return answer


def _relationship(ctx: Ctx, question: str) -> str:
    cause = ctx.view.case["cause_of_action"]
    return ctx.say(
        f"从法律关系看，本案属于{cause}。相关规定：{_retrieved_rule(ctx, question)}。",
        f"The relationship here is a {cause.lower()}.",
    )


def _bearing(ctx: Ctx, question: str) -> str:
    """What of the client's case bears on ``question``: the fact it turns on (told back to the
    client as "you"), the claims it asks about (every claim, when it asks what can be claimed;
    before any pleading, what the evidence can establish) and the evidence for it."""
    language = ctx.view.language
    parts = []
    fact = _closest(question, split_sentences(ctx.facts()), language)
    if fact:
        told = in_own_voice(
            fact, side=ctx.view.side, parties=ctx.view.case.get("parties") or [], language=language, person="second"
        )
        parts.append(
            ctx.say(f"您问的这一点，关键在于：{told.rstrip('。')}。", f"What your question turns on is this: {told}")
        )
    claims = [claim for claim in ctx.claims() if not COSTS.search(claim)]
    proves = [item["purpose"] for item in ctx.evidence() if item.get("purpose")]
    asked = [claim for claim in claims or proves if shared_terms(claim, question, language)]
    listed = ctx.sep().join(asked or claims or proves)
    if listed and (asked or CLAIMING.search(question)):
        parts.append(
            ctx.say(f"就此可以向法院主张：{listed}。", f"On this we can ask the court for: {listed}.")
            if claims
            else ctx.say(f"您的证据可以证明：{listed}。", f"What your evidence can establish: {listed}.")
        )
    evidence = [item["name"] for item in ctx.evidence()]
    proving = [name for name in evidence if shared_terms(name, question, language)] or evidence
    parts.append(
        ctx.say(
            f"证明这一点可用的证据有：{ctx.sep().join(proving) or '尚需收集'}。",
            f"The evidence for it: {ctx.sep().join(proving) or 'still to be collected'}.",
        )
    )
    return ("" if ctx.zh else " ").join(parts)


def _rule_and_risk(ctx: Ctx) -> str:
    return ctx.say(
        f"按照“谁主张，谁举证”的规则（{ctx.rule('civil_first')}），您需要对自己的主张提供证据。"
        "风险在于证据链是否完整、对方是否提出抗辩或时效问题。建议您尽快整理原件、保留沟通记录，我们再确定具体请求。",
        f"Under the rule that whoever asserts must prove ({ctx.rule('civil_first')}), each claim needs its evidence. "
        "The risk lies in gaps in the evidence chain and any defence or limitation point the other side raises. "
        "Keep the originals and your messages; then we settle the claims.",
    )


def _closest(question: str, sentences: list[str], language: str) -> str:
    """The sentence sharing most content terms with ``question`` (the last of equals: a file
    tells the events first and what they mean for the case after), if any does."""
    scored = [(shared_terms(sentence, question, language), index, sentence) for index, sentence in enumerate(sentences)]
    best = max(scored, default=(0, 0, ""))
    return best[2] if best[0] else ""


def summarise_advice(ctx: Ctx) -> str:
    return ctx.say(
        "总结一下：您的主要事实基本清楚，下一步我会根据现有证据起草文书，请您补齐原件并保持通讯畅通。",
        "To sum up: the core facts are clear enough. Next I will draft the pleading from the evidence you have; "
        "please bring the originals and stay reachable.",
    )


def acknowledge(ctx: Ctx) -> str:
    return ctx.say(
        "明白了，我回去就把材料整理好交给您。",
        "Understood. I'll gather the documents and bring them to you.",
    )


def write_consultation_record(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    asked = [
        turn["text"] for turn in ctx.view.dialogue if turn["phase"] == "questions" and turn["seat"] != ctx.view.seat
    ]
    answered = [
        turn["text"] for turn in ctx.view.dialogue if turn["phase"] == "questions" and turn["seat"] == ctx.view.seat
    ]
    client = ctx.name(ctx.view.side)
    body = ctx.say(
        f"咨询人：{client}\n案由：{ctx.view.case['cause_of_action']}\n\n一、咨询事项\n{numbered(ctx, asked)}\n\n"
        f"二、律师意见\n{numbered(ctx, answered)}\n\n三、后续安排\n整理证据原件，起草诉讼文书。",
        f"Client: {client}\nCause of action: {ctx.view.case['cause_of_action']}\n\n1. Questions raised\n"
        f"{numbered(ctx, asked)}\n\n2. Lawyer's advice\n{numbered(ctx, answered)}\n\n3. Next steps\n"
        "Collect original evidence; draft the pleading.",
    )
    title = ctx.say("法律咨询记录", "Consultation record")
    return ctx.say("咨询记录已整理完毕。", "The consultation record is complete."), ArtifactDraft(title, body)
