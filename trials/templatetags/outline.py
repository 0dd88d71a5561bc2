"""Render case data (nested dicts and lists from a seat's view) as readable, escaped HTML,
its keys under headings in the case's language (``{{ value|outline:language }}``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from court.procedures.names import field_name

register = template.Library()


@register.filter
def outline(value: Any, language: str = "en") -> SafeString:
    if isinstance(value, dict):
        if {"name", "purpose"} <= set(value):
            return format_html("<strong>{}</strong>: {}", value["name"], value["purpose"])
        items = ((field_name(key, language), outline(item, language)) for key, item in value.items())
        return format_html('<dl class="outline">{}</dl>', format_html_join("", "<dt>{}</dt><dd>{}</dd>", items))
    if isinstance(value, list | tuple):
        return format_html(
            '<ul class="outline">{}</ul>',
            format_html_join("", "<li>{}</li>", ((outline(item, language),) for item in value)),
        )
    if isinstance(value, bool):
        return format_html("{}", field_name(value, language))
    return format_html("{}", "" if value is None else value)
