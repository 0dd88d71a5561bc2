"""The precedent search over the case library (``agents.tools.precedents.PrecedentIndex``),
its index rebuilt only when the library changes (its number of cases or latest import time).
``trials.services`` hands ``precedent_search`` to the agents' toolbox."""

from __future__ import annotations

import threading
from typing import Any

from django.db.models import Count, Max

from agents.tools.precedents import PrecedentIndex
from trials.models import Case

_cached: tuple[tuple[int, Any], PrecedentIndex] | None = None
_lock = threading.Lock()


def library_index() -> PrecedentIndex:
    """The index of the case library, rebuilt when the library changes (a case added, replaced
    or removed changes its count or its latest import time); one aggregate query otherwise."""
    global _cached
    stamp = Case.objects.aggregate(count=Count("pk"), latest=Max("imported_at"))
    key = (stamp["count"], stamp["latest"])
    with _lock:
        if _cached is not None and _cached[0] == key:
            return _cached[1]
    rows = Case.objects.order_by("pk").values_list("pk", "seed")
    index = PrecedentIndex.build({**(seed or {}), "id": pk} for pk, seed in rows)
    with _lock:
        _cached = (key, index)
    return index


def precedent_search(query: str, *, exclude: str = "", cause_of_action: str = "", top_k: int = 3) -> dict[str, Any]:
    """The ``search_cases`` tool over the case library (``PrecedentIndex.search``), as the
    agent reads it: ``{"cases": [...], "searched": N, "message"?}``."""
    return library_index().search(query, exclude=exclude, cause_of_action=cause_of_action, top_k=top_k).as_dict()
