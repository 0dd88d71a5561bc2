"""Render case data (nested dicts and lists from a seat's view) as readable, escaped HTML."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()
LABELS = {"shared": "", "plaintiff": "Plaintiff", "defendant": "Defendant", "prosecution": "Prosecution"}


@register.filter
def outline(value: Any) -> SafeString:
    if isinstance(value, dict):
        if {"name", "purpose"} <= set(value):
            return format_html("<strong>{}</strong>: {}", value["name"], value["purpose"])
        items = ((LABELS.get(key, key.replace("_", " ")), outline(item)) for key, item in value.items())
        return format_html('<dl class="outline">{}</dl>', format_html_join("", "<dt>{}</dt><dd>{}</dd>", items))
    if isinstance(value, list | tuple):
        return format_html(
            '<ul class="outline">{}</ul>', format_html_join("", "<li>{}</li>", ((outline(item),) for item in value))
        )
    if isinstance(value, bool):
        return format_html("{}", "yes" if value else "no")
    return format_html("{}", "" if value is None else value)
