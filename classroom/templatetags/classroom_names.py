"""The procedures' seat and stage names in the interface's language (the classroom's pages,
around a trial rather than in it): ``{{ seat|seat_label }}``, ``{{ stage|stage_label }}``;
and a moment with its time zone named, ``{{ assignment.due_at|moment }}``."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import SafeString

from court.procedures import names

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


@register.filter
def moment(value: datetime | None) -> SafeString | str:
    """A date and time in the server's time zone with the zone named ("Nov. 27, 2026, 8 a.m.
    UTC"), as a ``<time data-local>`` that ``classroom/local-time.js`` shows in the reader's
    own time zone (named too); – when there is none."""
    if value is None:
        return "—"
    local = timezone.localtime(value)
    return format_html(
        '<time datetime="{}" data-local>{} {}</time>',
        value.isoformat(),
        date_format(local, "DATETIME_FORMAT"),
        local.tzname() or timezone.get_current_timezone_name(),
    )


@register.filter
def get_item(mapping: dict, key: object) -> object:
    """``mapping[key]`` in a template (None when absent)."""
    return mapping.get(key)
