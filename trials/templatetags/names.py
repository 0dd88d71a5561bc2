"""Names for the procedures' ids in templates, in a language (the case's):
``{{ turn.stage|stage_name:language }}``, ``{{ seat|seat_name:language }}``,
``{{ turn.phase|phase_name:language }}``, ``{{ act|act_name:language }}``,
``{{ key|field_name:language }}``; the functions of ``court.procedures.names``. And
``{{ key|case_field_name:case }}``, a heading of a case's file as its procedure names it."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from court.procedures import names
from trials.models import Case

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


@register.filter
def case_field_name(key: object, case: Case) -> str:
    """``field_name`` in ``case``'s language, but the defendant of a criminal case is the
    accused (被告人, the seat), not a civil defendant (被告)."""
    if case.procedure == "criminal" and key == "defendant":
        return names.seat_name("defendant", case.language)
    return names.field_name(key, case.language)
