"""The shape of the code (architecture issue): the engine stands alone, and no two packages or
apps import each other, directly or round a circle."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from tests.conftest import ROOT

APPS = ("trials", "annotation", "classroom", "api", "agentbench", "legalsim")
COMPOSITION = {"legalsim.settings", "legalsim.urls", "legalsim.asgi", "legalsim.wsgi", "legalsim.celery"}
"""The project's composition root: it wires the apps together, so it may import any of them."""


def test_the_engine_loads_without_django_or_the_agents():
    probe = (
        "import sys, trials.engine.machine, trials.engine.visibility, trials.engine.participants;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django' or m.startswith('trials.agents')))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(module: str) -> str:
    path = ROOT.joinpath(*module.split("."))
    return module if (path / "__init__.py").exists() else module.rpartition(".")[0]


def imports() -> list[tuple[str, str]]:
    """(importing module, imported module) for every import of the apps' own code, lazy ones included."""
    found = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            source = module_name(path)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                found += [(source, name) for name in names if name.split(".")[0] in APPS]
    return found


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A circle in the graph, or None."""
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = 1
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target] if target in path else [node, target]
            if target not in state and (found := visit(target, [*path, target])):
                return found
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (found := visit(start, [start])):
            return found
    return None


def test_no_two_apps_import_each_other():
    """Trials knows nothing of annotation (they meet through ``trial_finished``); the shared
    ``legalsim`` modules (roles, the LLM client, readers) import no app."""
    edges: dict[str, set[str]] = defaultdict(set)
    for source, target in imports():
        if source not in COMPOSITION and source.split(".")[0] != target.split(".")[0]:
            edges[source.split(".")[0]].add(target.split(".")[0])
    assert cycle(edges) is None, f"apps import each other: {' -> '.join(cycle(edges))}"


def test_no_two_packages_of_an_app_import_each_other():
    """Within an app, its packages (engine, agents, tools, scoring, procedures...) form no circle;
    the app's own top-level modules (models, services, views) may use them all."""
    edges: dict[str, set[str]] = defaultdict(set)
    for source, target in imports():
        app = source.split(".")[0]
        if target.split(".")[0] != app:
            continue
        source_package, target_package = package_of(source), package_of(target)
        if app not in (source_package, target_package) and source_package != target_package:
            edges[source_package].add(target_package)
    assert cycle(edges) is None, f"packages import each other: {' -> '.join(cycle(edges))}"


MUTABLE_FACTORIES = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "WeakValueDictionary"})


def _empty_container(node: ast.expr | None) -> bool:
    if isinstance(node, ast.Dict):
        return not node.keys
    if isinstance(node, ast.List | ast.Set):
        return not node.elts
    if isinstance(node, ast.Call) and not node.args:
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        return name in MUTABLE_FACTORIES
    return False


def module_state(tree: ast.Module) -> list[str]:
    """Module- and class-level names bound to an empty mutable container: state that lives as
    long as the process, filled as it runs (a trial id -> something, most often)."""
    bodies = [tree.body, *(node.body for node in tree.body if isinstance(node, ast.ClassDef))]
    return [
        ast.unparse(node).split("=")[0].strip()
        for body in bodies
        for node in body
        if isinstance(node, ast.Assign | ast.AnnAssign) and _empty_container(node.value)
    ]


def test_the_state_scan_finds_what_the_live_room_once_kept_in_modules():
    """The scan below is not vacuous: the dictionaries the driver kept before ``trials.live``."""
    old_driver = "in_progress: dict[int, dict] = {}\n_drivers = dict()\nclass _Remote:\n    listening: dict = {}\n"
    assert module_state(ast.parse(old_driver)) == ["in_progress: dict[int, dict]", "_drivers", "listening: dict"]
    assert module_state(ast.parse("GROUNDS = {'hearsay': 1}\nLIMIT = 5\n")) == []


def test_live_trial_state_lives_only_in_the_live_package():
    """What a process knows of a trial while it is played lives on its ``LiveSession``
    (``trials.live.session``): no other module of the trials app keeps state of its own."""
    live = ROOT / "trials" / "live"
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in (ROOT / "trials").rglob("*.py")
        if "migrations" not in path.parts and live not in path.parents
        for name in module_state(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_the_consumer_reaches_the_driver_only_to_start_it():
    """The socket parses, checks and hands a message to the trial's session; of the driver it
    knows only the call that starts one."""
    tree = ast.parse((ROOT / "trials" / "consumers.py").read_text(encoding="utf-8"))
    from_driver = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "trials.live.driver"
        for alias in node.names
    }
    modules = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in ("trials.live", "trials")
        for alias in node.names
    }
    assert from_driver == {"ensure_driver"}
    assert "driver" not in modules
