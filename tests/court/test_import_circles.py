"""The machine calls the engine's rules and they never call it back (issue #47): the objection,
visibility, round and speaker rules take the state they need and return a result. That no
module of the project imports itself round a circle is ``tests/test_architecture.py``'s."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ROOT
from tests.import_graph import module_graph

RULES = ("objections", "rounds", "speakers", "stage_order", "view_cache", "visibility", "errors", "transitions")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), list(graph[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph[module])
    return seen


def test_the_engine_rules_never_reach_the_machine():
    sources = {module_name(path): path.read_text(encoding="utf-8") for path in (ROOT / "court").rglob("*.py")}
    graph = module_graph(sources)
    reaching = [rule for rule in RULES if "court.engine.machine" in reached(graph, f"court.engine.{rule}")]
    assert reaching == []
