"""The websocket protocol of a trial room (README, "The websocket protocol"): typed frames.

Server frames are built here and nowhere else; extra keys (``offset`` on deltas, the turn's
metadata on ``turn.end``) let a client that joined mid-turn render it, and clients ignore
keys they do not know.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, NotRequired, TypedDict, get_args, get_type_hints

from django.conf import settings

from agents.skills import skill_for
from court.documents import DOCUMENTS
from court.engine.objections import GROUNDS, RULE_OBJECTION, ruling_sustains
from court.engine.state import TurnRecord
from court.engine.steps import Speak
from court.procedures.civil import DECISIONS
from court.procedures.names import act_name
from legalsim.text_input import json_problem


class ErrorCode(StrEnum):
    NOT_AUTHENTICATED = "not_authenticated"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    BAD_MESSAGE = "bad_message"
    TRIAL_FINISHED = "trial_finished"
    TRIAL_PAUSED = "trial_paused"
    AGENT_FAILED = "agent_failed"
    UNSUPPORTED = "unsupported"
    SERVER_ERROR = "server_error"


TURN_KEYS = ("seq", "stage", "phase", "role", "side", "speaker", "seat")


class TurnMeta(TypedDict):
    seq: int
    stage: str
    phase: str
    role: str
    side: str
    speaker: str
    seat: str


class TurnStart(TurnMeta):
    type: Literal["turn.start"]


class TurnDelta(TypedDict):
    type: Literal["turn.delta"]
    seq: int
    text: str
    offset: int
    ts: float


class TurnEnd(TurnMeta):
    type: Literal["turn.end"]
    text: str
    author: str
    act: str
    ruling: NotRequired[Literal["sustained", "overruled"]]


class DocumentForm(TypedDict):
    kind: str
    title: str
    sections: list[dict[str, str]]


class Await(TypedDict):
    type: Literal["await"]
    seq: int
    seat: str
    stage: str
    phase: str
    speaker: str
    prompt: str
    act: str
    guidance: NotRequired[dict[str, Any]]
    document: NotRequired[DocumentForm]


class StageFrame(TypedDict):
    type: Literal["stage"]
    stage: str
    status: Literal["started", "finished"]


class Preparing(TypedDict):
    type: Literal["preparing"]
    stage: str
    first_stage: str
    number: int
    count: int


class ArtifactFrame(TypedDict):
    type: Literal["artifact"]
    kind: str
    title: str


class ControlFrame(TypedDict):
    type: Literal["control"]
    action: str
    phase: NotRequired[str]
    by: NotRequired[str]


class ErrorFrame(TypedDict):
    type: Literal["error"]
    code: str
    message: str


class ObjectionRefused(TypedDict):
    type: Literal["objection.refused"]
    seat: str
    message: str


class Notice(TypedDict):
    type: Literal["notice"]
    stage: str
    title: str
    text: str


class EndFrame(TypedDict):
    type: Literal["end"]


ServerFrame = (
    TurnStart
    | TurnDelta
    | TurnEnd
    | Await
    | StageFrame
    | Preparing
    | ArtifactFrame
    | ControlFrame
    | ErrorFrame
    | ObjectionRefused
    | Notice
    | EndFrame
)
"""Every frame the server sends, as built by the functions below; a socket serialises it as
JSON in one place (``TrialConsumer.send_json``)."""


def turn_meta(turn: TurnRecord | Speak) -> TurnMeta:
    return TurnMeta(**{key: getattr(turn, key) for key in TURN_KEYS})


def turn_start(turn: TurnRecord | Speak) -> TurnStart:
    return TurnStart(type="turn.start", **turn_meta(turn))


def turn_delta(seq: int, text: str, offset: int) -> TurnDelta:
    """``ts`` is the server's emission time (epoch seconds) so clients can measure latency."""
    return TurnDelta(type="turn.delta", seq=seq, text=text, offset=offset, ts=time.time())


def turn_end(turn: TurnRecord) -> TurnEnd:
    """A turn as recorded; ``act`` says what it does, and a ruling on an objection says how
    the judge ruled (``ruling``: ``sustained`` strikes the statement objected to)."""
    frame = TurnEnd(type="turn.end", **turn_meta(turn), text=turn.text, author=turn.author, act=turn.act)
    if turn.act == RULE_OBJECTION:
        frame["ruling"] = "sustained" if ruling_sustains(turn.text) else "overruled"
    return frame


def await_frame(step: Speak, language: str, guidance: dict[str, Any] | None = None) -> Await:
    """A human seat must act: ``prompt`` is the act in a sentence in the case's language.
    When the act writes the stage's document, ``document`` carries its kind, title and
    sections so the room can offer one field per section; ``guidance`` (a skill card's
    ``task`` and ``checklist``) says how the act is done, where a card covers it."""
    frame = Await(
        type="await",
        seq=step.seq,
        seat=step.seat,
        stage=step.stage,
        phase=step.phase,
        speaker=step.speaker,
        prompt=act_name(step.act, language, step.phase),
        act=step.act,
    )
    if guidance:
        frame["guidance"] = guidance
    template = DOCUMENTS.get(step.artifact or "")
    if template is not None:
        frame["document"] = DocumentForm(
            kind=step.artifact or "",
            title=template.title(language),
            sections=[{"id": section_id, "heading": heading} for section_id, heading in template.headings(language)],
        )
    return frame


def await_guided(step: Speak, language: str) -> Await:
    """The ``await`` of ``step`` with its skill card's guidance, where a card covers the act:
    the same frame whether the driver asks or a socket replays."""
    card = skill_for(role=step.role, stage=step.stage, act=step.act)
    return await_frame(step, language, card.guidance(language) if card else None)


def turn_start_from_end(frame: TurnEnd) -> TurnStart:
    """The ``turn.start`` of a turn a socket first hears of by its end (a replay, a late join)."""
    return TurnStart(type="turn.start", **{key: frame[key] for key in TURN_KEYS})


def control_frame(action: str, phase: str | None = None, *, by: str | None = None) -> ControlFrame:
    """A control took effect (pause, resume, a judge's steer); ``phase`` is the one now current,
    ``by`` who paused or resumed (``judge`` or ``instructor``)."""
    frame = ControlFrame(type="control", action=action)
    if phase is not None:
        frame["phase"] = phase
    if by is not None:
        frame["by"] = by
    return frame


def stage_frame(stage: str, status: Literal["started", "finished"]) -> StageFrame:
    return StageFrame(type="stage", stage=stage, status=status)


def preparing_frame(stage: str, first_stage: str, progress: tuple[int, int]) -> Preparing:
    """Agents are playing ``stage`` so that the people's part starts, at ``first_stage``, from
    a real state; the turns a seat hears arrive as ``turn.end`` frames meanwhile. ``number``
    and ``count`` say how far they are: stage 3 of 5."""
    number, count = progress
    return Preparing(type="preparing", stage=stage, first_stage=first_stage, number=number, count=count)


def artifact_frame(kind: str, title: str) -> ArtifactFrame:
    return ArtifactFrame(type="artifact", kind=kind, title=title)


def error_frame(code: ErrorCode, message: str) -> ErrorFrame:
    return ErrorFrame(type="error", code=str(code), message=message)


def notice_frame(stage: str, title: str, text: str) -> Notice:
    """What the court decided outside the hearing that everyone in the trial is told (the
    appeal determination: who appealed, or that the judgment is final)."""
    return Notice(type="notice", stage=stage, title=title, text=text)


def objection_refused_frame(seat: str, message: str) -> ObjectionRefused:
    """An objection the court could not hear when it came to be recorded (the hearing moved
    on meanwhile): nothing was recorded and the trial goes on; the objector's room says why."""
    return ObjectionRefused(type="objection.refused", seat=seat, message=message)


END = EndFrame(type="end")

SERVER_FRAMES = tuple(get_args(get_type_hints(frame)["type"])[0] for frame in get_args(ServerFrame))
"""Every frame type the server sends (from the frames' own types); docs/protocol.md is tested
against it."""
CLIENT_MESSAGES = ("say", "resume", "control", "objection")


CLIENT_ID_MAX = 200
"""A ``client_id`` longer than this is no idempotency key but an attempt to store data."""
GROUND_MAX = 500


class BadMessage(ValueError):
    """A client message the protocol cannot read; answered with a ``bad_message`` error frame."""


@dataclass(frozen=True)
class Say:
    text: str
    client_id: str = ""
    decision: str | None = None
    sections: dict[str, str] | None = None
    last: bool = False
    """The speaker's last turn of a phase they may close (a consultation's last question)."""


@dataclass(frozen=True)
class Resume:
    after_seq: int


@dataclass(frozen=True)
class Control:
    action: str
    seat: str = ""
    text: str = ""


@dataclass(frozen=True)
class Objection:
    ground: str
    """One of ``court.engine.objections.GROUNDS``."""
    detail: str = ""
    """The objector's words (required for "other")."""


ClientMessage = Say | Resume | Control | Objection


def client_message_parse(text: str | None, data: bytes | None = None) -> ClientMessage:
    """The one reader of what a client sends: a typed message, or ``BadMessage`` saying why.

    Frames are JSON text; a binary frame, malformed JSON, a message of an unknown type, a
    field of the wrong type or text holding NUL or an unpaired surrogate is refused here, so
    nothing behind this function sees raw input.
    """
    if text is None:
        raise BadMessage("frames must be JSON text, not binary")
    try:
        content = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("the frame is not valid JSON") from None
    if not isinstance(content, dict):
        raise BadMessage("a message is a JSON object with a type")
    problem = json_problem(content)
    if problem:  # the site's one rule for text (legalsim.text_input): no NUL, no lone surrogate
        raise BadMessage(problem)
    kind = content.get("type")
    if kind == "say":
        return _say(content)
    if kind == "resume":
        return Resume(after_seq_parse(content.get("after_seq", 0)))
    if kind == "control":
        return Control(
            action=_text(content, "action", required=True, limit=40),
            seat=_text(content, "seat", limit=40),
            text=_text(content, "text", limit=settings.LEGALSIM_MAX_SAY_CHARS),
        )
    if kind == "objection":
        return _objection(content)
    raise BadMessage("expected a say, resume, control or objection message")


def after_seq_parse(value: Any) -> int:
    """``after_seq`` as the protocol defines it: a whole number of turns, 0 or more."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadMessage("after_seq must be a whole number, 0 or more")
    return value


def _say(content: dict) -> Say:
    limit = settings.LEGALSIM_MAX_SAY_CHARS
    sections = content.get("sections")
    if sections is not None:
        if not isinstance(sections, dict) or not all(
            isinstance(key, str) and isinstance(value, str) for key, value in sections.items()
        ):
            raise BadMessage("sections must map section ids to text")
        if sum(len(value) for value in sections.values()) > limit:
            raise BadMessage(f"a statement is limited to {limit} characters")
    decision = content.get("decision")
    known = sorted({choice for choices in DECISIONS.values() for choice in choices})
    if decision is not None and decision not in known:
        raise BadMessage(f"decision must be one of {', '.join(known)}")
    if not isinstance(content.get("last", False), bool):
        raise BadMessage("last must be true or false")
    return Say(
        text=_text(content, "text", limit=limit),
        client_id=_text(content, "client_id", limit=CLIENT_ID_MAX),
        decision=decision,
        sections=sections or None,
        last=content.get("last", False),
    )


def _objection(content: dict) -> Objection:
    """A ground from the list, with words of one's own if wanted; a ground that is not an id
    of the list is taken as "other" in those words (clients written before the list)."""
    ground = _text(content, "ground", limit=GROUND_MAX).strip()
    detail = _text(content, "text", limit=GROUND_MAX).strip()
    if ground not in GROUNDS:
        ground, detail = "other", " ".join(part for part in (ground, detail) if part)
    if ground == "other" and not detail:
        raise BadMessage("an objection on another ground says what the ground is (text)")
    return Objection(ground=ground, detail=detail)


def _text(content: dict, key: str, *, limit: int, required: bool = False) -> str:
    value = content.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise BadMessage(f"{key} must be text")
    if len(value) > limit:
        raise BadMessage(f"{key} is limited to {limit} characters")
    return value
