"""Template filters of the agreement report."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def interval(bounds: list[float] | None, digits: int = 2) -> str:
    """``[low, high]`` of a bootstrap interval, or an empty string when there is none."""
    if not bounds:
        return ""
    low, high = bounds
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


@register.filter
def ci(entry: dict, name: str) -> list[float] | None:
    """The 95 % interval of figure ``name`` of a report row (``None`` without bootstrap)."""
    return (entry.get("ci95") or {}).get(name)
