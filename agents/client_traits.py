"""MASER's client traits (§2.1 and Appendix A.3; docs/sources.md) in words an agent follows:
the five levels of legal sense as the paper defines them, the Big-5 traits as a speaking
style, and what to do with the details the client withholds (court/engine/withheld.py).
LCPF's four levels (LegalWorld) stay as they are; a case may carry either or both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from court.engine.withheld import withheld_of

LEGAL_SENSE = {
    1: (
        "完全不懂法律，不会使用任何法律术语（如“权利”“义务”），只平铺直叙地讲事情经过。",
        "Completely lacks legal knowledge and uses no legal terms (such as 'rights' or 'obligations'); "
        "describes events plainly.",
    ),
    2: (
        "有基本的法律意识，知道“起诉”“违约”等简单词语，但不完全理解其含义，用词可能不当，重点仍是叙述具体情况。",
        "Has basic legal awareness and knows simple terms such as 'litigation' or 'breach of contract' without "
        "fully understanding them; may misuse terms; mostly narrates the concrete situation.",
    ),
    3: (
        "具备基础法律知识，能正确使用“合同条款”“诉讼”等日常法律用语来描述情况。",
        "Has foundational legal knowledge and correctly uses everyday legal terms such as 'contract terms' or "
        "'litigation' when describing the situation.",
    ),
    4: (
        "熟悉基本法律术语，能准确使用“诉权”“判决执行”等较复杂的概念。",
        "Is familiar with basic legal terminology and accurately uses more complex concepts such as 'right to "
        "litigate' or 'enforcement of judgment'.",
    ),
    5: (
        "法律知识扎实，熟悉基本法律规定，能详细描述法律问题，还能提出对本案有利的诉讼策略或抗辩要点。",
        "Is highly proficient in legal knowledge, knows the fundamental provisions, describes legal issues in "
        "detail and can propose strategies or defence points that help the case.",
    ),
}
"""MASER Appendix A.3's definitions, level 1 (lowest) to 5."""

BIG5_STYLE = {
    ("extraversion", "high"): ("健谈，主动说很多", "talkative; volunteers a lot"),
    ("extraversion", "low"): ("寡言，回答简短", "reserved; answers briefly"),
    ("emotional_stability", "high"): ("情绪平稳", "calm"),
    ("emotional_stability", "low"): ("焦虑，容易激动", "anxious and easily upset"),
    ("openness", "high"): ("好奇，会追问法律问题", "curious; asks about the law"),
    ("openness", "low"): ("只关心结果", "cares only about the outcome"),
    ("agreeableness", "high"): ("配合，语气友善", "cooperative and friendly"),
    ("agreeableness", "low"): ("戒备，认为全是对方的错", "guarded; blames the other side entirely"),
    ("conscientiousness", "high"): ("有条理，按时间顺序讲", "orderly; tells things in time order"),
    ("conscientiousness", "low"): ("东一句西一句，细节不全", "scattered; leaves details out"),
}
"""A speaking style for each Big-5 trait at high or low (medium adds nothing)."""


def trait(persona: Mapping[str, Any] | None, name: str) -> str:
    """A Big-5 trait's level (``medium`` when the case gives none)."""
    return ((persona or {}).get("big5") or {}).get(name, "medium")


def speaking_style(persona: Mapping[str, Any] | None, language: str) -> str:
    """The persona's own ``speaking_style``, else one composed from its Big-5 traits."""
    persona = persona or {}
    if persona.get("speaking_style"):
        return str(persona["speaking_style"])
    index = 0 if language == "zh" else 1
    parts = [
        BIG5_STYLE[(name, level)][index]
        for name, level in (persona.get("big5") or {}).items()
        if (name, level) in BIG5_STYLE
    ]
    return ("；" if language == "zh" else "; ").join(parts)


def client_instructions(persona: Mapping[str, Any] | None, language: str) -> str:
    """What a model playing the client must do with MASER's traits ('' when the case has none)."""
    persona = persona or {}
    zh = language == "zh"
    lines = []
    sense = persona.get("legal_sense")
    if sense in LEGAL_SENSE:
        definition = LEGAL_SENSE[sense][0 if zh else 1]
        lines.append(
            f"你的法律意识为第{sense}级（共5级）：{definition}"
            if zh
            else f"Your legal sense is level {sense} of 5: {definition}"
        )
    style = speaking_style(persona, language)
    if style:
        lines.append(f"你的说话风格：{style}。" if zh else f"Your speaking style: {style}.")
    if withheld_of(persona):
        lines.append(
            "人物设定中“暂不透露的细节”列出的内容，律师问到之前不要主动说出（方式为“不提”时完全不提，为“含糊”时只含糊地说有些情况记不清）；"
            "律师问到时如实说出。"
            if zh
            else "Do not volunteer the details listed under 'withheld' in your persona until the lawyer asks about "
            "them (mode omit: leave them out entirely; vague: only say there is something you are unsure of); "
            "when the lawyer asks, tell them truthfully."
        )
    return "\n".join(lines)
