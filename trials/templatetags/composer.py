"""What the room's composer needs to know of the site's settings."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def say_limit() -> int:
    """How many characters one statement (or all of a document's sections) may hold: the
    protocol refuses more (``trials.protocol``), so the composer counts against it first."""
    return settings.LEGALSIM_MAX_SAY_CHARS
