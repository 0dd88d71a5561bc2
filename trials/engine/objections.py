"""Objections: who may object to what, on which grounds, and whether a ground fits the act
objected to. The one home of these rules; the live driver, the socket and the scripted
judge ask here.

Counsel object to the other side's statement in a hearing while it is made or within a short
grace period after it ends (``LEGALSIM_OBJECTION_GRACE_S``, kept by the driver). A ground is
chosen from ``GROUNDS``; "other" carries the objector's own words. A ground fits only some
acts: a question may be leading, an answer may be speculation or hearsay, but the reading of
the indictment is a formal step no ground reaches.
"""

from __future__ import annotations

from trials.engine.machine import (
    JUDGE_SEAT,
    RULE_OBJECTION,
    EngineError,
    apply_interjection,
    current_stage,
    stage_participants,
)
from trials.engine.state import TrialState, TurnRecord
from trials.procedures.names import ground_name
from trials.procedures.seats import COURT, seat_info

OBJECTING_ROLES = ("lawyer", "attorney", "prosecutor")
GROUNDS = ("leading", "speculation", "irrelevant", "hearsay", "argumentative", "beyond_scope", "other")
OBJECT_ACT = "object"

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


def ground_fits(ground: str, act: str) -> bool:
    return act in FITS.get(ground, frozenset())


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
    if stage is None or stage.kind != "trial" or state.stage_status not in ("running", "closing"):
        return "objections are heard only while a hearing is in progress"
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


def apply_objection(state: TrialState, *, seat: str, ground: str, detail: str, speaker_seat: str) -> TurnRecord:
    """Counsel objects: the objection is on the record and the judge must rule before the
    procedure goes on (``next_step`` asks the judge seat, agent or person, for the ruling)."""
    refusal = objection_refusal(state, seat=seat, speaker_seat=speaker_seat)
    if refusal is not None:
        raise EngineError(refusal)
    if ground not in GROUNDS:
        raise EngineError(f"the ground must be one of {', '.join(GROUNDS)}")
    text = objection_text(ground, detail, state.language)
    turn = apply_interjection(state, seat=seat, act=OBJECT_ACT, text=text, author="human")
    state.pending.append({"seat": JUDGE_SEAT, "act": RULE_OBJECTION})
    return turn
