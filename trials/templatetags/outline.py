"""Render case data (nested dicts and lists from a seat's view) as readable, escaped HTML,
its keys under headings in the case's language (``{{ value|outline:case }}``); a sentence
object (a sentencing recommendation) as the sentence a court writes."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from court.procedures.names import field_name, sentence_words
from trials.models import Case
from trials.templatetags.names import case_field_name

register = template.Library()

SENTENCE_KEYS = {"penalty", "imprisonment_months", "probation", "fine", "statutory_range_months"}
"""The fields of a sentence object (docs/case-format.md)."""


@register.filter
def outline(value: Any, case: Case) -> SafeString:
    if isinstance(value, dict):
        if {"name", "purpose"} <= set(value):
            return format_html("<strong>{}</strong>: {}", value["name"], value["purpose"])
        if _is_sentence(value):
            return format_html("{}", sentence_words(value, case.language))
        items = ((case_field_name(key, case), outline(item, case)) for key, item in value.items())
        return format_html('<dl class="outline">{}</dl>', format_html_join("", "<dt>{}</dt><dd>{}</dd>", items))
    if isinstance(value, list | tuple):
        return format_html(
            '<ul class="outline">{}</ul>',
            format_html_join("", "<li>{}</li>", ((outline(item, case),) for item in value)),
        )
    if isinstance(value, bool):
        return format_html("{}", field_name(value, case.language))
    return format_html("{}", "" if value is None else value)


def _is_sentence(value: dict) -> bool:
    keys = set(value)
    return bool(keys) and keys <= SENTENCE_KEYS and bool(keys & {"penalty", "imprisonment_months"})
