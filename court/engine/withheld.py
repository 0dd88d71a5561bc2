"""Details a client leaves out until the lawyer asks (MASER's distractors, §2.1 and Appendix A;
docs/sources.md): one rule for when a detail counts as asked and as disclosed, read by the
visibility rules, the scripted client and the LLM client's prompt alike.

A case carries them as ``personas.<side>.withheld``: ``{"detail", "mode", "asked_by"}``. Until
the side's client has said the detail in a turn, no other seat sees it in any case field (the
visibility rules cut the sentences that hold it). A lawyer's turn *asks* about a detail when it
contains one of the detail's ``asked_by`` words (``said``: case-insensitive, a word in Latin
letters as a whole word); the client then
tells it in their next turn. ``mode`` says what the client does before that: ``omit`` leaves it
out, ``vague`` says there is something they are unsure of, without the detail.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

MODES = ("omit", "vague")
_SENTENCE = re.compile(r"[^。！？!?.\n]*(?:[。！？!?.]|\n|$)")


@dataclass(frozen=True)
class Withheld:
    detail: str
    mode: str
    asked_by: tuple[str, ...]

    def asked_in(self, text: str) -> bool:
        """Whether ``text`` (a lawyer's words) asks about this detail."""
        return any(said(word, text) for word in self.asked_by if word.strip())

    def told_in(self, text: str) -> bool:
        return self.detail in text


def said(word: str, text: str) -> bool:
    """Whether ``word`` is in ``text``, case-insensitively: a word in Latin letters as a whole
    word ("age" is not in "page"), any other (Chinese) as a substring."""
    word, text = word.lower(), text.lower()
    if word.isascii():
        return re.search(rf"(?<![a-z]){re.escape(word)}(?![a-z])", text) is not None
    return word in text


def withheld_of(persona: Mapping[str, Any] | None) -> list[Withheld]:
    """The details a client persona withholds, in the case's order."""
    items = (persona or {}).get("withheld") or []
    return [
        Withheld(
            str(item["detail"]), str(item.get("mode", "omit")), tuple(str(word) for word in item.get("asked_by", ()))
        )
        for item in items
        if isinstance(item, Mapping) and item.get("detail")
    ]


def undisclosed(persona: Mapping[str, Any] | None, client_turns: Iterable[str]) -> list[Withheld]:
    """The withheld details the client has not said yet in any of ``client_turns``."""
    said = list(client_turns)
    return [item for item in withheld_of(persona) if not any(item.told_in(text) for text in said)]


def asked_now(items: Iterable[Withheld], lawyer_turns: Iterable[str]) -> list[Withheld]:
    """Of ``items``, those some lawyer turn has asked about."""
    asked = list(lawyer_turns)
    return [item for item in items if any(item.asked_in(text) for text in asked)]


def cut(value: Any, details: Iterable[str]) -> Any:
    """``value`` (a string, or lists and objects of them) without the sentences that hold any
    of ``details``."""
    details = [detail for detail in details if detail]
    if not details:
        return value
    if isinstance(value, str):
        if not any(detail in value for detail in details):
            return value
        kept = "".join(s for s in _SENTENCE.findall(value) if not any(detail in s for detail in details))
        for detail in details:  # a detail that runs over several sentences
            kept = kept.replace(detail, "")
        return kept.strip()
    if isinstance(value, list):
        return [cut(item, details) for item in value]
    if isinstance(value, dict):
        return {key: cut(item, details) for key, item in value.items()}
    return value
