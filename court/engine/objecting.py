"""Counsel objecting: the objection put on the record, after a statement or cutting one, once
the rules of ``court.engine.objections`` allow it; the judge then rules before the procedure
goes on (``next_step`` asks the judge seat for the ruling)."""

from __future__ import annotations

from court.engine.errors import EngineError
from court.engine.machine import JUDGE_SEAT, apply_interjection, next_step
from court.engine.objections import CUT, GROUNDS, OBJECT_ACT, RULE_OBJECTION, objection_refusal, objection_text
from court.engine.state import TrialState, TurnRecord
from court.engine.steps import Speak


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


def apply_objection_cut(
    state: TrialState, step: Speak, *, shown: str, seat: str, ground: str, detail: str
) -> tuple[TurnRecord, TurnRecord]:
    """Counsel objects while ``step`` is being made: what was shown of it stays on the record,
    cut (``CUT``), then the objection. The procedure stays at that statement until the judge
    rules: sustained, the statement ends there (``machine.apply_reply`` moves on); overruled,
    its speaker resumes where they were cut (``objections.statement_resumed``). Nothing is recorded
    when the objection is refused (``EngineError``)."""
    if next_step(state) != step:
        raise EngineError(f"{step.seat} is not making a statement now")
    refusal = objection_refusal(state, seat=seat, speaker_seat=step.seat)
    if refusal is not None:
        raise EngineError(refusal)
    if ground not in GROUNDS:
        raise EngineError(f"the ground must be one of {', '.join(GROUNDS)}")
    author = "human" if step.seat in state.human_seats else "agent"
    cut = apply_interjection(state, seat=step.seat, act=step.act, text=f"{shown.rstrip()}{CUT}", author=author)
    objection = apply_objection(state, seat=seat, ground=ground, detail=detail, speaker_seat=step.seat)
    state.pending[-1]["cut"] = str(cut.seq)
    return cut, objection
