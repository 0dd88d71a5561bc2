"""The project's import graph, for ``tests/test_architecture.py``: which module imports which
(lazy imports inside functions included), and the circles in it."""

from __future__ import annotations

import ast


def module_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """module -> the modules of ``sources`` (name -> code) it imports, lazy imports included:
    ``from package import name`` is ``package.name`` if that is a module, else ``package``."""
    edges: dict[str, set[str]] = {}
    for module, source in sources.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                named = {f"{node.module}.{alias.name}" for alias in node.names}
                targets |= {name if name in sources else node.module for name in named}
        edges[module] = (targets & sources.keys()) - {module}
    return edges


def circles(edges: dict[str, set[str]]) -> list[str]:
    """Every import circle, as ``a -> b -> ... -> a``: the shortest through each node that is in
    one (breadth first), each circle once."""
    found: dict[frozenset[str], str] = {}
    for start in sorted(edges):
        paths, seen = [[start]], {start}
        while paths and start not in edges.get(paths[0][-1], ()):
            path = paths.pop(0)
            for target in sorted(edges.get(path[-1], set()) - seen):
                seen.add(target)
                paths.append([*path, target])
        if paths:
            found.setdefault(frozenset(paths[0]), " -> ".join([*paths[0], start]))
    return list(found.values())
