"""Filters of the scorecard pages."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from court.documents import DOCUMENTS, document_title
from court.procedures.names import phase_name, stage_name
from scoring.names import capability_name, item_name
from scoring.report import capability_cell

register = template.Library()


@register.filter
def score(value: float | None) -> str:
    """A [0,1] score out of 10 (0.734 as 7.3), the one scale of the pages people read, or –
    when it was not computed."""
    return "–" if value is None else f"{value * 10:.1f}"


@register.filter
def signed_score(value: float | None) -> str:
    """A change of a [0,1] score, out of 10 with its sign: +1.2, -0.4, ±0.0 (– when there is
    nothing to compare)."""
    if value is None:
        return "–"
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


register.filter("capability_name", capability_name)


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


@register.filter("item_name")
def item_name_filter(item_id: str, language: str = "en") -> str:
    """A rubric item's id as words (``scoring.names.item_name``)."""
    return item_name(item_id, language)


@register.filter
def source(link: dict, language: str = "en") -> str:
    """Where an item's evidence is: a line of the transcript, or a document of a stage."""
    stage = stage_name(link["stage"], language)
    if "turn" in link:
        where = {"line": link["turn"], "stage": stage, "phase": phase_name(link["phase"], language)}
        return gettext("line %(line)s (%(stage)s, %(phase)s)") % where
    return gettext("%(document)s (%(stage)s)") % {
        "document": _document_name(link["artifact"], language),
        "stage": stage,
    }


def _document_name(kind: str, language: str) -> str:
    return document_title(kind, language) if kind in DOCUMENTS else kind.replace("_", " ")
