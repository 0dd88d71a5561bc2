"""A case's facts in the client's own voice: the case file tells them as a pleading does
("the plaintiff was crossing … when the defendant … struck her"), a client tells them as
"I was crossing … when Huang Jun … struck me". Deterministic rewriting, in both languages:

* the client's procedural name (the plaintiff, 原告) becomes I / me / my (我);
* the other side's becomes their name (in Chinese, the name once and 对方 after);
* both sides together (the parties, 原、被告) become we / us (我和对方);
* the client's third-person pronouns (she, her; 她) become first person, but only when the
  other side is not referred to by the same pronoun (two women: "her" is left as it is).
"""

from __future__ import annotations

import re
from collections.abc import Callable

OBJECT_BEFORE = re.compile(
    r"\b(?:[a-z]+ed|to|in|on|at|for|with|by|from|of|against|between|about|than|found|paid|told|gave|struck|hit|"
    r"owes|sued|took|left|made|let|asked|owe|pay|tell|give)\s+$",
    re.I,
)
"""What comes before an object: a preposition or a verb."""
VERB_AFTER = re.compile(
    r"\s+(?:(?:also|then|later|still|never|only|already|again|not)\s+)*"
    r"(?P<verb>was|were|is|has|had|does|did|will|would|can|could|should|may|must|[a-z]+ed|[a-z]+s)\b",
    re.I,
)
"""A verb after a noun phrase: the phrase is the verb's subject."""
VERBS = {
    "I": {"is": "am", "has": "have", "does": "do", "was": "was", "were": "was"},
    "you": {"is": "are", "has": "have", "does": "do", "was": "were", "were": "were"},
}
WORDS = {
    "first": {"I": "I", "me": "me", "my": "my", "myself": "myself", "we": "we", "us": "us", "zh": "我"},
    "second": {
        "I": "you",
        "me": "you",
        "my": "your",
        "myself": "yourself",
        "we": "you and {other}",
        "us": "you and {other}",
        "zh": "您",
    },
}
"""The client's words for themselves (``first``), or their lawyer's for the client (``second``)."""
NOT_VERBS = frozenset("its his hers always perhaps unless this thus".split())
AND_VERB = re.compile(r"(?P<gap>[^.;]*?,?\s+and\s+)(?P<verb>is|has|does|owes|claims|asks|seeks|wants|needs|says)\b")
"""A second verb of the same subject (I claim the rent, and is entitled to …)."""
OBJECT_HER = re.compile(r"\s*(?:[^\w\s]|$|(?:and|or|to|in|on|at|for|with|by|from|of|that|when|as)\b)", re.I)
ROLE_WORDS = {"plaintiff": ("the plaintiff", "原告"), "defendant": ("the defendant", "被告")}
PRONOUNS = {"female": ("she", "her", "herself", r"她(?!们)"), "male": ("he", "him", "himself", r"(?<!其)他(?![人们])")}
"""Subject, object, reflexive, and the Chinese pronoun (not 其他 "other", 他人 "others", 他们 "they")."""


def in_own_voice(text: str, *, side: str, parties: list[dict], language: str, person: str = "first") -> str:
    """``text`` (facts told of the parties by their procedural names) as ``side``'s client
    tells it, or (``person="second"``) as their lawyer tells it back to them."""
    if side not in ROLE_WORDS:
        return text
    other = "defendant" if side == "plaintiff" else "plaintiff"
    names = {party.get("side"): party for party in parties}
    other_name = (names.get(other) or {}).get("name") or ""
    own_gender, other_gender = _gender(names.get(side)), _gender(names.get(other))
    pronouns = PRONOUNS.get(own_gender) if own_gender and own_gender != other_gender else None
    words = WORDS[person]
    if language == "zh":
        return _zh(text, side, other, other_name, pronouns, words)
    return _en(text, side, other, other_name, pronouns, words)


def _gender(party: dict | None) -> str:
    details = f"{(party or {}).get('details', '')}".strip().lower()
    if (party or {}).get("kind") == "organization":
        return ""
    if details.startswith(("female", "女")):
        return "female"
    if details.startswith(("male", "男")):
        return "male"
    return ""


def _zh(
    text: str, side: str, other: str, other_name: str, pronouns: tuple[str, ...] | None, words: dict[str, str]
) -> str:
    own_word, other_word, me = ROLE_WORDS[side][1], ROLE_WORDS[other][1], words["zh"]
    text = re.sub(r"原、被告|原被告|双方当事人", f"{me}和{other_name or '对方'}", text)
    text = text.replace(own_word, me).replace(other_word, other_name or "对方", 1).replace(other_word, "对方")
    return re.sub(pronouns[3], me, text) if pronouns else text


def _en(
    text: str, side: str, other: str, other_name: str, pronouns: tuple[str, ...] | None, words: dict[str, str]
) -> str:
    own_word, other_word = ROLE_WORDS[side][0], ROLE_WORDS[other][0]
    other_side = other_name or "the other side"
    together = words["we"].format(other=other_side), words["us"].format(other=other_side)
    text = _replace(text, r"\bthe parties\b", lambda subject: together[0] if subject else together[1], words)
    text = re.sub(rf"\b{own_word}'s\b", words["my"], text, flags=re.I)
    text = _replace(text, rf"\b{own_word}\b", lambda subject: words["I"] if subject else words["me"], words)
    if other_name:
        text = re.sub(rf"\b{other_word}\b", other_name, text, flags=re.I)
    if pronouns:
        he, him, himself, _ = pronouns
        text = re.sub(rf"\b{himself}\b", words["myself"], text, flags=re.I)
        text = _replace(text, rf"\b{he}\b", lambda subject: words["I"], words)
        if him == "her":
            text = _replace_her(text, words)
        else:
            text = _replace(text, rf"\b{him}\b", lambda subject: words["me"], words)
            text = re.sub(r"\bhis\b", words["my"], text, flags=re.I)
    return _capitalised(text)


def _replace(text: str, pattern: str, word: Callable[[bool], str], words: dict[str, str]) -> str:
    """Each match of ``pattern`` as ``word(subject)``; a subject's verb agrees with I or you."""
    out, last = [], 0
    for match in re.finditer(pattern, text, flags=re.I):
        before = text[: match.start()]
        verb = VERB_AFTER.match(text, match.end())
        subject = verb is not None and verb["verb"].lower() not in NOT_VERBS and not OBJECT_BEFORE.search(before)
        replacement = word(subject)
        out.append(text[last : match.start()] + replacement)
        last = match.end()
        if subject and replacement == words["I"]:
            out.append(text[last : verb.start("verb")] + _agree(verb["verb"], replacement))
            last = verb.end("verb")
            if second := AND_VERB.match(text, last):
                out.append(second["gap"] + _agree(second["verb"], replacement))
                last = second.end()
    return "".join(out) + text[last:]


def _agree(verb: str, subject: str) -> str:
    """A third-person verb as it goes with I or you: is -> am / are, has -> have, claims -> claim."""
    lower = verb.lower()
    if lower in VERBS[subject]:
        return VERBS[subject][lower]
    if lower.endswith("ed") or not lower.endswith("s") or lower.endswith("ss"):
        return verb
    if lower.endswith(("ches", "shes", "sses", "xes")):
        return verb[:-2]
    if lower.endswith("ies"):
        return verb[:-3] + "y"
    return verb[:-1]


def _replace_her(text: str, words: dict[str, str]) -> str:
    """Her as the object (struck her.) before punctuation or a function word, else as the
    possessive (her own fault)."""

    def mine(match: re.Match) -> str:
        return words["me"] if OBJECT_HER.match(text, match.end()) else words["my"]

    return re.sub(r"\bher\b", mine, text, flags=re.I)


def _capitalised(text: str) -> str:
    """A sentence that now starts with my, we, you or your starts with a capital again."""
    return re.sub(r"(^|[.!?]\s+)(my|we|me|us|you|your)\b", lambda match: match[1] + match[2].capitalize(), text)
