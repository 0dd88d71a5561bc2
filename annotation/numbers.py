"""Whole numbers people (or their browsers) send to the annotation pages: a score, an
adjudicated score, a questionnaire item's active time. One rule for all of them, because
Python's own tests are too lenient for input: ``str.isdigit`` accepts ``²`` (which ``int``
then refuses), ``int`` accepts ``٣``, ``３``, ``+3``, ``0_3`` and thousands of digits, and a
number of 400 digits cannot even be divided into a float.

Accepted: an ``int`` (not a ``bool``), or text of ASCII digits with an optional leading minus,
written as ``str(int)`` writes it (no ``+``, no leading zeros, no ``-0``; surrounding
whitespace is allowed), inside the bounds the caller gives."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

ACTIVE_MS_MAX = 24 * 60 * 60 * 1000
"""A questionnaire item's active time is at most a day (in milliseconds)."""
_WHOLE = re.compile(r"0|-?[1-9][0-9]{0,17}")
"""At most 18 digits: every bound here is far smaller, and ``int`` never sees a long text."""


class NumberError(ValueError):
    """A posted field is not a whole number within its bounds; the message says which field
    and what it takes, in the active language."""


def whole_number(value: object, *, low: int, high: int) -> int | None:
    """``value`` as an integer from ``low`` to ``high``, or ``None`` when it is not one."""
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        value = int(value.strip())
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return None


def whole_number_posted(value: object, *, field: str, low: int, high: int) -> int:
    """``whole_number`` for a field that must hold one: raises ``NumberError`` naming it."""
    number = whole_number(value, low=low, high=high)
    if number is None:
        raise NumberError(
            _("the field %(field)s must be a whole number from %(low)d to %(high)d, in the digits 0-9")
            % {"field": field, "low": low, "high": high}
        )
    return number
