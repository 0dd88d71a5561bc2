"""The websocket protocol of a trial room (DESIGN.md, websocket contract): typed frames.

Server frames are built here and nowhere else; extra keys (``offset`` on deltas, the turn's
metadata on ``turn.end``) let a client that joined mid-turn render it, and clients ignore
keys they do not know.
"""

from __future__ import annotations

import time
from enum import StrEnum
from typing import Any

from trials.documents import DOCUMENTS
from trials.engine.state import TurnRecord
from trials.engine.steps import Speak


class ErrorCode(StrEnum):
    NOT_AUTHENTICATED = "not_authenticated"
    NOT_A_PARTICIPANT = "not_a_participant"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_MESSAGE = "bad_message"
    TRIAL_FINISHED = "trial_finished"
    UNSUPPORTED = "unsupported"


def turn_meta(turn: TurnRecord | Speak) -> dict[str, Any]:
    return {
        "seq": turn.seq,
        "stage": turn.stage,
        "phase": turn.phase,
        "role": turn.role,
        "side": turn.side,
        "speaker": turn.speaker,
        "seat": turn.seat,
    }


def turn_start(turn: TurnRecord | Speak) -> dict[str, Any]:
    return {"type": "turn.start", **turn_meta(turn)}


def turn_delta(seq: int, text: str, offset: int) -> dict[str, Any]:
    """``ts`` is the server's emission time (epoch seconds) so clients can measure latency."""
    return {"type": "turn.delta", "seq": seq, "text": text, "offset": offset, "ts": time.time()}


def turn_end(turn: TurnRecord) -> dict[str, Any]:
    return {"type": "turn.end", **turn_meta(turn), "text": turn.text, "author": turn.author}


def await_frame(step: Speak, language: str) -> dict[str, Any]:
    """A human seat must act. When the act writes the stage's document, ``document`` carries
    its kind, title and sections so the room can offer one field per section."""
    frame = {
        "type": "await",
        "seq": step.seq,
        "seat": step.seat,
        "stage": step.stage,
        "phase": step.phase,
        "prompt": f"{step.speaker}: {step.act.replace('_', ' ')}",
        "act": step.act,
    }
    template = DOCUMENTS.get(step.artifact or "")
    if template is not None:
        frame["document"] = {
            "kind": step.artifact,
            "title": template.title(language),
            "sections": [{"id": section_id, "heading": heading} for section_id, heading in template.headings(language)],
        }
    return frame


def stage_frame(stage: str, status: str) -> dict[str, Any]:
    return {"type": "stage", "stage": stage, "status": status}


def artifact_frame(kind: str, title: str) -> dict[str, Any]:
    return {"type": "artifact", "kind": kind, "title": title}


def error_frame(code: ErrorCode, message: str) -> dict[str, Any]:
    return {"type": "error", "code": str(code), "message": message}


END = {"type": "end"}
