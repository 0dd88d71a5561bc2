"""MASER's legal agenda (Appendix A.2; docs/sources.md) as a checklist for the lawyer of a
consultation: the client's and the other side's particulars, the facts, the points in dispute,
the claims and the evidence, and the details the client withheld (court/engine/withheld.py).

An item counts as asked when one of the lawyer's questions to the client in the consultation
(``QUESTION_ACT``: not the answers, the advice or the record written after) holds one of its
words (``said``: case-insensitive, an English word as a whole word); a withheld detail counts as
found once the client has said it.
The room ticks the list as the consultation goes; the debrief lists what was never asked.
"""

from __future__ import annotations

from dataclasses import dataclass

from court.engine.state import TrialState
from court.engine.withheld import said, undisclosed, withheld_of
from court.procedures import procedure_for
from court.procedures.names import agenda_name
from court.procedures.seats import seat_info

CONSULTATION = "LC"
QUESTION_ACT = "ask_follow_up"


@dataclass(frozen=True)
class AgendaItem:
    key: str
    words: tuple[str, ...]

    def name(self, language: str) -> str:
        return agenda_name(self.key, language)

    def asked_in(self, text: str) -> bool:
        return any(said(word, text) for word in self.words)


def _item(key: str, words: str) -> AgendaItem:
    return AgendaItem(key, tuple(words.split("|")))


AGENDA = (
    _item(
        "client",
        "姓名|性别|出生|年龄|民族|住址|住在|电话|身份证|职业|your name|age|born|birth|address|where do you live|phone"
        "|occupation",
    ),
    _item(
        "defendant",
        "对方|被告|法定代表人|other side|other party|defendant|opponent|representative",
    ),
    _item(
        "facts",
        "经过|怎么回事|什么时候|时间|日期|发生|金额|what happened|when|how did|date|amount|timeline",
    ),
    _item(
        "dispute",
        "争议|分歧|否认|不认|抗辩|异议|dispute|disagree|deny|denies|contest|defence|defense",
    ),
    _item(
        "claims",
        "诉求|请求|希望|想要|要求|结果|赔偿|want|seek|claim|outcome|compensation",
    ),
    _item(
        "evidence",
        "证据|凭证|借条|欠条|合同|协议|转账|记录|收据|证人|照片|evidence|proof|document|receipt|record|witness|contract"
        "|photo",
    ),
)


@dataclass(frozen=True)
class Checklist:
    """The agenda of one consultation as the lawyer has worked through it."""

    asked: list[AgendaItem]
    never_asked: list[AgendaItem]
    found: list[str]
    """Withheld details the client has told."""
    missed: list[str]
    """Withheld details never told (shown only once the trial has ended)."""
    language: str

    @property
    def items(self) -> list[tuple[str, bool]]:
        """Each agenda item's name in the case's language, and whether it was asked."""
        return [(item.name(self.language), item in self.asked) for item in AGENDA]

    @property
    def never_asked_names(self) -> list[str]:
        return [item.name(self.language) for item in self.never_asked]


def checklist(state: TrialState, seat: str) -> Checklist | None:
    """The agenda of the consultation ``seat`` (a lawyer) took part in; None for any other seat
    or a trial without a consultation."""
    try:
        info = seat_info(state.procedure, seat)
    except (KeyError, ValueError):
        return None
    if info.role != "lawyer" or state.procedure != "civil" or not _consults(state):
        return None
    played = [turn for turn in state.turns if (turn.stage, turn.seat, turn.act) == (CONSULTATION, seat, QUESTION_ACT)]
    lawyer = [turn.text for turn in ([turn for turn in played if turn.author == "human"] or played)]
    client = [turn.text for turn in state.turns if turn.seat == f"{info.side}_client"]
    asked = [item for item in AGENDA if any(item.asked_in(text) for text in lawyer)]
    persona = (state.case.get("personas") or {}).get(info.side)
    missed = [item.detail for item in undisclosed(persona, client)]
    return Checklist(
        asked=asked,
        never_asked=[item for item in AGENDA if item not in asked],
        found=[item.detail for item in withheld_of(persona) if item.detail not in missed],
        missed=missed,
        language=state.language,
    )


def _consults(state: TrialState) -> bool:
    """Whether the trial holds a consultation: one under way or played."""
    stages = procedure_for(state.procedure).stages
    under_way = 0 <= state.stage_index < len(stages) and stages[state.stage_index].id == CONSULTATION
    return under_way or any(turn.stage == CONSULTATION for turn in state.turns)
