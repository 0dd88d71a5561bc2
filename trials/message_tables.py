"""English messages written for scripts, shown on pages in the interface's language.

Validators (``import_cases``' ``FILE:LINE: field: message`` contract) and the rule-based
scorer (the ``score_trials`` export) write their messages in English, as data. A page shows
each through a ``MessageTable``: a message that fully matches one of its patterns is given
in that entry's translation, the values the pattern's named groups quote kept as they are;
a message no entry matches is shown as written.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise


class MessageTable:
    def __init__(self, *entries: tuple[str, Promise]) -> None:
        self._entries = tuple((re.compile(pattern), shown) for pattern, shown in entries)

    def shown(self, message: str) -> str:
        for pattern, shown in self._entries:
            match = pattern.fullmatch(message)
            if match:
                return str(shown) % match.groupdict() if match.groupdict() else str(shown)
        return message
