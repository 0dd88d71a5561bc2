"""The offline scripted backend: deterministic agents grounded in the case.

Every utterance is composed from the speaking seat's view only (what ``build_view`` lets it
see), in the case's language, following the procedural act the engine asks for. It is the
embedded default: demos without an API key, the test workhorse, and a procedural baseline
against which LLM agents are compared. The same view and case always give the same words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from trials.agents.base import MemoryRequest, TurnRequest, estimate_tokens
from trials.agents.memory import MemoryOp
from trials.agents.visibility import SeatView
from trials.engine.steps import ArtifactDraft, MemoryUpdate, Reply
from trials.procedures.seats import COURT, opposite
from trials.tools.statutes import StatuteHit, statute_search

GENERAL_RULES = {
    "civil_first": (
        "《中华人民共和国民事诉讼法》第六十七条",
        "Civil Procedure Law of the People's Republic of China, Article 67",
    ),
    "civil_second": (
        "《中华人民共和国民事诉讼法》第一百七十七条",
        "Civil Procedure Law of the People's Republic of China, Article 177",
    ),
    "criminal": (
        "《中华人民共和国刑事诉讼法》第二百条",
        "Criminal Procedure Law of the People's Republic of China, Article 200",
    ),
}


@dataclass(frozen=True)
class Ctx:
    """What an act template reads: the view plus a few derived facts about it."""

    view: SeatView
    act: str

    @property
    def zh(self) -> bool:
        return self.view.language == "zh"

    def say(self, zh: str, en: str) -> str:
        return zh if self.zh else en

    def sep(self) -> str:
        return "；" if self.zh else "; "

    @property
    def other(self) -> str:
        """The opposing side of a party seat."""
        if self.view.procedure == "criminal":
            return "defendant" if self.view.side == "prosecution" else "prosecution"
        return opposite(self.view.side) if self.view.side != COURT else "defendant"

    def name(self, side: str) -> str:
        for party in self.view.case["parties"]:
            if party["side"] == side:
                return party["name"]
        return side

    def field(self, name: str, owner: str = "shared", default=None):
        return self.view.fields.get(name, {}).get(owner, default)

    def claims(self) -> list[str]:
        return _as_list(self.field("claims", default=[]))

    def facts(self, side: str | None = None) -> str:
        return self.field("facts", side or self.view.side, "") or ""

    def evidence(self, side: str | None = None) -> list[dict]:
        return self.field("evidence", side or self.view.side, []) or []

    def artifact(self, *kinds: str) -> dict | None:
        matches = [item for item in self.view.artifacts if item["kind"] in kinds]
        return matches[-1] if matches else None

    def persona(self, dimension: str) -> str:
        return (self.view.persona or {}).get(dimension, "medium")

    def own_turns(self, phase: str) -> int:
        return sum(1 for turn in self.view.dialogue if turn["seat"] == self.view.seat and turn["phase"] == phase)

    @property
    def first_instance_trial(self) -> bool:
        return self.view.stage == "FIT"

    def opener(self) -> str:
        """The side that opens a trial: plaintiff at FIT, appellant at SIT."""
        return self.view.appellant_side if self.view.stage == "SIT" and self.view.appellant_side else "plaintiff"

    def rule(self, key: str) -> str:
        zh, en = GENERAL_RULES[key]
        return self.say(zh, en)


def _as_list(value) -> list[str]:
    if not value:
        return []
    return [value] if isinstance(value, str) else [str(item) for item in value]


def _numbered(ctx: Ctx, items: list[str]) -> str:
    if not items:
        return ctx.say("（无）", "(none)")
    return "\n".join(f"{index}. {item}" for index, item in enumerate(items, 1))


def _evidence_lines(ctx: Ctx, items: list[dict]) -> list[str]:
    return [
        ctx.say(
            f"{item['name']}，证明{item['purpose']}",
            f"{item['name']}, to prove {item['purpose']}",
        )
        for item in items
    ]


def _sentences(text: str) -> list[str]:
    pieces, current = [], ""
    for char in text:
        current += char
        if char in "。！？.!?":
            pieces.append(current.strip())
            current = ""
    if current.strip():
        pieces.append(current.strip())
    return pieces


def _client_account(ctx: Ctx) -> str:
    """The client's own facts, told as the LCPF persona would tell them (Table 6)."""
    sentences = _sentences(ctx.facts())
    if ctx.persona("disclosure_willingness") == "low":
        sentences = sentences[: max(1, len(sentences) // 2)]
    if ctx.persona("narrative_proficiency") == "low":
        sentences = sentences[1:] + sentences[:1]
    body = ("" if ctx.zh else " ").join(sentences)
    mood = {
        "low": ctx.say(
            "我现在心里特别乱，一想到这件事就睡不着。",
            "I'm honestly very upset and can't sleep over this. ",
        ),
        "medium": ctx.say("这件事让我压力挺大的。", "This has been stressful for me. "),
        "high": "",
    }[ctx.persona("emotional_stability")]
    order = (
        ctx.say("我按时间顺序说一下：", "Let me go through it in order: ")
        if ctx.persona("narrative_proficiency") == "high"
        else ""
    )
    return f"{mood}{order}{body}"


def _client_wants(ctx: Ctx) -> str:
    goals = ctx.field("goals", ctx.view.side, {}) or {}
    goal = goals.get("goal") or ctx.say("请求法院支持我方的意见", "that the court upholds my side's position")
    if ctx.persona("legal_literacy") == "low":
        return ctx.say(f"说白了，我就是想讨个说法：{goal}", f"Put simply, I just want this put right: {goal}")
    return ctx.say(f"我的诉求是：{goal}", f"What I am seeking is: {goal}")


# --- consultation (LC) -------------------------------------------------------------


def describe_dispute(ctx: Ctx) -> str:
    return ctx.say(
        f"律师您好，我是{ctx.name(ctx.view.side)}，想咨询一起{ctx.view.case['cause_of_action']}。{_client_account(ctx)}",
        f"Hello, I'm {ctx.name(ctx.view.side)} and I need advice on a {ctx.view.case['cause_of_action'].lower()} matter. "
        f"{_client_account(ctx)}",
    )


def ask_follow_up(ctx: Ctx) -> str:
    return ctx.say(
        "谢谢您的介绍。为了准确判断，请您补充三点：一是双方之间有没有书面约定；二是您手里现有哪些证据；三是您希望通过诉讼达到什么结果。",
        "Thank you. To assess this properly I need three things: whether there is any written agreement between you, "
        "what evidence you have in hand, and what outcome you want from litigation.",
    )


def answer_follow_up(ctx: Ctx) -> str:
    evidence = [item["name"] for item in ctx.evidence()]
    if ctx.persona("disclosure_willingness") == "low":
        evidence = evidence[:1]
    listed = ctx.sep().join(evidence) or ctx.say("暂时没有整理", "nothing organised yet")
    return ctx.say(
        f"我手里有：{listed}。{_client_wants(ctx)}",
        f"What I have is: {listed}. {_client_wants(ctx)}",
    )


def ask_question(ctx: Ctx) -> str:
    questions = ctx.field("consultation_questions", ctx.view.side, []) or []
    index = ctx.own_turns("questions")
    if not questions:
        return ctx.say(
            "我还想问，这个案子我胜诉的把握有多大？",
            "I also want to ask: how good are my chances?",
        )
    return questions[min(index, len(questions) - 1)]


def _retrieved_statute(ctx: Ctx, query: str) -> StatuteHit | None:
    """The best substantive article for ``query`` from the statute corpus (Chinese cases only:
    the corpus is Chinese). Numbers are dropped from the query and procedural laws skipped,
    since the general procedural rules are cited anyway."""
    if not ctx.zh:
        return None
    words = re.sub(
        r"[0-9０-９.,，。；;：:（）()年月日元%？?！!“”]+", " ", f"{ctx.view.case['cause_of_action']} {query}"
    )
    hits = [hit for hit in statute_search(words, top_k=5) if "诉讼" not in hit.law and "程序" not in hit.law]
    return hits[0] if hits else None


def _retrieved_rule(ctx: Ctx, query: str) -> str:
    hit = _retrieved_statute(ctx, query)
    if hit is None:
        return ctx.rule("civil_first")
    first_sentence = (_sentences(hit.text) or [hit.text])[0].rstrip("。")
    return f"{hit.citation}规定，{first_sentence}"


def answer_question(ctx: Ctx) -> str:
    evidence = [item["name"] for item in ctx.evidence()]
    cause = ctx.view.case["cause_of_action"]
    question = ctx.view.dialogue[-1]["text"] if ctx.view.dialogue else ""
    return ctx.say(
        f"从法律关系看，本案属于{cause}。相关规定：{_retrieved_rule(ctx, question)}。"
        f"同时，按照“谁主张，谁举证”的规则（{ctx.rule('civil_first')}），"
        f"您需要对自己的主张提供证据；目前可用的证据有：{ctx.sep().join(evidence) or '尚需收集'}。"
        "风险在于证据链是否完整、对方是否提出抗辩或时效问题。建议您尽快整理原件、保留沟通记录，我们再确定具体请求。",
        f"The relationship here is a {cause.lower()}. Under the rule that whoever asserts must prove "
        f"({ctx.rule('civil_first')}), you must support each claim with evidence; what we can use now is: "
        f"{ctx.sep().join(evidence) or 'still to be collected'}. The risk lies in gaps in the evidence chain and any "
        "defence or limitation point the other side raises. Keep the originals and your messages; then we settle the claims.",
    )


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
        f"咨询人：{client}\n案由：{ctx.view.case['cause_of_action']}\n\n一、咨询事项\n{_numbered(ctx, asked)}\n\n"
        f"二、律师意见\n{_numbered(ctx, answered)}\n\n三、后续安排\n整理证据原件，起草诉讼文书。",
        f"Client: {client}\nCause of action: {ctx.view.case['cause_of_action']}\n\n1. Questions raised\n"
        f"{_numbered(ctx, asked)}\n\n2. Lawyer's advice\n{_numbered(ctx, answered)}\n\n3. Next steps\n"
        "Collect original evidence; draft the pleading.",
    )
    title = ctx.say("法律咨询记录", "Consultation record")
    return ctx.say("咨询记录已整理完毕。", "The consultation record is complete."), ArtifactDraft(title, body)


# --- drafting (CD/DD, AD/AR) ------------------------------------------------------


def request_materials(ctx: Ctx) -> str:
    return ctx.say(
        "接下来要起草正式文书。请您把证据原件和关键时间节点再核对一遍，有没有需要补充或更正的？",
        "We now draft the formal pleading. Please check the original evidence and the key dates again: "
        "anything to add or correct?",
    )


def provide_materials(ctx: Ctx) -> str:
    items = [item["name"] for item in ctx.evidence()]
    new = [item["name"] for item in ctx.field("new_evidence", ctx.view.side, []) or []]
    extra = (
        ctx.say(
            f"另外还有新证据：{ctx.sep().join(new)}。",
            f"There is also new evidence: {ctx.sep().join(new)}. ",
        )
        if new
        else ""
    )
    return ctx.say(
        f"我核对过了，材料包括：{ctx.sep().join(items) or '（暂无）'}。{extra}时间节点和之前说的一致。",
        f"I checked: the materials are {ctx.sep().join(items) or '(none yet)'}. {extra}The dates are as I told you.",
    )


def confirm_position(ctx: Ctx) -> str:
    if ctx.view.unit == "AD_AR":
        requests = _as_list((ctx.field("appeal") or {}).get("appeal_requests"))
        appellant = ctx.view.side == ctx.view.appellant_side
        if appellant:
            return ctx.say(
                f"根据一审判决和您的意见，上诉请求拟定为：{ctx.sep().join(requests)}。您确认吗？",
                f"Based on the first-instance judgment and your instructions, the appeal requests will be: "
                f"{ctx.sep().join(requests)}. Do you confirm?",
            )
        return ctx.say(
            "对方的上诉理由我已看过，我们的答辩思路是一审认定事实清楚、适用法律正确，请求驳回上诉。您同意吗？",
            "I have read the appeal. Our response is that the first-instance court found the facts correctly and "
            "applied the law properly, so the appeal should be dismissed. Do you agree?",
        )
    if ctx.view.side == "plaintiff":
        return ctx.say(
            f"诉讼请求拟定为：{ctx.sep().join(ctx.claims())}。您确认吗？",
            f"The claims will be: {ctx.sep().join(ctx.claims())}. Do you confirm?",
        )
    return ctx.say(
        "针对原告的诉讼请求，我们的答辩要点是：" + (ctx.facts()[:120] or "原告主张缺乏依据") + "。您同意吗？",
        "Against the plaintiff's claims our key defence points are: "
        + (ctx.facts()[:200] or "the claims lack basis")
        + ". Agreed?",
    )


def approve_position(ctx: Ctx) -> str:
    if ctx.persona("emotional_stability") == "low":
        return ctx.say(
            "行，就按您说的办，我只希望尽快有个结果。",
            "Fine, do it your way. I just want this over quickly.",
        )
    return ctx.say("我确认，就按这个方案起草。", "Confirmed. Please draft on that basis.")


# Pleadings do not list the evidence: the list is filed separately and exchanged in the
# evidence phase of the trial, the point from which the opponent may see it (Table 5).
EVIDENCE_SEPARATELY_ZH = "证据目录另行提交，于庭审举证质证时交换。"
EVIDENCE_SEPARATELY_EN = "The evidence list is filed separately and exchanged at the evidence phase of the hearing."


def _court_name(ctx: Ctx) -> str:
    return ctx.view.case.get("court_name") or ctx.say("人民法院", "the People's Court")


def draft_complaint(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    body = ctx.say(
        f"民事起诉状\n\n原告：{ctx.name('plaintiff')}\n被告：{ctx.name('defendant')}\n\n诉讼请求：\n{_numbered(ctx, ctx.claims())}\n\n"
        f"事实与理由：\n{ctx.facts()}\n\n{EVIDENCE_SEPARATELY_ZH}\n\n此致\n{_court_name(ctx)}",
        f"Civil Complaint\n\nPlaintiff: {ctx.name('plaintiff')}\nDefendant: {ctx.name('defendant')}\n\nClaims:\n"
        f"{_numbered(ctx, ctx.claims())}\n\nFacts and reasons:\n{ctx.facts()}\n\n{EVIDENCE_SEPARATELY_EN}\n\n"
        f"To: {_court_name(ctx)}",
    )
    return ctx.say("起诉状已起草完成。", "The complaint is drafted."), ArtifactDraft(
        ctx.say("民事起诉状", "Civil complaint"), body
    )


def draft_defence(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    body = ctx.say(
        f"民事答辩状\n\n答辩人：{ctx.name('defendant')}\n被答辩人：{ctx.name('plaintiff')}\n\n针对原告的诉讼请求：\n"
        f"{_numbered(ctx, ctx.claims())}\n\n答辩意见：\n{ctx.facts()}\n\n{EVIDENCE_SEPARATELY_ZH}\n\n此致\n{_court_name(ctx)}",
        f"Statement of Defence\n\nRespondent: {ctx.name('defendant')}\nClaimant: {ctx.name('plaintiff')}\n\n"
        f"In answer to the claims:\n{_numbered(ctx, ctx.claims())}\n\nDefence:\n{ctx.facts()}\n\n{EVIDENCE_SEPARATELY_EN}\n\n"
        f"To: {_court_name(ctx)}",
    )
    return ctx.say("答辩状已起草完成。", "The defence is drafted."), ArtifactDraft(
        ctx.say("民事答辩状", "Statement of defence"), body
    )


def review_judgment(ctx: Ctx) -> str:
    judgment = ctx.artifact("first_instance_judgment")
    holding = _disposition_of(judgment["text"]) if judgment else ""
    return ctx.say(
        f"一审判决主文是：{holding}。我们需要据此确定二审的立场，请您提供一审后新获得的材料。",
        f"The first-instance judgment held: {holding}. We must set our position for the appeal; "
        "please give me any material obtained since.",
    )


def draft_appeal(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    appeal = ctx.field("appeal") or {}
    new = ctx.field("new_evidence", ctx.view.side, []) or []
    appellee = opposite(ctx.view.side)
    body = ctx.say(
        f"民事上诉状\n\n上诉人（原审{_side_zh(ctx.view.side)}）：{ctx.name(ctx.view.side)}\n"
        f"被上诉人（原审{_side_zh(appellee)}）：{ctx.name(appellee)}\n\n上诉请求：\n"
        f"{_numbered(ctx, _as_list(appeal.get('appeal_requests')))}\n\n上诉理由：\n{appeal.get('appeal_reasons', '')}\n\n"
        f"新证据：\n{_numbered(ctx, _evidence_lines(ctx, new))}\n\n此致\n二审人民法院",
        f"Notice of Appeal\n\nAppellant (original {ctx.view.side}): {ctx.name(ctx.view.side)}\n"
        f"Appellee (original {appellee}): {ctx.name(appellee)}\n\nAppeal requests:\n"
        f"{_numbered(ctx, _as_list(appeal.get('appeal_requests')))}\n\nGrounds of appeal:\n{appeal.get('appeal_reasons', '')}\n\n"
        f"New evidence:\n{_numbered(ctx, _evidence_lines(ctx, new))}\n\nTo: the appellate court",
    )
    return ctx.say("上诉状已起草完成。", "The notice of appeal is drafted."), ArtifactDraft(
        ctx.say("民事上诉状", "Notice of appeal"), body
    )


def draft_appeal_response(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    appeal = ctx.field("appeal") or {}
    defenses = ctx.field("appellee_defenses", ctx.view.side, "") or ""
    body = ctx.say(
        f"二审答辩状\n\n答辩人（被上诉人）：{ctx.name(ctx.view.side)}\n上诉人：{ctx.name(opposite(ctx.view.side))}\n\n"
        f"针对上诉请求：\n{_numbered(ctx, _as_list(appeal.get('appeal_requests')))}\n\n答辩意见：\n{defenses}\n\n"
        "请求：驳回上诉，维持原判。",
        f"Response to Appeal\n\nRespondent (appellee): {ctx.name(ctx.view.side)}\nAppellant: "
        f"{ctx.name(opposite(ctx.view.side))}\n\nIn answer to the appeal requests:\n"
        f"{_numbered(ctx, _as_list(appeal.get('appeal_requests')))}\n\nResponse:\n{defenses}\n\n"
        "Relief sought: dismiss the appeal and affirm the judgment.",
    )
    return ctx.say("二审答辩状已起草完成。", "The response to the appeal is drafted."), ArtifactDraft(
        ctx.say("二审答辩状", "Response to appeal"), body
    )


def _side_zh(side: str) -> str:
    return {"plaintiff": "原告", "defendant": "被告"}[side]


# --- civil trials (FIT, SIT) -------------------------------------------------------


def _first_second(ctx: Ctx) -> tuple[str, str]:
    first = ctx.opener()
    return first, opposite(first)


def open_court(ctx: Ctx) -> str:
    if ctx.view.procedure == "criminal":
        return ctx.say(
            f"现在开庭。{_court_name(ctx)}依法公开审理{ctx.name('prosecution')}指控被告人{ctx.name('defendant')}"
            f"{ctx.view.case['cause_of_action']}一案。",
            f"The court is now in session. {_court_name(ctx)} hears in public the case in which "
            f"{ctx.name('prosecution')} charges the defendant {ctx.name('defendant')} with {ctx.view.case['cause_of_action'].lower()}.",
        )
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
        appeal = ctx.field("appeal") or {}
        return ctx.say(
            f"上诉请求：{ctx.sep().join(_as_list(appeal.get('appeal_requests')))}。上诉理由：{appeal.get('appeal_reasons', '')}",
            f"Appeal requests: {ctx.sep().join(_as_list(appeal.get('appeal_requests')))}. Grounds: {appeal.get('appeal_reasons', '')}",
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
        )
    return ctx.say(f"被告答辩如下：{ctx.facts()}", f"The defendant answers: {ctx.facts()}")


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
        items = ctx.evidence()
        owner = (
            ctx.say("公诉人", "The prosecution") if ctx.view.side == "prosecution" else ctx.say("辩护人", "The defence")
        )
        return ctx.say(
            f"{owner}出示以下证据：\n{_numbered(ctx, _evidence_lines(ctx, items))}",
            f"{owner} presents:\n{_numbered(ctx, _evidence_lines(ctx, items))}",
        )
    items = _evidence_offered(ctx, ctx.view.side)
    if not items:
        return ctx.say(
            "我方在本审程序中没有新的证据提交，坚持原审已提交的证据。",
            "We have no new evidence at this instance and rely on the evidence already before the court.",
        )
    return ctx.say(
        f"我方出示以下证据：\n{_numbered(ctx, _evidence_lines(ctx, items))}",
        f"We present the following evidence:\n{_numbered(ctx, _evidence_lines(ctx, items))}",
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
        requests = _as_list((ctx.field("appeal") or {}).get("appeal_requests")) or [ctx.say("上诉请求", "the appeal")]
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
    return ctx.say(f"审判长，{_client_account(ctx)}", f"Your Honour, {_client_account(ctx)}")


def summarise_disputes(ctx: Ctx) -> str:
    claims = ctx.claims()
    if ctx.view.stage == "SIT":
        claims = _as_list((ctx.field("appeal") or {}).get("appeal_requests")) or claims
    focus = _numbered(
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
        return _criminal_argue(ctx)
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
        return _criminal_rebut(ctx)
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
        return ctx.say(
            "我认罪认罚，真诚悔过，请求法庭从轻处罚，给我一个改过自新的机会。",
            "I admit my guilt and accept the recommended penalty. I sincerely regret it and ask the court for leniency.",
        )
    return ctx.say(
        f"我坚持我方的意见。{_client_wants(ctx)}",
        f"I maintain my position. {_client_wants(ctx)}",
    )


def propose_mediation(ctx: Ctx) -> str:
    return ctx.say(
        "在判决前，本庭询问双方是否愿意在法院主持下进行调解？",
        "Before judgment, the court asks whether the parties are willing to settle by court mediation.",
    )


def answer_mediation(ctx: Ctx) -> tuple[str, str]:
    """Accept or decline by the party's goals; a party never states its bottom line in court."""
    goals = ctx.field("goals", ctx.view.side, {}) or {}
    if goals.get("accepts_mediation"):
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
        f"民事调解书\n\n当事人：{ctx.name(first)}、{ctx.name(second)}\n\n经本院主持调解，双方自愿达成如下协议：\n{_numbered(ctx, terms)}\n\n"
        "本调解书经双方签收后，即具有法律效力。",
        f"Civil Mediation Agreement\n\nParties: {ctx.name(first)} and {ctx.name(second)}\n\nWith the court's mediation the parties "
        f"voluntarily agree:\n{_numbered(ctx, terms)}\n\nThis agreement takes legal effect once signed by both parties.",
    )
    return ctx.say(
        "双方达成调解协议，本庭制作调解书。",
        "The parties have settled; the court records the mediation agreement.",
    ), ArtifactDraft(ctx.say("民事调解书", "Mediation agreement"), body)


def _disposition_of(text: str) -> str:
    for marker in ("判决如下：", "The court orders:"):
        if marker in text:
            return text.split(marker, 1)[1].strip().split("\n\n")[0]
    return text[-200:]


def _first_instance_orders(ctx: Ctx) -> tuple[list[str], str]:
    """Decide on the visible record: claims stand when the plaintiff's proof outweighs the defence's."""
    claims = ctx.claims()
    plaintiff_evidence, defendant_evidence = (
        ctx.evidence("plaintiff"),
        ctx.evidence("defendant"),
    )
    if plaintiff_evidence and len(plaintiff_evidence) >= len(defendant_evidence):
        orders = [
            ctx.say(
                f"支持原告诉讼请求：{claim}",
                f"The plaintiff's claim is granted: {claim}",
            )
            for claim in claims
        ]
        reason = ctx.say(
            "原告提交的证据能够相互印证，被告的抗辩缺乏足以推翻的证据，本院予以采信原告主张。",
            "The plaintiff's evidence is mutually corroborating and the defence has not produced evidence capable of rebutting it.",
        )
    else:
        orders = (
            [
                ctx.say(
                    f"支持原告诉讼请求：{claims[0]}",
                    f"The plaintiff's claim is granted: {claims[0]}",
                )
            ]
            if claims
            else []
        )
        orders.append(ctx.say("驳回原告的其他诉讼请求", "The plaintiff's other claims are dismissed"))
        reason = ctx.say(
            "原告仅就部分主张完成举证，其余主张证据不足，本院不予支持。",
            "The plaintiff has proved only part of the claims; the rest lack sufficient evidence.",
        )
    return orders, reason


def _second_instance_orders(ctx: Ctx) -> tuple[list[str], str]:
    """Modify when the appellant brought new evidence to the appeal, otherwise affirm."""
    appellant = ctx.view.appellant_side or "plaintiff"
    requests = _as_list((ctx.field("appeal") or {}).get("appeal_requests"))
    if ctx.field("new_evidence", appellant, []):
        orders = [ctx.say(f"改判：{request}", f"Varied on appeal: {request}") for request in requests]
        reason = ctx.say(
            "上诉人二审提交的新证据足以影响原审认定，原判相应部分应予改判。",
            "The appellant's new evidence changes the facts found below; the affected orders are varied.",
        )
    else:
        orders = [
            ctx.say(
                "驳回上诉，维持原判",
                "The appeal is dismissed and the judgment below affirmed",
            )
        ]
        reason = ctx.say(
            "上诉人未提交足以推翻原判的新证据，一审认定事实清楚，适用法律正确。",
            "The appellant brought no new evidence capable of disturbing the judgment, which is correct in fact and law.",
        )
    return orders, reason


def pronounce_judgment(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    if ctx.view.procedure == "criminal":
        return _criminal_judgment(ctx)
    first, second = _first_second(ctx)
    if ctx.first_instance_trial:
        orders, reason = _first_instance_orders(ctx)
        rule, title = (
            ctx.rule("civil_first"),
            ctx.say("民事判决书（一审）", "Civil judgment (first instance)"),
        )
        requested = ctx.claims()
    else:
        orders, reason = _second_instance_orders(ctx)
        rule, title = (
            ctx.rule("civil_second"),
            ctx.say("民事判决书（二审）", "Civil judgment (second instance)"),
        )
        requested = _as_list((ctx.field("appeal") or {}).get("appeal_requests"))
    retrieved = _retrieved_statute(ctx, requested[0]) if requested else None
    if retrieved is not None:
        rule = f"{retrieved.citation}；{rule}"
    found = [ctx.facts(first), ctx.facts(second)]
    evidence = [item["name"] for item in ctx.evidence(first) + ctx.evidence(second)]
    body = ctx.say(
        f"{title}\n\n一、当事人\n{ctx.name(first)}；{ctx.name(second)}\n\n二、诉讼请求\n{_numbered(ctx, requested)}\n\n"
        f"三、本院查明\n经庭审举证质证，双方提交的{ctx.sep().join(evidence)}已当庭出示。{found[0]}\n\n"
        f"四、本院认为\n{reason}\n\n五、法律依据\n{rule}\n\n判决如下：\n{_numbered(ctx, orders)}\n\n案件受理费由败诉方负担。",
        f"{title}\n\n1. Parties\n{ctx.name(first)}; {ctx.name(second)}\n\n2. Claims\n{_numbered(ctx, requested)}\n\n"
        f"3. Facts found\nThe evidence adduced ({ctx.sep().join(evidence)}) was examined in court. {found[0]}\n\n"
        f"4. Reasoning\n{reason}\n\n5. Legal basis\n{rule}\n\nThe court orders:\n{_numbered(ctx, orders)}\n\n"
        "Court fees are borne by the losing party.",
    )
    spoken = ctx.say(f"现在宣判：{ctx.sep().join(orders)}。", f"Judgment: {ctx.sep().join(orders)}.")
    return spoken, ArtifactDraft(title, body)


# --- criminal trial (SimCourt) -----------------------------------------------------


def _indictment(ctx: Ctx) -> dict:
    return ctx.field("indictment") or {}


def _recommendation(ctx: Ctx) -> dict:
    return _indictment(ctx).get("sentencing_recommendation") or {}


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
    info = _indictment(ctx).get("defendant_info", "")
    return ctx.say(
        f"我叫{ctx.name('defendant')}。{_sentences(info)[0] if info else ''}",
        f"My name is {ctx.name('defendant')}. {_sentences(info)[0] if info else ''}",
    )


def inform_rights(ctx: Ctx) -> str:
    return ctx.say(
        "被告人依法享有申请回避、辩护、最后陈述等权利。你听清楚了吗？是否申请回避？",
        "The defendant has the right to apply for recusal, to a defence and to a final statement. Do you understand, and do you apply for recusal?",
    )


def acknowledge_rights(ctx: Ctx) -> str:
    return ctx.say("听清楚了，不申请回避。", "I understand. I do not apply for recusal.")


def read_indictment(ctx: Ctx) -> str:
    indictment = _indictment(ctx)
    return ctx.say(
        f"公诉人宣读起诉书：{indictment.get('indictment', '')}本院认为，被告人的行为已构成{ctx.sep().join(_as_list(indictment.get('charges')))}。"
        f"建议判处{_describe_sentence(ctx, _recommendation(ctx))}。",
        f"The prosecution reads the indictment: {indictment.get('indictment', '')} The conduct constitutes "
        f"{ctx.sep().join(_as_list(indictment.get('charges')))}. We recommend {_describe_sentence(ctx, _recommendation(ctx))}.",
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
        info = _indictment(ctx).get("indictment", "")
        mood = ctx.say("我很后悔。", "I deeply regret it. ") if ctx.persona("emotional_stability") != "high" else ""
        account = _sentences(info)[:2] if ctx.persona("disclosure_willingness") != "low" else _sentences(info)[:1]
        return ctx.say(f"{mood}情况是这样的：{''.join(account)}", f"{mood}What happened was: {' '.join(account)}")
    if not ctx.evidence():
        return ctx.say("我到案后如实交代了全部经过。", "I told the police everything once I was caught.")
    return ctx.say(
        "我到案后如实交代了全部经过，事后也尽力弥补，相关材料由辩护人在举证时提交。",
        "I told the police everything, and I have tried to make amends since; my counsel will produce the papers.",
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


def _criminal_argue(ctx: Ctx) -> str:
    charges = ctx.sep().join(_as_list(_indictment(ctx).get("charges")))
    if ctx.view.role == "prosecutor":
        return ctx.say(
            f"公诉人认为，在案证据确实充分，被告人构成{charges}，建议判处{_describe_sentence(ctx, _recommendation(ctx))}。",
            f"The evidence is reliable and sufficient: the defendant is guilty of {charges}. We recommend {_describe_sentence(ctx, _recommendation(ctx))}.",
        )
    mitigation = ctx.sep().join(item["name"] for item in ctx.evidence()) or ctx.say("认罪态度", "the guilty plea")
    return ctx.say(
        f"辩护人对罪名不持异议，但请法庭考虑以下从轻情节：{mitigation}。被告人认罪认罚，请求从轻处罚。",
        f"The defence does not contest the charge but asks the court to weigh the mitigation: {mitigation}. The defendant pleads guilty; we ask for leniency.",
    )


def _criminal_rebut(ctx: Ctx) -> str:
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


def _criminal_judgment(ctx: Ctx) -> tuple[str, ArtifactDraft]:
    """Adopts the prosecution's recommendation: the scripted court accepts a guilty plea's terms."""
    indictment = _indictment(ctx)
    charges = ctx.sep().join(_as_list(indictment.get("charges")))
    sentence = _describe_sentence(ctx, _recommendation(ctx))
    mitigation = ctx.sep().join(item["name"] for item in ctx.evidence("defendant"))
    title = ctx.say("刑事判决书", "Criminal judgment")
    body = ctx.say(
        f"{title}\n\n公诉机关：{ctx.name('prosecution')}\n被告人：{ctx.name('defendant')}\n\n经审理查明：{indictment.get('indictment', '')}\n\n"
        f"本院认为：被告人{ctx.name('defendant')}的行为构成{charges}。被告人自愿认罪认罚{('，并有' + mitigation + '等情节') if mitigation else ''}，可以从轻处罚。\n\n"
        f"法律依据：{ctx.rule('criminal')}\n\n判决如下：\n被告人{ctx.name('defendant')}犯{charges}，判处{sentence}。",
        f"{title}\n\nProsecution: {ctx.name('prosecution')}\nDefendant: {ctx.name('defendant')}\n\nFacts found: {indictment.get('indictment', '')}\n\n"
        f"Reasoning: the defendant's conduct constitutes {charges}. The defendant pleaded guilty"
        f"{(' and the court notes ' + mitigation) if mitigation else ''}, which warrants leniency.\n\nLegal basis: {ctx.rule('criminal')}\n\n"
        f"The court orders:\nThe defendant {ctx.name('defendant')} is convicted of {charges} and sentenced to {sentence}.",
    )
    return ctx.say(
        f"现在宣判：被告人{ctx.name('defendant')}犯{charges}，判处{sentence}。",
        f"Judgment: the defendant is convicted of {charges} and sentenced to {sentence}.",
    ), ArtifactDraft(title, body)


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


# --- objections ----------------------------------------------------------------------

OBJECTION_GROUNDS = (
    "relevan",
    "leading",
    "hearsay",
    "speculat",
    "argumentative",
    "关联",
    "诱导",
    "传闻",
    "推测",
    "重复",
)


def rule_objection(ctx: Ctx) -> str:
    """Sustain an objection on a recognised evidentiary ground, overrule the rest."""
    objection = ctx.view.dialogue[-1]["text"] if ctx.view.dialogue else ""
    if any(ground in objection.lower() for ground in OBJECTION_GROUNDS):
        return ctx.say(
            "反对有效。代理人的陈述超出了本争议焦点，请围绕案件事实和证据发言。",
            "Sustained. Counsel will confine the submission to the facts and evidence in issue.",
        )
    return ctx.say("反对无效。请继续。", "Overruled. Counsel may continue.")


# --- dispatch ------------------------------------------------------------------------

ActResult = str | tuple[str, ArtifactDraft] | tuple[str, str]
ACTS: dict[str, Callable[[Ctx], ActResult]] = {
    function.__name__: function
    for function in (
        describe_dispute,
        ask_follow_up,
        answer_follow_up,
        ask_question,
        answer_question,
        summarise_advice,
        acknowledge,
        write_consultation_record,
        request_materials,
        provide_materials,
        confirm_position,
        approve_position,
        draft_complaint,
        draft_defence,
        review_judgment,
        draft_appeal,
        draft_appeal_response,
        open_court,
        confirm_appearance,
        invite_statement,
        state_claims,
        state_defence,
        invite_evidence,
        present_evidence,
        cross_examine,
        question_party_first,
        question_party_second,
        answer_judge,
        summarise_disputes,
        argue,
        rebut,
        invite_final_statements,
        final_statement,
        propose_mediation,
        answer_mediation,
        write_mediation_record,
        pronounce_judgment,
        announce_discipline,
        verify_identity,
        confirm_identity,
        inform_rights,
        acknowledge_rights,
        read_indictment,
        ask_plea,
        plead,
        question_defendant,
        answer_examination,
        comment_evidence,
        open_debate,
        self_defence,
        invite_final_statement,
        write_trial_record,
        rule_objection,
    )
}


class ScriptedAgent:
    """A seat played by the scripted backend."""

    def respond(self, request: TurnRequest) -> Reply:
        result = ACTS[request.step.act](Ctx(request.view, request.step.act))
        text, artifact, decision = result, None, None
        if isinstance(result, tuple):
            text, extra = result
            if isinstance(extra, ArtifactDraft):
                artifact = extra
            else:
                decision = extra
        tokens = estimate_tokens(text) + (estimate_tokens(artifact.text) if artifact else 0)
        return Reply(text=text, artifact=artifact, decision=decision, tokens=tokens)

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        return MemoryUpdate(tuple(memory_ops_for(request.view)))


def memory_ops_for(view: SeatView) -> list[MemoryOp]:
    """What a seat keeps from a stage: its facts, evidence and position, and the progress made."""
    ctx = Ctx(view, "memory")
    stage_done = ctx.say(f"{view.stage}阶段已完成", f"{view.stage} completed")
    ops = [MemoryOp("expand", "procedural_progress", (stage_done,))]
    facts = ctx.facts() or _indictment(ctx).get("indictment", "")
    if facts:
        ops.append(MemoryOp("expand", "facts", (facts,)))
    evidence = [item["name"] for item in ctx.evidence()]
    if evidence:
        ops.append(MemoryOp("expand", "evidence", tuple(evidence)))
    claims = ctx.claims()
    if claims:
        ops.append(MemoryOp("revise", "claims", tuple(claims)))
    goals = ctx.field("goals", view.side, {}) or {}
    if goals.get("goal"):
        ops.append(MemoryOp("revise", "positions", (goals["goal"],)))
    if view.role == "lawyer" and view.stage == "LC":
        told = [turn["text"] for turn in view.dialogue if turn["seat"] != view.seat][:2]
        ops.append(MemoryOp("expand", "client_profile", tuple(text[:300] for text in told)))
    outcome = ctx.artifact(
        "first_instance_judgment",
        "second_instance_judgment",
        "mediation_record",
        "criminal_judgment",
    )
    if outcome:
        ops.append(
            MemoryOp(
                "expand",
                "notes",
                (f"{outcome['title']}: {_disposition_of(outcome['text'])}",),
            )
        )
    return ops
