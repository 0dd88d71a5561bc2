"""SimCourt's Strategy module and stage-end reflection (SimCourt, "Chinese Court Simulation
with LLM-Based Agent System", arXiv 2508.17322, Methodology, "Agent Structure and
Implementation"; docs/strategy.md).

Before its first turn a seat writes a strategy from its own view (the case file it may read,
its memory) and what it retrieves with the statute and case search tools: attack and defence
for counsel and the prosecution, defence for the defendant, investigation for the judge. At
each stage's end it revises the strategy, before its memory is summarised; a seat that keeps
no memory (the criminal judge) once the stage has ended (``stage_end_reflectors``). The
strategy is the seat's own: it is put into that seat's prompts and nobody else's.

The prompts here are built from the seat's ``SeatView`` only, like every prompt."""

from __future__ import annotations

from agents.prompts import _say, planning_messages
from court.engine.state import TrialState
from court.engine.visibility import SeatView
from court.procedures import procedure_for
from court.procedures.names import stage_name
from court.procedures.seats import seat_info

STRATEGY_TOOLS = ("search_statutes", "search_cases", "read_artifact")
"""What a seat retrieves with while it plans: the articles and the similar cases."""

STRATEGY_TYPES = {
    ("criminal", "prosecutor"): ("attack", "defence"),
    ("criminal", "attorney"): ("attack", "defence"),
    ("criminal", "defendant"): ("defence",),
    ("criminal", "judge"): ("investigation",),
    ("civil", "lawyer"): ("attack", "defence"),
}
"""(procedure, role) -> the strategy types that role plans (SimCourt's assignment; civil
counsel plan as criminal counsel do)."""

TYPE_GOALS = {
    "attack": (
        "进攻策略：削弱对方观点和证据的说服力",
        "Attack strategy: undermine the opposing side's positions and evidence",
    ),
    "defence": (
        "防御策略：维护本方观点的关联性和证明力",
        "Defence strategy: keep your own positions relevant and well supported",
    ),
    "investigation": (
        "调查策略：查明与定罪量刑相关的关键问题",
        "Investigation strategy: clarify the issues that decide conviction and sentence",
    ),
}

MAX_STRATEGY_CHARS = 4000
PLAN_MARK = ("你为本案制定庭审策略", "You plan your trial strategy")
"""The opening of a strategy or reflection call's task (also how tests find them)."""


def strategy_types(view: SeatView) -> tuple[str, ...]:
    """The strategy types of this seat; empty for a seat that keeps no strategy."""
    return STRATEGY_TYPES.get((view.procedure, view.role), ())


def stage_end_reflectors(state: TrialState, stage: str) -> list[str]:
    """The seats that reflect when ``stage`` has ended, after the memory updates: those with
    a strategy that spoke in it, are played by a model and keep no memory (the criminal
    judge). A seat with memory
    reflects in its memory update instead, just before it summarises; the engine asks
    nothing more of either."""
    if not state.strategy_module:
        return []
    spoke = {turn.seat for turn in state.turns if turn.stage == stage}
    return [
        seat
        for seat in procedure_for(state.procedure).seats
        if seat in spoke
        and seat not in state.human_seats
        and seat not in state.memory
        and (state.procedure, seat_info(state.procedure, seat).role) in STRATEGY_TYPES
    ]


def _goals(view: SeatView) -> str:
    return "\n".join(f"- {_say(view, *TYPE_GOALS[kind])}" for kind in strategy_types(view))


def _task(view: SeatView, task: str) -> str:
    """A planning call's task, opened by ``PLAN_MARK``: the rest of the prompt is laid out as the
    seat's turns are (``agents.prompts.planning_messages``), so the server reuses their prefix."""
    return f"{_say(view, *PLAN_MARK)}. {task}"


def strategy_messages(view: SeatView) -> list[dict[str, str]]:
    """The call that writes a seat's strategy before its first turn."""
    task = _say(
        view,
        "庭审开始前，请先用 search_statutes 检索适用的法条、用 search_cases 检索类似案例，"
        f"然后写出你的庭审策略，包括：\n{_goals(view)}\n只输出策略正文，分条列出，不超过 600 字。",
        "Before the trial begins, look up the applicable articles (search_statutes) and similar cases "
        f"(search_cases), then write your trial strategy, covering:\n{_goals(view)}\n"
        "Reply with the strategy only, as a list of points, under 400 words.",
    )
    return planning_messages(view, strategy="", task=_task(view, task), with_dialogue=False)


def reflection_messages(view: SeatView, strategy: str, stage: str) -> list[dict[str, str]]:
    """The stage-end reflection: revise ``strategy`` (write one, when the model gave none
    before) from the dialogue, the memory and what the tools retrieve."""
    task = _say(
        view,
        f"{stage_name(stage, 'zh')}阶段已结束。请根据本阶段对话、你的案件记忆和检索结果反思并修订你的庭审策略"
        f"（{_goals(view)}）。只输出修订后的完整策略正文，不超过 600 字。",
        f"The {stage_name(stage, 'en')} stage is over. Reflect on the dialogue so far, your memory and what the tools find, and "
        f"revise your trial strategy ({_goals(view)}). Reply with the whole revised strategy only, under 400 words.",
    )
    return planning_messages(view, strategy=strategy, task=_task(view, task), with_dialogue=True)


def strategy_read(text: str) -> str | None:
    """The strategy in a reply, or None when the reply has none (empty, or no word in it)."""
    text = text.strip()
    if not any(char.isalnum() for char in text):
        return None
    return text[:MAX_STRATEGY_CHARS]


def current_strategy(entries: list[dict[str, str]]) -> str:
    """The latest strategy text written (revisions replace it); "" before any."""
    written = [entry["text"] for entry in entries if entry.get("text")]
    return written[-1] if written else ""
