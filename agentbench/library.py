"""The research environment of the agent tasks: LegalSim's own corpora behind four tools, as
LegalAgentBench exposes its corpora ("LegalAgentBench: Evaluating LLM Agents in Legal
Domain", arXiv 2412.17259, §3.2; docs/agent-tasks.md).

- ``search_statutes``, ``check_citations`` and ``search_cases`` are the trial agents' own
  tools, called through ``agents.tools.toolbox.ToolBox`` exactly as an agent's tool call is:
  the statute corpus (BM25) and its article lookup, and the precedent search, here over the
  demo case library read from ``demo/cases/`` (no database).
- ``read_case`` is this package's: a library case's public record (court, case number, the
  articles its judgment cites, its disposition or sentence), found by id, title or case
  number. A research task has no case being tried, so a library case is read as a published
  judgment; in a trial the toolbox still never shows the case being tried.

Every tool answers as the toolbox does: JSON text ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": ...}``, never an exception.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from agents.tools.precedents import PrecedentIndex
from agents.tools.toolbox import ToolBox
from court.engine.visibility import SeatView
from court.procedures.names import sentence_words

TOOLS: dict[str, tuple[str, str]] = {
    "search_statutes": (
        "query",
        "search the PRC statute corpus (Chinese) for the articles most relevant to a question; "
        "returns each article's citation and text",
    ),
    "check_citations": (
        "text",
        "read articles by citation: every 《law》第N条 in the input is looked up and its text returned",
    ),
    "search_cases": (
        "query",
        "search the case library for the cases most like some facts, claims or a charge; returns each "
        "case's id, title, cause of action, key facts, holding and outcome",
    ),
    "read_case": (
        "case",
        "read one library case by its id, title or case number: court, case number, date, cause of "
        "action, the articles its judgment cites and its disposition or sentence",
    ),
}
"""Tool name -> (the argument the input fills, what the tool does)."""
RESEARCHER = SeatView(
    seat="researcher",
    role="researcher",
    side="",
    stage="",
    unit="",
    phase="",
    procedure="",
    language="zh",
    case={"id": "", "cause_of_action": ""},
)
"""The seat a task's tool calls run for: no case being tried, no cause of action, no memory."""


def demo_library_dir() -> Path:
    return Path(settings.BASE_DIR) / "demo" / "cases"


@cache
def library_records(directory: Path | None = None) -> tuple[dict[str, Any], ...]:
    """The case files of the library (``demo/cases/`` unless given), sorted by file name."""
    folder = directory or demo_library_dir()
    return tuple(json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json")))


@cache
def library_index(directory: Path | None = None) -> PrecedentIndex:
    return PrecedentIndex.build(library_records(directory))


def case_public_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """What ``read_case`` returns of a case file."""
    metadata = record.get("metadata") or {}
    first = record.get("first_instance") or {}
    second = record.get("second_instance") or {}
    language = str(record.get("language") or "zh")
    public: dict[str, Any] = {
        "id": record["id"],
        "title": record.get("title", ""),
        "procedure": record.get("procedure", ""),
        "court": metadata.get("court_name", ""),
        "case_number": metadata.get("case_number", ""),
        "judgment_date": metadata.get("judgment_date", ""),
        "cause_of_action": record.get("cause_of_action", ""),
    }
    if record.get("procedure") == "criminal":
        public["charges"] = list(record.get("charges") or [])
        public["legal_references"] = list(record.get("legal_references") or [])
        public["sentence"] = sentence_words(dict(record["sentence"]), language) if record.get("sentence") else ""
        return public
    public["legal_references"] = list(first.get("legal_references") or [])
    public["disposition"] = first.get("disposition", "")
    if second.get("final_disposition"):
        public["final_disposition"] = second["final_disposition"]
    return public


def case_find(text: str, records: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """The library case ``text`` names: its id, title or case number, given alone or inside
    a longer text (the longest name found wins). Raises ValueError naming what to give."""
    wanted = text.strip()
    if not wanted:
        raise ValueError("give a case's id, title or case number")
    found = []
    for record in records:
        names = [record["id"], record.get("title", ""), (record.get("metadata") or {}).get("case_number", "")]
        found += [(len(name), record) for name in names if name and (name == wanted or name in wanted)]
    if not found:
        raise ValueError(f"no library case has the id, title or case number {wanted[:80]!r}")
    return max(found, key=lambda match: match[0])[1]


@dataclass
class ResearchTools:
    """The four tools over one library; ``call`` takes the tool's name and its one input."""

    records: tuple[dict[str, Any], ...]
    index: PrecedentIndex

    @classmethod
    def demo(cls) -> ResearchTools:
        return cls(library_records(), library_index())

    def call(self, name: str, argument: str) -> str:
        """The observation of ``name[argument]``, as JSON text."""
        if name not in TOOLS:
            return _failure(f"unknown tool {name!r}; available: {', '.join(TOOLS)}")
        if name == "read_case":
            try:
                found = case_public_record(case_find(argument, self.records))
            except ValueError as error:
                return _failure(str(error))
            return json.dumps({"ok": True, "result": found}, ensure_ascii=False)
        toolbox = ToolBox(RESEARCHER, case_search=self._case_search)
        return toolbox.call(name, json.dumps({TOOLS[name][0]: argument}, ensure_ascii=False))

    def _case_search(self, query: str, *, exclude: str, cause_of_action: str, top_k: int) -> dict[str, Any]:
        return self.index.search(query, exclude=exclude, cause_of_action=cause_of_action, top_k=top_k).as_dict()


def _failure(message: str) -> str:
    return json.dumps({"ok": False, "error": message}, ensure_ascii=False)
