"""Objections: who may object to what, on which grounds, and whether a ground fits the act
objected to. The one home of these rules; the live driver, the socket and the scripted
judge ask here.

Counsel object to the other side's statement in a hearing while it is made or within a short
grace period after it ends (``LEGALSIM_OBJECTION_GRACE_S``, kept by the driver). A ground is
chosen from ``GROUNDS``; "other" carries the objector's own words. A ground fits only some
acts: a question may be leading, an answer may be speculation or hearsay, but the reading of
the indictment is a formal step no ground reaches. A ground that fits is sustained only when the
statement shows the defect: the words in ``SIGNS`` for leading, speculation, hearsay and
argument; for "irrelevant" and "beyond the scope" the court compares the statement with the
points in dispute and with what it answers (``agents.scripted.objections``).
"""

from __future__ import annotations

import re

from court.engine.speakers import stage_participants
from court.engine.stage_order import current_stage
from court.engine.state import TrialState, TurnRecord
from court.engine.steps import Speak
from court.procedures.names import ground_name
from court.procedures.seats import COURT, seat_info

OBJECTING_ROLES = ("lawyer", "attorney", "prosecutor")
GROUNDS = ("leading", "speculation", "irrelevant", "hearsay", "argumentative", "beyond_scope", "other")
OBJECT_ACT = "object"
RULE_OBJECTION = "rule_objection"

_QUESTIONS = frozenset({"question_defendant", "ask_follow_up", "ask_question"})
_ASSERTIONS = frozenset(
    {
        "answer_examination",
        "answer_question",
        "answer_judge",
        "answer_follow_up",
        "present_evidence",
        "comment_evidence",
        "cross_examine",
        "state_claims",
        "state_defence",
        "describe_dispute",
        "self_defence",
        "plead",
    }
)
_ARGUMENTS = frozenset({"argue", "rebut", "final_statement"})
FITS: dict[str, frozenset[str]] = {
    "leading": _QUESTIONS,
    "speculation": _ASSERTIONS,
    "irrelevant": _QUESTIONS | _ASSERTIONS | _ARGUMENTS,
    "hearsay": _ASSERTIONS - {"state_claims", "state_defence", "plead", "cross_examine"},
    "argumentative": _QUESTIONS | {"present_evidence", "answer_examination", "answer_question"},
    "beyond_scope": _QUESTIONS | {"cross_examine", "comment_evidence", "rebut"},
    "other": frozenset(),
}
"""ground -> the acts it may be sustained against. Formal steps (reading the indictment,
confirming identities, acknowledging rights) are in none."""
CUT = " —"
"""How a statement cut by an objection ends on the record: what was shown, then this."""
RESUMED = "— "
"""How the rest of a statement begins once the objection that cut it is overruled."""
SUSTAINED = re.compile(r"^\s*(?:反对有效|反对成立|异议成立|sustained)", re.IGNORECASE)
"""A ruling that sustains the objection; any other ruling overrules it (the scripted court's
record reads rulings the same way: ``agents.scripted.heard``)."""
SIGNS: dict[str, re.Pattern[str]] = {
    "leading": re.compile(
        r"(?:^|[.?!:]\s+|,\s*)(?:did|didn't|do|don't|does|doesn't|were|was|weren't|wasn't|is|isn't|are|aren't|"
        r"had|hadn't|have|haven't|has|hasn't|could|can|would|will)\s+(?:you|he|she|they|it|the defendant|your client)\b[^?]*\?"
        r"|isn't it true|is it not true|wouldn't you agree|you (?:would )?agree|,\s*(?:right|correct|true)\s*\?"
        r"|是不是|对不对|对吧|是吧|难道|没错吧|不是吗|是否|有没有|有无|能否|[^。？！?]{1,40}吗[？?]",
        re.IGNORECASE,
    ),
    "speculation": re.compile(
        r"\b(?:probably|maybe|perhaps|possibly|presumably|likely|might (?:have|be)|may have|must have|could have|"
        r"I (?:think|guess|suppose|assume|imagine|reckon|suspect)|I'm guessing|it seems|seems to|apparently)\b"
        r"|可能|大概|也许|估计|应该是|恐怕|想必|猜|似乎|好像|或许|八成|说不定|我觉得|我想",
        re.IGNORECASE,
    ),
    "hearsay": re.compile(
        r"\b(?:told (?:me|us|him|her|them)|(?:he|she|they|someone|somebody|people|a (?:neighbou?r|friend|colleague))"
        r" (?:said|says|told)|I (?:was told|heard)|heard (?:from|that|it)|(?:was|were) told|word is|rumou?rs?|second-?hand)\b"
        r"|听说|听[^，。]{1,8}说|据[^，。]{0,8}(?:说|讲|称)|告诉我|跟我说|对我说|传言|转述",
        re.IGNORECASE,
    ),
    "argumentative": re.compile(
        r"\b(?:therefore|thus|hence|clearly|obviously|it follows|(?:is|are) (?:liable|guilty|responsible)|"
        r"must (?:pay|bear|compensate|be (?:held|convicted|acquitted))|should (?:be (?:held|convicted|acquitted|dismissed|ordered)|"
        r"pay|bear)|the court should|we submit|under article|pursuant to)\b"
        r"|因此|所以|显然|明显|综上|应当承担|应当判|应予|构成[^，。]{0,10}罪|请求法院|请求法庭|依照|[依根]据[^，。]{0,20}第[^，。]{0,8}条",
        re.IGNORECASE,
    ),
}
"""ground -> the words that show its defect in a statement: a question put for yes or no or
with its answer attached; conjecture; someone else's words told out of court; a conclusion of
law or liability where a question or evidence belongs."""


def ruling_sustains(text: str) -> bool:
    return bool(SUSTAINED.search(text))


def ground_fits(ground: str, act: str) -> bool:
    return act in FITS.get(ground, frozenset())


def defect_shown(ground: str, text: str) -> str | None:
    """The words of ``text`` that show the defect ``ground`` names, or None (the grounds
    without ``SIGNS`` are shown by what a statement does not share)."""
    sign = SIGNS.get(ground)
    found = sign.search(text) if sign else None
    return found.group(0).strip(" ,.:") if found else None


def objection_text(ground: str, detail: str, language: str) -> str:
    """The objection as it stands on the record, in the case's language: "Objection: leading
    question." or "反对！理由：诱导性发问。" (and the objector's words, if any)."""
    name = ground_name(ground, language)
    head = f"反对！理由：{name}。" if language == "zh" else f"Objection: {name}."
    if not detail.strip():
        return head
    return f"{head}{detail.strip()}" if language == "zh" else f"{head} {detail.strip()}"


def objection_ground(text: str, language: str) -> str:
    """The ground an objection on the record names (``objection_text`` wrote it first, before
    any words of the objector's that may name another)."""
    named = [(text.find(ground_name(ground, language)), ground) for ground in GROUNDS]
    return min(((at, ground) for at, ground in named if at >= 0), default=(0, "other"))[1]


def objection_refusal(state: TrialState, *, seat: str, speaker_seat: str) -> str | None:
    """Why ``seat`` may not object to what ``speaker_seat`` says (or has just said), or None.

    Objections belong to hearings: counsel taking part in the hearing being held may object
    to the other side's statement, once at a time (the judge rules before anything else)."""
    stage = current_stage(state)
    if stage is None or stage.kind != "trial":
        return "objections are heard only while a hearing is in progress"
    if state.stage_status not in ("running", "closing"):
        return "that statement closed this part of the hearing: an objection to it can no longer be heard"
    if seat_info(state.procedure, seat).role not in OBJECTING_ROLES:
        return "only counsel may object"
    if seat not in stage_participants(state, stage):
        return "you take no part in this hearing"
    speaker = seat_info(state.procedure, speaker_seat)
    if speaker.side in (seat_info(state.procedure, seat).side, COURT):
        return "you may object only to the other side's statement"
    if state.pending:
        return "the court must first deal with what is before it"
    return None


def objectors(state: TrialState, turn: TurnRecord) -> list[str]:
    """The people's seats that may still object to ``turn``, just made: none unless it is the
    last turn, a statement (not an objection or a ruling) of someone a person opposes."""
    if not state.turns or state.turns[-1] is not turn or turn.act in (OBJECT_ACT, RULE_OBJECTION):
        return []
    return [seat for seat in state.human_seats if objection_refusal(state, seat=seat, speaker_seat=turn.seat) is None]


def statement_resumed(state: TrialState, step: Speak) -> str | None:
    """What the speaker of ``step`` had already said of it before objections the judge
    overruled cut it (the words of every cut part, in order), or None: a statement afresh."""
    said: list[str] = []
    end = len(state.turns)
    while end >= 3:
        cut, objection, ruling = state.turns[end - 3 : end]
        if (
            objection.act != OBJECT_ACT
            or ruling.act != RULE_OBJECTION
            or ruling_sustains(ruling.text)
            or (cut.seat, cut.act, cut.stage) != (step.seat, step.act, step.stage)
            or not cut.text.endswith(CUT)
        ):
            break
        said.append(cut.text.removesuffix(CUT).removeprefix(RESUMED))
        end -= 3
        if not cut.text.startswith(RESUMED):
            break
    return " ".join(reversed(said)) if said else None


def struck_seqs(turns: list[TurnRecord]) -> set[int]:
    """The statements a sustained objection went to: each the turn before an objection the
    judge's next ruling sustained. The ruling says what of it is struck, the statement or
    exhibits it offered (the scripted court reads it so: ``agents.scripted.heard``)."""
    struck = set()
    for at, turn in enumerate(turns):
        if turn.act == RULE_OBJECTION and ruling_sustains(turn.text):
            objection = next((i for i in range(at - 1, -1, -1) if turns[i].act == OBJECT_ACT), None)
            if objection:
                struck.add(turns[objection - 1].seq)
    return struck


def words_after(said: str, text: str) -> str | None:
    """``text`` past the words of ``said`` (whitespace aside): the rest of a resumed
    statement; ``""`` while ``text`` holds only part of them; None once it departs from them
    (the speaker said it otherwise: their words stand whole)."""
    wanted = [char for char in said if not char.isspace()]
    matched = 0
    for at, char in enumerate(text):
        if matched == len(wanted):
            return text[at:]
        if char.isspace():
            continue
        if char != wanted[matched]:
            return None
        matched += 1
    return ""
