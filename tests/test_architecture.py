"""The shape of the code (architecture issue): the engine stands alone, and no two packages or
apps import each other, directly or round a circle."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from tests.conftest import ROOT
from tests.import_graph import circles, module_graph

APPS = (
    "court",
    "agents",
    "trials",
    "scoring",
    "annotation",
    "classroom",
    "api",
    "agentbench",
    "arena",
    "legalsim",
)
COMPOSITION = {"legalsim.settings", "legalsim.urls", "legalsim.asgi", "legalsim.wsgi", "legalsim.celery"}
"""The project's composition root: it wires the apps together, so it may import any of them."""


def test_the_court_loads_without_django_the_agents_or_the_trials_app():
    """``court`` (procedures, engine, documents, agenda, legal text) is plain Python: importing
    every module of it loads nothing of Django, of the agents or of the trials app."""
    probe = (
        "import sys, pkgutil, importlib, court;"
        "[importlib.import_module(m.name) for m in pkgutil.walk_packages(court.__path__, 'court.')];"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'agents', 'trials'}))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


LAYERS = {"court": {"court"}, "agents": {"court", "agents", "legalsim"}}
"""What each package below the apps may import of the project: the court only itself, the
agents the court and the shared ``legalsim`` modules (the LLM client, readers); they are
handed what the database holds by ``trials``."""


def test_the_court_and_the_agents_import_no_app():
    found = [
        f"{source} imports {target}"
        for source, target in imports()
        if source.split(".")[0] in LAYERS and target.split(".")[0] not in LAYERS[source.split(".")[0]]
    ]
    assert found == []


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(module: str) -> str:
    path = ROOT.joinpath(*module.split("."))
    return module if (path / "__init__.py").exists() else module.rpartition(".")[0]


def imports() -> list[tuple[str, str]]:
    """(importing module, imported module) for every import of the apps' own code, lazy ones included."""
    return [(source, target) for source, targets in module_graph(app_sources()).items() for target in targets]


def test_no_two_apps_import_each_other():
    """Trials knows nothing of annotation (they meet through ``trial_finished``); the shared
    ``legalsim`` modules (roles, the LLM client, readers) import no app."""
    edges: dict[str, set[str]] = defaultdict(set)
    for source, target in imports():
        if source not in COMPOSITION and source.split(".")[0] != target.split(".")[0]:
            edges[source.split(".")[0]].add(target.split(".")[0])
    assert circles(edges) == [], "apps import each other"


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
    assert circles(edges) == [], "packages import each other"


def test_the_circle_scan_finds_a_lazy_import_round_a_circle():
    """Not vacuous: ``trial_create`` imported the preparation, which imported the services back
    (issue #47); ``from package import name`` is ``package.name`` if a module, else the package."""
    former = {
        "trials": "",
        "trials.services": "def trial_create():\n    from trials.preparation import preparation_enqueue\n",
        "trials.preparation": "from trials.services import trial_agents\nfrom trials import tasks\n",
        "trials.tasks": "import logging\nfrom trials import preparation, Trial\n",
    }
    assert module_graph(former)["trials.tasks"] == {"trials", "trials.preparation"}
    assert circles(module_graph(former)) == [
        "trials.preparation -> trials.services -> trials.preparation",
        "trials.tasks -> trials.preparation -> trials.tasks",
    ]


def test_no_module_imports_itself_round_a_circle():
    """No module of the project's code imports, directly or through others, one that imports
    it back, lazy imports included (issue #47; docs/architecture.md, One-way dependencies)."""
    found = circles(module_graph(app_sources()))
    assert found == [], "import circles:\n" + "\n".join(found)


LIVE_ROOM = ("trials.live", "trials.consumers", "trials.routing", "trials.protocol")
"""The live room: the trial's session and driver, its socket, routes and frames."""


def chains_into(edges: dict[str, set[str]], start: str, targets: tuple[str, ...]) -> list[str]:
    """Every module of ``start`` (a top-level package) that reaches a module of ``targets``
    (or a module inside one) through a chain of imports, shortest chain first, as
    ``module -> ... -> target``."""

    def within(module: str) -> bool:
        return any(module == target or module.startswith(f"{target}.") for target in targets)

    found = []
    for source in sorted(module for module in edges if module.split(".")[0] == start):
        paths, seen = [[source]], {source}
        while paths and not within(paths[0][-1]):
            path = paths.pop(0)
            for target in sorted(edges.get(path[-1], ())):
                if target not in seen:
                    seen.add(target)
                    paths.append([*path, target])
        found += [" -> ".join(paths[0])] if paths else []
    return found


def test_the_chain_scan_follows_imports_through_other_modules():
    """The scan below is not vacuous: a scorecard page that read the trial through the room's
    services would be caught, however many modules stand between."""
    edges = {
        "scoring.views": {"trials.views", "scoring.selectors"},
        "trials.views": {"trials.live.services"},
        "scoring.selectors": {"trials.models"},
    }
    assert chains_into(edges, "scoring", LIVE_ROOM) == ["scoring.views -> trials.views -> trials.live.services"]


def test_scoring_knows_nothing_of_the_live_room():
    """Scoring reads a trial through its records (the models, the engine's state, the
    procedures) and who may read it through ``trials.access``; no module of it reaches the
    live room, directly or through another module, so the scorecards, the gradebook and the
    batch scorers run without the room and the room can change without them."""
    edges: dict[str, set[str]] = defaultdict(set)
    for source, target in imports():
        edges[source].add(target)
    assert chains_into(edges, "scoring", LIVE_ROOM) == []


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
    (``trials.live.session``): no other module of the trials app, the court or the agents
    keeps state of its own."""
    live = ROOT / "trials" / "live"
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for package in ("trials", "court", "agents")
        for path in (ROOT / package).rglob("*.py")
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


WRITE_METHODS = {"save", "create", "get_or_create", "update_or_create", "bulk_create", "bulk_update", "delete"}
"""Methods that store or delete rows. ``update`` writes only when called on a queryset (a
dict's or a set's is a read's own business): see ``_queryset``."""
QUERYSET_METHODS = {"objects", "filter", "exclude", "all", "select_for_update", "select_related", "only"}


def _queryset(node: ast.expr) -> bool:
    """Whether ``node`` is a queryset chain: ``X.objects...``, ``something.filter(...)``."""
    while isinstance(node, ast.Call | ast.Attribute):
        if isinstance(node, ast.Attribute) and node.attr in QUERYSET_METHODS:
            return True
        node = node.func if isinstance(node, ast.Call) else node.value
    return False


def _writes(function: ast.AST) -> str | None:
    """The first write method ``function`` calls itself (its nested functions included), or None."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func.attr
            if method in WRITE_METHODS or (method == "update" and _queryset(node.func.value)):
                return method
    return None


def _calls(function: ast.AST, names: dict[str, str]) -> set[str]:
    """The project functions ``function`` calls, by full name, as far as the module's own
    definitions and imports tell (``f()``, ``module.f()``)."""
    called = set()
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in names:
            called.add(names[node.func.id])
        elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            if node.func.value.id in names:
                called.add(f"{names[node.func.value.id]}.{node.func.attr}")
    return called


def module_names(tree: ast.Module, module: str) -> dict[str, str]:
    """The full names of what a module's code may call by a short name: its own functions
    and what it imports."""
    names = {
        node.name: f"{module}.{node.name}"
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names |= {alias.asname or alias.name: f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            names |= {alias.asname or alias.name: alias.name for alias in node.names}
    return names


def read_modules_writing(sources: dict[str, str]) -> list[str]:
    """Every function of a read module (``selectors``, or a module whose docstring begins
    "Reads") that writes, itself or through any chain of project functions it calls, as
    ``reader -> ... -> writer (method)``. ``sources`` maps module names to their code."""
    writer: dict[str, str | None] = {}
    calls: dict[str, set[str]] = {}
    readers = []
    for module, source in sources.items():
        tree = ast.parse(source)
        names = module_names(tree, module)
        reads = module.rpartition(".")[2] == "selectors" or (ast.get_docstring(tree) or "").startswith("Reads ")
        for function in (node for node in tree.body if isinstance(node, ast.FunctionDef)):
            name = f"{module}.{function.name}"
            writer[name], calls[name] = _writes(function), _calls(function, names)
            readers += [name] if reads else []

    def path_to_write(name: str, seen: set[str]) -> list[str] | None:
        if writer.get(name):
            return [f"{name} ({writer[name]})"]
        for callee in sorted(calls.get(name, ())):
            if callee not in seen and (rest := path_to_write(callee, seen | {callee})):
                return [name, *rest]
        return None

    return [" -> ".join(path) for reader in readers if (path := path_to_write(reader, {reader}))]


def app_sources() -> dict[str, str]:
    return {
        module_name(path): path.read_text(encoding="utf-8")
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    }


def test_no_selector_writes():
    """A read path stores nothing: no function of a selectors module or of a module of reads
    (the gradebook) saves, creates, updates or deletes rows, directly or through the services
    it calls."""
    assert read_modules_writing(app_sources()) == []


def test_the_selector_write_check_follows_calls_into_services():
    """The check would have caught the gradebook storing a scorecard while reading it (issue
    #34): ``_scored`` called ``scorecard_for``, which stored one through ``trial_score``. A
    dict's ``update`` is no write."""
    former = {
        "trials.scoring.services": (
            "from trials.models import TrialScore\n"
            "def trial_score(*, trial, scorer, seat):\n"
            "    return TrialScore.objects.update_or_create(trial=trial, scorer=scorer, seat=seat)[0]\n"
            "def scorecard_for(trial, seat=None):\n"
            "    return trial.scores.filter(seat=seat).first() or trial_score(trial=trial, scorer='rule-based', seat=seat)\n"
        ),
        "classroom.gradebook": (
            '"""Reads of the gradebook."""\n'
            "from trials.scoring.services import scorecard_for\n"
            "def _scored(attempt):\n"
            "    return scorecard_for(attempt.trial)\n"
            "def _columns(row):\n"
            "    row.update(overall=1)\n"
            "    return row\n"
        ),
    }
    assert read_modules_writing(former) == [
        "classroom.gradebook._scored -> trials.scoring.services.scorecard_for"
        " -> trials.scoring.services.trial_score (update_or_create)"
    ]


NEXT_STEP = "court.engine.machine.next_step"
THE_LOOP = "court.engine.runner"
"""The one module that walks the engine: every trial, simulated, prepared or live, runs on its loop."""


def _asks_next_step(function: ast.AST, names: dict[str, str]) -> bool:
    """Whether ``function`` asks ``next_step`` what happens next. Checking a step it was given
    against it (``next_step(state) != step``: a write refusing a stale step) asks nothing."""
    checks = {
        id(operand)
        for node in ast.walk(function)
        if isinstance(node, ast.Compare) and all(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops)
        for operand in (node.left, *node.comparators)
    }
    return any(
        isinstance(node, ast.Call) and id(node) not in checks and NEXT_STEP in _calls(node, names)
        for node in ast.walk(function)
    )


def _functions(tree: ast.Module, module: str) -> dict[str, ast.AST]:
    """A module's functions and its classes' methods, by full name."""
    found = {}
    for node in tree.body:
        members = node.body if isinstance(node, ast.ClassDef) else [node]
        prefix = f"{module}.{node.name}." if isinstance(node, ast.ClassDef) else f"{module}."
        found |= {
            f"{prefix}{member.name}": member
            for member in members
            if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef)
        }
    return found


def engine_loops(sources: dict[str, str]) -> list[str]:
    """Every loop outside ``court.engine.runner`` that asks ``next_step`` what happens next,
    itself or through any chain of project functions, as ``function -> ... -> next_step``.
    Chains do not run through the engine (``court.engine``): it checks its own steps as it
    applies them, which walks nothing."""
    walks: dict[str, str] = {NEXT_STEP: ""}
    """function -> the function it reaches ``next_step`` through ("" for next_step itself)."""
    calls: dict[str, set[str]] = {}
    looped: dict[str, set[str]] = {}
    for module, source in sources.items():
        tree = ast.parse(source)
        names = module_names(tree, module)
        for name, function in _functions(tree, module).items():
            loops = [node for node in ast.walk(function) if isinstance(node, ast.For | ast.AsyncFor | ast.While)]
            looped[name] = set().union(*(_calls(loop, names) for loop in loops))
            if any(_asks_next_step(loop, names) for loop in loops):
                looped[name].add(NEXT_STEP)
            if module.startswith("court.engine"):
                continue
            if _asks_next_step(function, names):
                walks[name] = NEXT_STEP
            else:
                calls[name] = _calls(function, names) - {NEXT_STEP}
    while reached := {
        name: callee
        for name, callees in calls.items()
        if name not in walks
        for callee in sorted(callees)
        if callee in walks
    }:
        walks |= reached

    def chain(name: str) -> list[str]:
        return [name, *chain(walks[name])] if walks[name] else [name]

    found = {
        name: next((callee for callee in sorted(inside) if callee in walks), None) for name, inside in looped.items()
    }
    return [
        " -> ".join([name, *chain(callee)])
        for name, callee in sorted(found.items())
        if callee is not None and not name.startswith(f"{THE_LOOP}.")
    ]


def test_the_loop_scan_finds_the_driver_that_walked_the_engine_itself():
    """The scan below is not vacuous: the live driver before issue #34 walked the engine in a
    loop of its own, asking ``next_step`` through the snapshot it read each pass; a write that
    checks its step against ``next_step``, and the engine's own checks, walk nothing."""
    old_driver = {
        "trials.live.driver_store": (
            "from court.engine.machine import next_step, step_apply\n"
            "def trial_snapshot(session):\n"
            "    state = _state_of(session)\n"
            "    return state, next_step(state)\n"
            "def step_record(session, step, outcome):\n"
            "    state = _state_of(session)\n"
            "    if next_step(state) != step:\n"
            "        return None\n"
            "    return step_apply(state, step, outcome)\n"
        ),
        "trials.live.driver": (
            "from trials.live.driver_store import step_record, trial_snapshot\n"
            "async def _loop(session):\n"
            "    while True:\n"
            "        state, step = await trial_snapshot(session)\n"
            "        await _agent_turn(session, step)\n"
            "async def _agent_turn(session, step):\n"
            "    await step_record(session, step, None)\n"
            "async def _record_all(session, steps):\n"
            "    for step in steps:\n"
            "        await step_record(session, step, None)\n"
        ),
        "court.engine.machine": (
            "def next_step(state):\n"
            "    return state.step\n"
            "def apply_reply(state, step, reply):\n"
            "    expected = next_step(state)\n"
            "    state.turns.append(reply)\n"
            "def replay(state, replies):\n"
            "    for reply in replies:\n"
            "        apply_reply(state, next_step(state), reply)\n"
        ),
        "court.engine.runner": (
            "from court.engine.machine import next_step\n"
            "def trial_loop(state):\n"
            "    while True:\n"
            "        yield next_step(state)\n"
        ),
    }
    assert engine_loops(old_driver) == [
        "court.engine.machine.replay -> court.engine.machine.next_step",
        "trials.live.driver._loop -> trials.live.driver_store.trial_snapshot -> court.engine.machine.next_step",
    ]


def test_one_engine_loop():
    """Every trial runs on ``court.engine.runner``'s loop (issue #34): the live driver runs it
    too, with people's seats awaited through ``HumanParticipant``, and no other module asks
    ``next_step`` what happens next in a loop of its own."""
    tree = ast.parse((ROOT / "trials" / "live" / "driver.py").read_text(encoding="utf-8"))
    driver_imports = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert THE_LOOP in driver_imports
    assert engine_loops(app_sources()) == []
