"""Filters of the scorecard pages."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def score(value: float | None) -> str:
    """A [0,1] score as 0.00, or – when it was not computed."""
    return "–" if value is None else f"{value:.2f}"


@register.filter
def score10(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


@register.filter
def underscores(value: str) -> str:
    return str(value).replace("_", " ")


@register.filter
def is_dict(value: Any) -> bool:
    return isinstance(value, dict)


@register.filter
def get(mapping: dict | None, key: str) -> Any:
    return (mapping or {}).get(key)


@register.filter
def anchor(link: dict) -> str:
    """The transcript anchor of an item's source: a turn, or a stage's document."""
    if "turn" in link:
        return f"#turn-{link['turn']}"
    return f"#doc-{link['stage']}-{link['artifact']}"


@register.filter
def source(link: dict) -> str:
    if "turn" in link:
        return f"line {link['turn']} ({link['stage']}, {link['phase']})"
    return f"{link['artifact'].replace('_', ' ')} ({link['stage']})"
