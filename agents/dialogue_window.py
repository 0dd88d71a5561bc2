"""The stage's dialogue as a prompt gives it (docs/llm-servers.md, "Prompt layout"): a window
of its latest lines verbatim, which only grows from one call to the next until it is full and
then starts again from its last lines, so that the calls of a seat between two restarts share
the window's lines as a byte-identical prefix (a server's prompt cache reuses it).

The window holds at most ``RECENT_LINES`` lines and ``RECENT_TOKENS`` tokens less the memory
the prompt shows (``estimate_tokens``; the seat's memory stands for the lines left out, a
judge, who keeps none, has the whole budget). When the next line would overflow it, the window
starts again from the last ``RESTART_LINES`` lines within half the budget (the last line
always). Where it starts is worked out from the lines alone, so every call of the stage agrees.
A document and the stage-end memory update read the stage whole: the same window (its note
too), then the lines before it."""

from __future__ import annotations

from functools import cache

from agents.case_text import quoted
from agents.memory_budget import MEMORY_TOKENS, memory_shown
from court.engine.tokens import estimate_tokens
from court.engine.visibility import SeatView
from court.procedures import procedure_for

RECENT_LINES = 7
RECENT_TOKENS = 1000
RESTART_LINES = 2


def _say(view: SeatView, zh: str, en: str) -> str:
    return zh if view.language == "zh" else en


def dialogue(
    view: SeatView,
    *,
    whole: bool = False,
    budget: int | None = None,
    earlier_chars: int | None = None,
    documents_read: bool = False,
) -> str:
    """The stage's dialogue as the prompt gives it: the window, after a note of how many
    earlier lines are left out; ``whole`` gives those earlier lines too, after the window.
    ``budget`` bounds the window further, and ``earlier_chars`` cuts each earlier line to its
    opening (0: leaves them out), for a prompt fitted to a model's context window.
    ``documents_read``: a document written as a turn (the stage's closing) named instead of
    repeated, for a call whose seat has just read it whole."""
    if not view.dialogue:
        return _say(view, "（本阶段尚无发言）", "(nothing has been said in this stage yet)")
    lines = [f"[{turn['seq']}] {turn['speaker']}: {quoted(turn['text'])}" for turn in view.dialogue]
    limit = dialogue_budget(view) if budget is None else min(budget, dialogue_budget(view))
    start = window_start([estimate_tokens(line) for line in lines], limit)
    if documents_read:
        read = _document_acts(view.procedure)
        lines = [
            f"[{turn['seq']}] {turn['speaker']}: {_say(view, *DOCUMENT_READ)}" if turn.get("act") in read else line
            for turn, line in zip(view.dialogue, lines, strict=True)
        ]
    recent = lines[start:]
    if not start:
        return "\n".join(recent)
    if not whole or earlier_chars == 0:
        return "\n".join([_left_out(view, start), *recent])
    note = _left_out(view, start)
    if earlier_chars is None:
        before = lines[:start]
        earlier = _say(
            view,
            f"（此处补上此前的 {start} 行，在上面各行之前）",
            f"(here are the {start} earlier lines, said before those above)",
        )
    else:
        before = [_opening(turn, earlier_chars) for turn in view.dialogue[:start]]
        earlier = _say(
            view,
            f"（此处补上此前 {start} 行的开头，在上面各行之前）",
            f"(here are the openings of the {start} earlier lines, said before those above)",
        )
    return "\n".join([note, *recent, earlier, *before])


def _opening(turn: dict, chars: int) -> str:
    """A line summarised as its first ``chars`` characters."""
    text = turn["text"] if len(turn["text"]) <= chars else f"{turn['text'][:chars]}…"
    return f"[{turn['seq']}] {turn['speaker']}: {quoted(text)}"


DOCUMENT_READ = (
    "（所写文书全文已在本次记忆更新的第一步读过，此处从略）",
    "(the document written here, read whole in this memory update's first step; left out here)",
)


@cache
def _document_acts(procedure: str) -> frozenset[str]:
    """The acts whose turn is a document: a stage's closing, the criminal judgment."""
    stages = procedure_for(procedure).stages
    closing = {stage.closing.act for stage in stages if stage.closing and stage.artifact}
    slots = {slot.act for stage in stages for phase in stage.phases for slot in phase.slots if slot.artifact}
    return frozenset(closing | slots)


def dialogue_budget(view: SeatView) -> int:
    """The tokens the window may take: ``RECENT_TOKENS`` less the memory the prompt shows, up
    to ``MEMORY_TOKENS`` of it (the memory stands for the lines left out)."""
    if view.memory is None:
        return RECENT_TOKENS
    return RECENT_TOKENS - min(memory_shown(view.memory).tokens, MEMORY_TOKENS)


def window_start(sizes: list[int], budget: int) -> int:
    """Where the window over lines of ``sizes`` tokens starts: it grows line by line from the
    first, and a line that would take it past ``RECENT_LINES`` lines or ``budget`` tokens
    starts it again from the last lines (``_restart``)."""
    start, size = 0, 0
    for end, line in enumerate(sizes, start=1):
        size += line
        if end - start > RECENT_LINES or size > budget:
            start = _restart(sizes, end, budget // 2)
            size = sum(sizes[start:end])
    return start


def _restart(sizes: list[int], end: int, budget: int) -> int:
    """The start of the last lines before ``end``: at most ``RESTART_LINES`` of them within
    ``budget`` tokens, the last one always."""
    start, size = end - 1, sizes[end - 1]
    while end - start < RESTART_LINES and start > 0 and size + sizes[start - 1] <= budget:
        start -= 1
        size += sizes[start]
    return start


def _left_out(view: SeatView, count: int) -> str:
    """The line that says how many earlier lines the window leaves out, and what stands for
    them."""
    if view.memory is None:
        return _say(
            view,
            f"（此前 {count} 行发言从略，请依据上面的案件材料和下面的最近发言）",
            f"({count} earlier lines are left out; rely on the case materials above and the recent lines below)",
        )
    return _say(
        view,
        f"（此前 {count} 行发言从略，其要点以你的案件记忆为准）",
        f"({count} earlier lines are left out; your case memory above stands for them)",
    )
