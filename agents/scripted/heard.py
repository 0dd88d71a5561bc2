"""What the court heard: a stage's statements less the objections, the rulings on them and what
a sustained objection struck (docs/offline-court.md, "Objections").

A sustained ruling strikes the statement objected to, unless a sentence of it that strikes
names exhibits the statement offered ("The court strikes “Bank statements”.", "本庭排除《借条》。"):
then only the parts of the statement offering those exhibits go. A struck exhibit stays out of
the record until its side re-offers it in the evidence phase with its foundation (where it
comes from or that it is authentic, and what it proves: ``laid_foundation``); a mention of it
without them is left out too.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from court.engine.objections import OBJECT_ACT, RULE_OBJECTION, ruling_sustains
from court.legaltext.text import coverage
from court.procedures.seats import seat_info

EVIDENCE_PHASES = frozenset({"evidence", "prosecution_evidence", "defence_evidence"})
"""The phases in which evidence is offered (as ``record.EVIDENCE_PHASES`` reads them)."""
NAMED = 0.5
"""The share of an exhibit's name a part of a statement must hold to offer it (``record.COVERED``)."""
STRIKING = re.compile(r"strik|struck|排除|不予采纳", re.IGNORECASE)
STANDING = re.compile(r"\bstands?\b|予以保留", re.IGNORECASE)
"""A sentence of a ruling that lets exhibits stand (they name exhibits too: ``_rulings``)."""
QUOTED = re.compile(r"“([^”]{2,120})”|《([^》]{2,120})》|\"([^\"]{2,120})\"")
SOURCE = re.compile(
    r"obtained|comes? from|came from|issued by|provided by|signed by|kept by|seized|recovered|retrieved|"
    r"collected|from the (?:bank|police|hospital|insurer|company|phone)|来源|调取|出具|提供|提取|扣押|制作|由.{1,12}(?:出具|提供)",
    re.IGNORECASE,
)
AUTHENTIC = re.compile(
    r"authentic|genuine|original|certified|notari[sz]ed|sealed|stamped|unaltered|chain of custody|"
    r"真实|原件|签字|签名|盖章|公章|公证|未经篡改",
    re.IGNORECASE,
)
PURPOSE = re.compile(
    r"to prove|to show|proves|shows|offered (?:to|for)|purpose|establish|证明|用以|用于|目的", re.IGNORECASE
)
ENUMERATED = re.compile(r"(?:^|[:：])\s*(?:\d+[.、)）]|[一二三四五六七八九十]+[、.]|[(（]\d+[)）]|[-•*] )")
"""A list item: its whole line (or ；-separated item) offers one exhibit."""
SENTENCE = re.compile(r"(?<=[。！？!?])|(?<=[^\d\s][.;])\s+|[；\n]")
CLAUSE = re.compile(r"(?<=[，、])|(?<=,)\s+")
CRIMINAL_SEATS = frozenset({"prosecutor", "attorney", "defendant", "stenographer"})


class Heard(NamedTuple):
    turns: list[dict]
    """The stage's statements without objections and rulings, less what a sustained objection
    struck and no foundation has since cured."""
    struck: frozenset[str]
    """The names of the exhibits a sustained objection struck and no re-offer has cured."""


def struck_names(ruling: str, statement: str) -> list[str]:
    """The exhibits a sustained ``ruling`` strikes: the names quoted in its striking sentences
    that ``statement`` offers; none means the ruling strikes the whole statement."""
    names = [name for sentence in SENTENCE.split(ruling) if STRIKING.search(sentence) for name in quoted(sentence)]
    return [name for name in names if offers(statement, name)]


def quoted(text: str) -> list[str]:
    """The names quoted in ``text`` (“…”, 《…》 or "…")."""
    return [next(group for group in match.groups() if group) for match in QUOTED.finditer(text)]


def offers(text: str, name: str) -> bool:
    """``text`` names the exhibit ``name`` (half the terms of its name, in one part of it)."""
    return any(_share(part, name) >= NAMED for part in parts(text))


def offered_in(part: str, names: list[str], *, clearly: bool = False) -> str | None:
    """The exhibit of ``names`` that ``part`` of a statement offers: the one it names most of
    (half its name; more than half, ``clearly``, for a re-offer: ``_hearing``)."""
    share, name = max(((_share(part, name), name) for name in names), default=(0.0, None))
    return name if share > NAMED or (share == NAMED and not clearly) else None


def parts(text: str) -> list[str]:
    """A statement cut where it turns to another exhibit: list items whole, else clauses."""
    found: list[str] = []
    for unit in SENTENCE.split(text):
        if not unit or not unit.strip():
            continue
        found += [unit] if ENUMERATED.search(unit) else [clause for clause in CLAUSE.split(unit) if clause.strip()]
    return found


def laid_foundation(text: str) -> bool:
    """A re-offer with its foundation: where the exhibit comes from or that it is authentic,
    and what it is offered to prove."""
    return bool((SOURCE.search(text) or AUTHENTIC.search(text)) and PURPOSE.search(text))


def side_of(seat: str) -> str:
    """The side of a seat, in either procedure (the court's seats: ``court``)."""
    if seat not in CRIMINAL_SEATS and "_" not in seat:
        return seat
    return seat_info("criminal" if seat in CRIMINAL_SEATS else "civil", seat).side


def heard_of(dialogue: list[dict]) -> Heard:
    """What the court heard of ``dialogue`` and which exhibits stand struck, read in one pass."""
    whole, in_part, known = _rulings(dialogue)
    pending: dict[str, str] = {}
    heard = []
    for turn in dialogue:
        if turn.get("act") in (OBJECT_ACT, RULE_OBJECTION) or turn.get("seq") in whole:
            continue
        text, side = turn.get("text", ""), side_of(turn.get("seat", ""))
        if turn.get("phase") in EVIDENCE_PHASES:
            held = _offered(text, [name for name, owner in pending.items() if owner == side], known)
            cured = [name for name in held if laid_foundation(text)]
            for name in cured:
                pending.pop(name)
            text = _without(text, [name for name in held if name not in cured], known)
        struck = in_part.get(turn.get("seq"), [])
        pending |= dict.fromkeys(struck, side)
        heard.append({**turn, "text": _without(text, struck, known)})
    return Heard(heard, frozenset(pending))


def _rulings(dialogue: list[dict]) -> tuple[set[int], dict[int, list[str]], list[str]]:
    """The statements struck whole, those struck in part (seq -> exhibit names), and every
    exhibit a ruling names (struck or standing)."""
    whole: set[int] = set()
    in_part: dict[int, list[str]] = {}
    known: list[str] = []
    for index, turn in enumerate(dialogue):
        if turn.get("act") != RULE_OBJECTION:
            continue
        known += [
            name
            for sentence in SENTENCE.split(turn.get("text", ""))
            if STRIKING.search(sentence) or STANDING.search(sentence)
            for name in quoted(sentence)
        ]
        objection = next((i for i in range(index - 1, -1, -1) if dialogue[i].get("act") == OBJECT_ACT), None)
        if not objection or not ruling_sustains(turn.get("text", "")):
            continue
        statement = dialogue[objection - 1]
        names = struck_names(turn["text"], statement.get("text", ""))
        if names:
            in_part[statement["seq"]] = in_part.get(statement["seq"], []) + names
        else:
            whole.add(statement["seq"])
    return whole, in_part, known


def _offered(text: str, names: list[str], known: list[str]) -> list[str]:
    """Which of ``names`` a part of ``text`` clearly offers again (read against every exhibit
    ``known``): a word of a struck exhibit's name in another's is no re-offer."""
    candidates = list(dict.fromkeys([*names, *known]))
    found = {offered_in(part, candidates, clearly=True) for part in parts(text)} if names else set()
    return [name for name in names if name in found]


def _without(text: str, names: list[str], known: list[str]) -> str:
    """``text`` less its parts offering the exhibits ``names`` (each part read as offering the
    one of ``known`` it names most of), line by line."""
    if not names:
        return text
    candidates = list(dict.fromkeys([*names, *known]))
    lines = (
        " ".join(part.strip() for part in parts(line) if offered_in(part, candidates) not in names)
        for line in text.split("\n")
    )
    return "\n".join(line for line in lines if line)


def _share(part: str, name: str) -> float:
    language = "zh" if re.search(r"[\u4e00-\u9fff]", name) else "en"
    return coverage(name, part, language) or 0.0
