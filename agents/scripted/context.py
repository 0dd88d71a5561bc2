"""What every act of the scripted backend reads and the phrasing several stages share.

``Ctx`` wraps the speaking seat's view (only what ``build_view`` lets it see) with a few
derived facts; the helpers below number lists, split sentences, speak in the client's voice
and retrieve the statute a lawyer or judge cites.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.client_traits import trait
from agents.scripted.voice import in_own_voice
from agents.tools.precedent_words import CJK, tokens
from agents.tools.statutes import StatuteHit, statute_search
from court.engine.visibility import SeatView
from court.engine.withheld import asked_now, cut, undisclosed
from court.procedures.seats import COURT, opposite

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
        """The parties of ``side`` by name, all of them (two defendants are ordered to pay
        together, not the first alone); the side itself when the case names none."""
        names = [party["name"] for party in self.view.case["parties"] if party["side"] == side]
        if len(names) < 2:
            return names[0] if names else side
        return self.say("、".join(names), f"{', '.join(names[:-1])} and {names[-1]}")

    def field(self, name: str, owner: str = "shared", default=None):
        return self.view.fields.get(name, {}).get(owner, default)

    def claims(self) -> list[str]:
        return as_list(self.field("claims", default=[]))

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

    def appeal(self, side: str | None = None) -> dict:
        """The appeal of ``side`` (by default the appellant heard): its own when the view keeps
        one per side (both sides appealed), else the appeal the trial hears, which is the
        appellant's alone."""
        side = side or self.opener()
        own = self.field("appeal", side)
        return own or (self.field("appeal") if side == self.opener() else None) or {}

    def appeal_requests(self, side: str | None = None) -> list[str]:
        return as_list(self.appeal(side).get("appeal_requests"))

    def rule(self, key: str) -> str:
        zh, en = GENERAL_RULES[key]
        return self.say(zh, en)


def as_list(value) -> list[str]:
    if not value:
        return []
    return [value] if isinstance(value, str) else [str(item) for item in value]


def numbered(ctx: Ctx, items: list[str]) -> str:
    if not items:
        return ctx.say("（无）", "(none)")
    return "\n".join(f"{index}. {item}" for index, item in enumerate(items, 1))


def evidence_lines(ctx: Ctx, items: list[dict]) -> list[str]:
    return [
        ctx.say(
            f"{item['name']}，证明{item['purpose']}",
            f"{item['name']}, to prove {item['purpose']}",
        )
        for item in items
    ]


def split_sentences(text: str) -> list[str]:
    pieces, current = [], ""
    for char in text:
        current += char
        if char in "。！？.!?":
            pieces.append(current.strip())
            current = ""
    if current.strip():
        pieces.append(current.strip())
    return pieces


def client_account(ctx: Ctx) -> str:
    """The client's own facts, told as the LCPF persona would tell them (Table 6), in the first
    person (``voice``), without the details they withhold until asked (MASER;
    court/engine/withheld.py)."""
    held = undisclosed(ctx.view.persona, _own_words(ctx))
    sentences = split_sentences(cut(ctx.facts(), [item.detail for item in held]))
    if ctx.persona("disclosure_willingness") == "low":
        sentences = sentences[: max(1, len(sentences) // 2)]
    if ctx.persona("narrative_proficiency") == "low" or trait(ctx.view.persona, "conscientiousness") == "low":
        sentences = sentences[1:] + sentences[:1]
    body = in_own_voice(
        ("" if ctx.zh else " ").join(sentences),
        side=ctx.view.side,
        parties=ctx.view.case.get("parties") or [],
        language=ctx.view.language,
    )
    anxious = "low" in (ctx.persona("emotional_stability"), trait(ctx.view.persona, "emotional_stability"))
    mood = {
        "low": ctx.say(
            "我现在心里特别乱，一想到这件事就睡不着。",
            "I'm honestly very upset and can't sleep over this. ",
        ),
        "medium": ctx.say("这件事让我压力挺大的。", "This has been stressful for me. "),
        "high": "",
    }["low" if anxious else ctx.persona("emotional_stability")]
    orderly = "high" in (ctx.persona("narrative_proficiency"), trait(ctx.view.persona, "conscientiousness"))
    order = ctx.say("我按时间顺序说一下：", "Let me go through it in order: ") if orderly else ""
    vague = (
        ctx.say("还有些情况我一时说不清楚。", " There are some things I'm not sure about.")
        if any(item.mode == "vague" for item in held)
        else ""
    )
    return f"{mood}{order}{body}{vague}"


def _own_words(ctx: Ctx) -> list[str]:
    return [turn["text"] for turn in ctx.view.dialogue if turn["seat"] == ctx.view.seat]


def with_disclosure(ctx: Ctx, text: str) -> str:
    """A client's turn, opened by the withheld details the lawyer has asked about since and that
    the client has not told yet."""
    if ctx.view.role not in ("client", "defendant"):
        return text
    lawyer_turns = [turn["text"] for turn in ctx.view.dialogue if turn["seat"] != ctx.view.seat]
    told = asked_now(undisclosed(ctx.view.persona, _own_words(ctx)), lawyer_turns)
    if not told:
        return text
    details = ctx.sep().join(item.detail.rstrip("。.") for item in told)
    return ctx.say(f"您问到的这一点我补充一下：{details}。", f"About what you asked: {details}. ") + text


def client_wants(ctx: Ctx) -> str:
    goals = ctx.field("goals", ctx.view.side, {}) or {}
    goal = goals.get("goal") or ctx.say("请求法院支持我方的意见", "that the court upholds my side's position")
    sense = (ctx.view.persona or {}).get("legal_sense")
    if ctx.persona("legal_literacy") == "low" or (sense is not None and sense <= 2):
        return ctx.say(f"说白了，我就是想讨个说法：{goal}", f"Put simply, I just want this put right: {goal}")
    if sense == 5 and ctx.claims():
        return ctx.say(
            f"我的诉讼请求是：{goal}。我查过相关规定，建议我们明确主张：{ctx.claims()[0]}",
            f"My claim is: {goal}. I have read the relevant provisions and suggest we plead expressly: "
            f"{ctx.claims()[0]}",
        )
    return ctx.say(f"我的诉求是：{goal}", f"What I am seeking is: {goal}")


def court_name(ctx: Ctx) -> str:
    return ctx.view.case.get("court_name") or ctx.say("人民法院", "the People's Court")


def disposition_of(text: str) -> str:
    """The operative part of a judgment (what follows "判决如下" / "The court orders")."""
    for marker in ("判决如下：", "The court orders:"):
        if marker in text:
            return text.split(marker, 1)[1].strip().split("\n\n")[0]
    return text[-200:]


def retrieved_statute(ctx: Ctx, query: str, *, duty: bool = False) -> StatuteHit | None:
    """The best substantive article for ``query`` from the statute corpus (the corpus is Chinese:
    an English case is searched with the Chinese terms its words are filed under,
    ``precedent_words.GLOSSARY``, and finds nothing when it has none). Numbers are dropped from the query and procedural laws skipped,
    since the general procedural rules are cited anyway. With ``duty``, the article that
    decides a claim: of the first three, the first that lays a duty (应当: 借款人应当按照约定的
    期限返还借款) in its first sentence, over a definition or a prohibition (借款的利息不得预先在
    本金中扣除) the words match as well."""
    text = f"{ctx.view.case['cause_of_action']} {query}"
    if not ctx.zh:
        text = " ".join(word for word in tokens(text) if CJK.search(word))
    words = re.sub(r"[0-9０-９.,，。；;：:（）()年月日元%？?！!“”]+", " ", text)
    if not re.search(r"[\u4e00-\u9fff]", words):
        return None  # no Chinese word to search the (Chinese) corpus with
    found = statute_search(words, top_k=5, cause_of_action=ctx.view.case["cause_of_action"])
    hits = [hit for hit in found if "诉讼" not in hit.law and "程序" not in hit.law]
    if duty:
        hits = [hit for hit in hits[:3] if "应当" in re.split(r"[。；]", hit.text, maxsplit=1)[0]] + hits
    return hits[0] if hits else None
