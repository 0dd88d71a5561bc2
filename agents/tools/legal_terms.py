"""A query's words for a legal notion, paired with the statutes' own term for it: what the
remedies (``legal_remedies``) and the sentencing circumstances (``legal_circumstances``) are
made of, and how a query's terms are read from them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Cue:
    name: str
    shown_by: re.Pattern[str]
    """What a query says when the notion is in the case."""
    term: str
    """The statutes' words for it: the line searched."""


def words(*alternatives: str) -> re.Pattern[str]:
    return re.compile("|".join(alternatives))


def terms_shown(cues: Iterable[Cue], query: str) -> list[str]:
    """The terms of the ``cues`` the query shows, in the cues' order, each once."""
    return list(dict.fromkeys(cue.term for cue in cues if cue.shown_by.search(query)))
