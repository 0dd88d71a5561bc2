"""Filters of the scorecard pages."""

from __future__ import annotations

from typing import Any

from django import template

from trials.procedures.names import PHASES, phase_name, stage_name
from trials.scoring.report import capability_cell

register = template.Library()


@register.filter
def score(value: float | None) -> str:
    """A [0,1] score out of 10 (0.734 as 7.3), the one scale of the pages people read, or –
    when it was not computed."""
    return "–" if value is None else f"{value * 10:.1f}"


@register.filter
def signed_score(value: float) -> str:
    """A change of a [0,1] score, out of 10 with its sign: +1.2, -0.4, ±0.0."""
    shown = round(value * 10, 1)
    return "±0.0" if shown == 0 else f"{shown:+.1f}"


@register.filter
def cell(value: Any) -> float | None:
    """A capability as one figure (its halves averaged), as the overall counts it."""
    return capability_cell(value)


@register.filter
def score10(value: float | None) -> str:
    """A score computed on 0-10 already (judgment alignment, C.4)."""
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
def item_name(item_id: str, language: str = "en") -> str:
    """A rubric item's id as words: ``FIT.investigation.position_consistency`` is "First-instance
    trial · Court investigation · position consistency", ``LC.q1.rule`` "... · question 1 · rule"."""
    stage, *rest = item_id.split(".")
    words = [stage_name(stage, language)]
    for part in rest:
        if part in PHASES:
            words.append(phase_name(part, language))
        elif part[:1] == "q" and part[1:].isdigit():
            words.append(f"question {part[1:]}" if language != "zh" else f"问题{part[1:]}")
        else:
            words.append(part.replace("_", " "))
    return " · ".join(words)


@register.filter
def source(link: dict, language: str = "en") -> str:
    stage = stage_name(link["stage"], language)
    if "turn" in link:
        return f"line {link['turn']} ({stage}, {phase_name(link['phase'], language)})"
    return f"{link['artifact'].replace('_', ' ')} ({stage})"
