"""The procedures' seat and stage names in the interface's language (the classroom's pages,
around a trial rather than in it): ``{{ seat|seat_label }}``, ``{{ stage|stage_label }}``."""

from __future__ import annotations

from django import template
from django.utils import translation

from trials.procedures import names

register = template.Library()


def interface_language() -> str:
    """``zh`` when the page is in Chinese, ``en`` otherwise (the names' two languages)."""
    return "zh" if (translation.get_language() or "").startswith("zh") else "en"


@register.filter
def seat_label(seat: str) -> str:
    return names.seat_name(seat, interface_language())


@register.filter
def stage_label(stage: str) -> str:
    return names.stage_name(stage, interface_language())
