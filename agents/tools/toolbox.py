"""The tools an agent may call in one step (LegalWorld, Table 12; docs/sources.md), as function
calls.

A toolbox is built per step from the seat's view, so a tool can only reach what the seat may
see. At most ``MAX_TOOL_CALLS`` calls per step; a call beyond that, an unknown tool or bad
arguments come back to the agent as an explicit failure message, never as an exception.
Memory writes are collected as ``revise``/``expand`` operations for the engine to apply.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agents.memory_budget import memory_shown
from agents.skills import loaded_skills
from agents.tools.citations import citations_check
from agents.tools.statutes import statute_search
from court.documents import DOCUMENTS, document_compose, document_missing
from court.engine.memory import MEMORY_KEYS, MemoryOp, MemoryOperationError, memory_apply
from court.engine.visibility import SeatView
from legalsim.json_input import loads_untrusted

MAX_TOOL_CALLS = 8
CaseSearch = Callable[..., dict[str, Any]]
"""``(query, *, exclude, cause_of_action, top_k)`` -> ``{"cases", "searched", "message"?}``
(``trials.caselibrary.precedent_library.precedent_search``); ``exclude`` is the case being tried."""


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


_STRING = {"type": "string"}
_ENTRIES = {"type": "array", "items": {"type": "string"}}


def _export_spec(kinds: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """``export_document`` for the documents ``kinds``, their section ids in its description."""
    ids = "; ".join(f"{kind}: {', '.join(section.id for section in DOCUMENTS[kind].sections)}" for kind in kinds)
    return (
        f"Assemble a document from its sections by id ({ids}); reports missing sections.",
        _schema(
            {"kind": {"type": "string", "enum": list(kinds)}, "sections": {"type": "object"}}, ["kind", "sections"]
        ),
    )


_SCOPE = 'cause_of_action: this case\'s unless given ("" for none).'
_SEARCH = {"query": _STRING, "top_k": {"type": "integer", "minimum": 1, "maximum": 10}, "cause_of_action": _STRING}
_MEMORY_WRITE = _schema({"key": {"type": "string", "enum": list(MEMORY_KEYS)}, "entries": _ENTRIES}, ["key", "entries"])
TOOL_SPECS: dict[str, tuple[str, dict[str, Any]]] = {
    "search_statutes": (
        "Search the PRC statutes for the articles on a Chinese query, one claim or point in dispute a line, within "
        f"the cause's governing laws and the laws the query names. {_SCOPE} Gives each article's opening sentences.",
        _schema(_SEARCH, ["query"]),
    ),
    "check_citations": (
        "Check every 《law》第N条 citation in a text against the statutes; gives its text, flags wrong numbers.",
        _schema({"text": _STRING}, ["text"]),
    ),
    "search_cases": (
        f"Search the case library (BM25) for precedents like the query's facts, claims or charge. {_SCOPE} Gives "
        "each case's key facts, holding and outcome, never the case being tried.",
        _schema(_SEARCH | {"top_k": {"type": "integer", "minimum": 1, "maximum": 5}}, ["query"]),
    ),
    "read_memory": ("Read your whole case memory.", _schema({}, [])),
    "memory_expand": ("Append entries to a key of your memory.", _MEMORY_WRITE),
    "memory_revise": ("Replace a key's entries.", _MEMORY_WRITE),
    "read_artifact": ("Read in full a document you may see, by its kind.", _schema({"kind": _STRING}, ["kind"])),
    "export_document": _export_spec(tuple(DOCUMENTS)),
    "compare_documents": (
        "List what changed between two documents you may see (by kind).",
        _schema({"first": _STRING, "second": _STRING}, ["first", "second"]),
    ),
}
MEMORY_TOOLS = ("read_memory", "memory_expand", "memory_revise")
MEMORY_WRITES = ("memory_expand", "memory_revise")
"""What a stage-end memory update is offered: its prompt shows the memory whole, so no
``read_memory``."""
RESEARCH_ROLES = ("lawyer", "judge", "prosecutor", "attorney")
"""The seats that look law up; the parties and the clerk speak from what they know."""
RESEARCH_TOOLS = ("search_statutes", "check_citations", "read_artifact")


def turn_tools(view: SeatView, *, act: str, artifact: str | None, library: bool) -> tuple[str, ...]:
    """The tools a turn is offered, no more than it can use: the tools of the skill cards it
    has loaded (``loaded_skills``), the statutes and the documents for the legal professionals
    at any turn, ``read_artifact`` for the others, and ``export_document`` only for the document
    the turn writes. No memory writes, made at the stage's end; the prompt carries the memory,
    ``read_memory`` only when it shows part of it (``memory_reading``). The case library is
    searched while planning (``strategy.STRATEGY_TOOLS``)."""
    named = {tool for card in loaded_skills(view, act) for tool in card.tools}
    named |= set(RESEARCH_TOOLS if view.role in RESEARCH_ROLES else ("read_artifact",))
    named = (named - {"export_document", *MEMORY_TOOLS}) | ({"export_document"} if artifact else set())
    named |= set(memory_reading(view))
    return usable_tools(tuple(name for name in TOOL_SPECS if name in named), view, library=library)


def memory_reading(view: SeatView) -> tuple[str, ...]:
    """``read_memory`` when the prompt shows part of the seat's memory (``memory_shown``), else
    nothing: a memory shown whole needs no reading."""
    return ("read_memory",) if view.memory is not None and memory_shown(view.memory).bounded else ()


def usable_tools(names: tuple[str, ...], view: SeatView, *, library: bool) -> tuple[str, ...]:
    """``names`` less the tools that could only fail: ``search_cases`` without a case library,
    ``read_artifact`` with no document to read, ``compare_documents`` with fewer than two."""
    unusable = {
        "search_cases": not library,
        "read_artifact": not view.artifacts,
        "compare_documents": len(view.artifacts) < 2,
    }
    return tuple(name for name in names if not unusable.get(name, False))


def tool_definitions(names: tuple[str, ...] | None = None, *, document: str | None = None) -> list[dict[str, Any]]:
    """The tools in the chat-completions ``tools`` format; ``export_document`` for ``document``
    only when one is given."""
    specs = TOOL_SPECS | ({"export_document": _export_spec((document,))} if document else {})
    return [
        {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}
        for name, (description, parameters) in specs.items()
        if names is None or name in names
    ]


@dataclass
class ToolBox:
    view: SeatView
    case_search: CaseSearch | None = None
    calls: int = 0
    memory_ops: list[MemoryOp] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._memory = {key: list(entries) for key, entries in (self.view.memory or {}).items()}

    def call(self, name: str, arguments: str) -> str:
        """Run one tool call and return what the agent reads back (JSON text)."""
        self.calls += 1
        if self.calls > MAX_TOOL_CALLS:
            return self._failure(name, f"tool call limit reached: at most {MAX_TOOL_CALLS} calls per step; answer now")
        handler = getattr(self, f"_tool_{name}", None)
        if name not in TOOL_SPECS or handler is None:
            return self._failure(name, f"unknown tool {name!r}; available: {', '.join(TOOL_SPECS)}")
        try:
            args = loads_untrusted(arguments or "{}")
            if not isinstance(args, dict):
                raise TypeError("arguments must be a JSON object")
            result = handler(**args)
        except (ValueError, TypeError, KeyError, MemoryOperationError) as error:
            return self._failure(name, f"bad arguments: {error}")
        self.log.append({"tool": name, "ok": True})
        return json.dumps({"ok": True, "result": result}, ensure_ascii=False)

    def _failure(self, name: str, message: str) -> str:
        self.log.append({"tool": name, "ok": False, "error": message})
        return json.dumps({"ok": False, "error": message}, ensure_ascii=False)

    def _tool_search_statutes(self, query: str, top_k: int = 5, cause_of_action: str | None = None) -> list[dict]:
        cause = self.view.case.get("cause_of_action", "") if cause_of_action is None else str(cause_of_action)
        hits = statute_search(str(query), top_k=max(1, min(int(top_k), 10)), cause_of_action=cause)
        return [hit.as_tool_result() for hit in hits]

    def _tool_check_citations(self, text: str) -> list[dict]:
        return [check.__dict__ for check in citations_check(str(text))]

    def _tool_search_cases(self, query: str, top_k: int = 3, cause_of_action: str | None = None) -> dict[str, Any]:
        if self.case_search is None:
            raise ValueError("the case library is not available in this run")
        cause = self.view.case.get("cause_of_action", "") if cause_of_action is None else str(cause_of_action)
        return self.case_search(
            str(query), exclude=str(self.view.case.get("id", "")), cause_of_action=cause, top_k=int(top_k)
        )

    def _tool_read_memory(self) -> dict[str, list[str]]:
        if self.view.memory is None:
            raise ValueError("your role keeps no case memory")
        return self._memory

    def _memory_write(self, op: str, key: str, entries: list[str]) -> dict[str, int | str]:
        """Apply one write; the result is how many entries the key now holds, not the entries
        again: the next prompt of the update shows the memory as written."""
        if self.view.memory is None:
            raise ValueError("your role keeps no case memory")
        write = MemoryOp(op, key, tuple(str(entry) for entry in entries))
        memory_apply(self._memory, write)
        self.memory_ops.append(write)
        return {"key": key, "entries": len(self._memory[key])}

    def _tool_memory_expand(self, key: str, entries: list[str]) -> dict[str, int | str]:
        return self._memory_write("expand", key, entries)

    def _tool_memory_revise(self, key: str, entries: list[str]) -> dict[str, int | str]:
        return self._memory_write("revise", key, entries)

    def _visible(self, kind: str) -> dict[str, str]:
        matches = [artifact for artifact in self.view.artifacts if artifact["kind"] == kind]
        if not matches:
            visible = ", ".join(sorted({artifact["kind"] for artifact in self.view.artifacts})) or "none"
            raise ValueError(f"no document {kind!r} you may see; visible: {visible}")
        return matches[-1]

    def _tool_read_artifact(self, kind: str) -> dict[str, str]:
        artifact = self._visible(kind)
        return {"kind": artifact["kind"], "title": artifact["title"], "text": artifact["text"]}

    def _tool_export_document(self, kind: str, sections: dict[str, str]) -> dict[str, Any]:
        text = document_compose(kind, self.view.language, sections)
        return {"kind": kind, "text": text, "missing_sections": document_missing(kind, sections)}

    def _tool_compare_documents(self, first: str, second: str) -> dict[str, Any]:
        a, b = self._visible(first), self._visible(second)
        diff = difflib.unified_diff(a["text"].splitlines(), b["text"].splitlines(), first, second, lineterm="", n=0)
        changes = [line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))]
        return {"changed_lines": len(changes), "changes": changes[:60]}
