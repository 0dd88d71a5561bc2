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

from agents.tools.statutes import citations_check, statute_search
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

TOOL_SPECS: dict[str, tuple[str, dict[str, Any]]] = {
    "search_statutes": (
        "Search the PRC statute corpus (BM25, Chinese) for the articles most relevant to a query. Put each "
        "claim and each point in dispute on a line of its own (each line is ranked on its own, then merged). "
        "When the cause of action (this case's unless you give one; an empty string for none) is one the "
        "governing-law table knows, only its governing laws and the laws your query names are searched.",
        _schema(
            {"query": _STRING, "top_k": {"type": "integer", "minimum": 1, "maximum": 10}, "cause_of_action": _STRING},
            ["query"],
        ),
    ),
    "check_citations": (
        "Check every 《law》第N条 citation in a text against the statute corpus; wrong numbers are flagged.",
        _schema({"text": _STRING}, ["text"]),
    ),
    "search_cases": (
        "Search the case library for precedents: cases like this one by their facts and holdings (BM25, "
        "re-ranked by agreement of the cause of action or charge and by the key fact terms shared). Give "
        "the facts, claims or charge as the query; the cause of action is this case's unless you give one "
        "(an empty string for none). Returns up to top_k cases, each with its id, title, cause of action "
        "(charges), key facts, holding and outcome (that case's disposition or sentence), and a message when "
        "nothing matched or the query was cut. The case being tried is never among them.",
        _schema(
            {"query": _STRING, "top_k": {"type": "integer", "minimum": 1, "maximum": 5}, "cause_of_action": _STRING},
            ["query"],
        ),
    ),
    "read_memory": ("Read your own global case memory.", _schema({}, [])),
    "memory_expand": (
        f"Append entries to one key of your memory. Keys: {', '.join(MEMORY_KEYS)}.",
        _schema({"key": {"type": "string", "enum": list(MEMORY_KEYS)}, "entries": _ENTRIES}, ["key", "entries"]),
    ),
    "memory_revise": (
        "Replace everything under one key of your memory with the given entries.",
        _schema({"key": {"type": "string", "enum": list(MEMORY_KEYS)}, "entries": _ENTRIES}, ["key", "entries"]),
    ),
    "read_artifact": (
        "Read the full text of a document of this trial you may see (by kind, e.g. complaint, first_instance_judgment).",
        _schema({"kind": _STRING}, ["kind"]),
    ),
    "export_document": (
        "Assemble a document (title, then its sections in the standard order, under localised headings) from "
        "sections keyed by id; reports missing sections. Ids: "
        + "; ".join(f"{kind}: {', '.join(s.id for s in template.sections)}" for kind, template in DOCUMENTS.items()),
        _schema(
            {"kind": {"type": "string", "enum": list(DOCUMENTS)}, "sections": {"type": "object"}},
            ["kind", "sections"],
        ),
    ),
    "compare_documents": (
        "Compare two documents of this trial you may see (by kind) and list what changed.",
        _schema({"first": _STRING, "second": _STRING}, ["first", "second"]),
    ),
}
MEMORY_TOOLS = ("read_memory", "memory_expand", "memory_revise")


def tool_definitions(names: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """The tools in the chat-completions ``tools`` format."""
    return [
        {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}
        for name, (description, parameters) in TOOL_SPECS.items()
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
        return [hit.as_dict() for hit in hits]

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

    def _memory_write(self, op: str, key: str, entries: list[str]) -> dict[str, list[str]]:
        if self.view.memory is None:
            raise ValueError("your role keeps no case memory")
        write = MemoryOp(op, key, tuple(str(entry) for entry in entries))
        memory_apply(self._memory, write)
        self.memory_ops.append(write)
        return {key: self._memory[key]}

    def _tool_memory_expand(self, key: str, entries: list[str]) -> dict[str, list[str]]:
        return self._memory_write("expand", key, entries)

    def _tool_memory_revise(self, key: str, entries: list[str]) -> dict[str, list[str]]:
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
