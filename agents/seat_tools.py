"""The tool catalogue a seat's calls are sent with, fixed for the seat over a stage so that a
server's prompt cache, which holds the catalogue with the system message, serves every call
of the stage (docs/llm-servers.md, "Prompt layout"); and what one call may use of it.

The catalogue holds every tool a call of the seat may use in the stage: the research tools of
its role, those of every skill card of its role in the stage, the memory writes for a seat that
keeps memory, ``read_memory`` when its prompts show part of the memory, the planning tools for
a seat that keeps a strategy, and ``export_document`` for the document the seat writes in the
stage. A call is still told by its failure when it uses a tool of the
catalogue it may not (``refused``): a turn writes no memory, a memory update only writes it."""

from __future__ import annotations

import json

from agents.skills import SKILLS
from agents.strategy import STRATEGY_TOOLS
from agents.tools.toolbox import (
    MEMORY_TOOLS,
    MEMORY_WRITES,
    RESEARCH_ROLES,
    RESEARCH_TOOLS,
    TOOL_SPECS,
    memory_reading,
    tool_definitions,
    usable_tools,
)
from court.engine.visibility import SeatView
from court.procedures import procedure_for
from legalsim.llm import ToolCall

TARGET_LAWYER = "target_lawyer"
"""The seat a procedure names for the target's counsel, who drafts (``court.procedures.civil``)."""


def stage_catalogue(view: SeatView, *, library: bool, planning: bool, document: str | None = None) -> list[dict]:
    """The tool definitions of the seat's calls in ``view``'s stage (``planning``: it keeps
    a strategy), with ``export_document`` for ``document`` when the call writes one."""
    named = set(RESEARCH_TOOLS if view.role in RESEARCH_ROLES else ("read_artifact",))
    named |= {
        tool
        for card in SKILLS
        if view.role in card.roles and ("*" in card.stages or view.stage in card.stages)
        for tool in card.tools
    }
    named -= {"export_document", *MEMORY_TOOLS}
    named |= set(MEMORY_WRITES if view.memory is not None else ()) | set(memory_reading(view))
    named |= set(STRATEGY_TOOLS if planning else ()) | ({"export_document"} if document else set())
    names = usable_tools(tuple(name for name in TOOL_SPECS if name in named), view, library=library)
    return tool_definitions(names, document=document)


def documents_written(view: SeatView) -> list[str]:
    """The documents the seat writes in ``view``'s stage: the stage's own when its closing is
    the seat's (the target's counsel drafting), and those of its slots."""
    stage = procedure_for(view.procedure).stage(view.stage)
    slots = [(stage.closing, stage.artifact)] if stage.closing and stage.artifact else []
    slots += [(slot, slot.artifact) for phase in stage.phases for slot in phase.slots if slot.artifact]
    return [
        kind for slot, kind in slots if slot.seat == view.seat or (slot.seat == TARGET_LAWYER and view.role == "lawyer")
    ]


def refused(call: ToolCall, allowed: tuple[str, ...]) -> str | None:
    """The failure a call of a tool this step may not use reads back, or None when it may."""
    if call.name in allowed or call.name not in TOOL_SPECS:
        return None
    return json.dumps(
        {"ok": False, "error": f"{call.name} is not for this step; this step may use: {', '.join(allowed) or 'none'}"},
        ensure_ascii=False,
    )
