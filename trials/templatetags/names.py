"""Names for the procedures' ids in templates, in a language (the case's):
``{{ turn.stage|stage_name:language }}``, ``{{ seat|seat_name:language }}``,
``{{ turn.phase|phase_name:language }}``, ``{{ act|act_name:language }}``,
``{{ key|field_name:language }}``; the functions of ``court.procedures.names``."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from court.procedures import names

register = template.Library()
for function in (
    names.stage_name,
    names.phase_name,
    names.act_name,
    names.seat_name,
    names.field_name,
    names.sentence_words,
):
    register.filter(function.__name__, function)

LANGUAGE_NAMES = {"zh": _("Chinese"), "en": _("English")}
"""A case's language (``Case.language``) as the interface names it."""


@register.filter
def language_name(code: str) -> str:
    return str(LANGUAGE_NAMES.get(code, code))
