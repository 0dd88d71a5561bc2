"""A deciding act's answer read from a model's reply, strictly and then leniently.

A deciding act (mediation, appeal: ``procedures.civil.DECISIONS``) asks the model to end with
``DECISION: <word>``. Real models, small ones most of all, answer in prose now and then. The
strict reader takes the line; when the retries still give none, the lenient reader takes the
decision from the words (English and Chinese, a negated answer before a plain one), and when
the words say nothing clear, the conservative default stands: mediation declined, no appeal
filed. The trial goes on either way and the turn records how its decision was reached
(``SOURCES``), so nothing a model failed to say is passed off as said.
"""

from __future__ import annotations

import re

from agents.prompts import DECISION_MARK
from legalsim.llm import ReplyFormatError

CONSERVATIVE = "decline"
"""Mediation declined, no appeal filed: the answer that changes nothing when nobody decided."""
SOURCES = ("line", "words", "default")
"""How a decision was reached: the ``DECISION:`` line, the reply's words, the default."""

NEGATIVE = {
    "accept": (
        r"\b(?:not|never|no longer|unable to|cannot|can't|won't|will not|do not|don't)\s+"
        r"(?:\w+\s+){0,2}(?:accept|agree|settle|mediat\w*)",
        r"\b(?:decline|refuse|reject)\w*",
        r"\bunwilling\b",
        r"不(?:同意|接受|愿意|愿|想)",
        r"拒绝",
        r"无法接受",
    ),
    "appeal": (
        r"\b(?:not|never|no|won't|will not|do not|don't|shall not)\s+(?:\w+\s+){0,2}appeal\w*",
        r"\b(?:decline|waive|forgo|forego)\w*\s+(?:\w+\s+){0,2}appeal",
        r"\baccept\w*\s+(?:\w+\s+){0,2}judgment\b",
        r"不(?:再|提起|提出)?上诉",
        r"放弃上诉",
        r"服判",
    ),
}
"""Phrases that say no, by the positive word of the act; looked for first, and taken out of
the text before the positive ones are looked for ("不同意" holds "同意")."""
POSITIVE = {
    "accept": (r"\b(?:accept|agree|willing|settle|mediate)\w*", r"同意", r"接受", r"愿意"),
    "appeal": (r"\bappeal\w*", r"上诉"),
}


def decision_parse(text: str, choices: tuple[str, ...]) -> tuple[str, str]:
    """The words without the ``DECISION:`` line a deciding act must end with, and the decision
    it names; ``ReplyFormatError`` when the reply has no such line."""
    line = re.compile(rf"^\s*`?{DECISION_MARK}\s*({'|'.join(choices)})`?\s*$", re.IGNORECASE | re.MULTILINE)
    matches = list(line.finditer(text))
    if not matches:
        raise ReplyFormatError(f"no '{DECISION_MARK} {'|'.join(choices)}' line")
    last = matches[-1]
    return (text[: last.start()] + text[last.end() :]).strip(), last.group(1).lower()


def decision_read(text: str, choices: tuple[str, ...]) -> tuple[str, str, str]:
    """The words, the decision and ``line``: the strict reader, retried while it refuses."""
    return *decision_parse(text, choices), "line"


def decision_read_leniently(text: str, choices: tuple[str, ...]) -> tuple[str, str, str]:
    """The words, the decision and how it was reached, for a reply the strict reader refused."""
    return text.strip(), *decision_from_words(text, choices)


def decision_from_words(text: str, choices: tuple[str, ...]) -> tuple[str, str]:
    """The decision a reply without a ``DECISION:`` line gives in its words, and how it was
    reached (``words`` or ``default``): a clear no or a clear yes, else the conservative one."""
    positive = next(choice for choice in choices if choice != CONSERVATIVE)
    lowered = text.lower()
    said_no = False
    for pattern in NEGATIVE[positive]:
        lowered, found = re.subn(pattern, " ", lowered)
        said_no = said_no or found > 0
    said_yes = any(re.search(pattern, lowered) for pattern in POSITIVE[positive])
    if said_no != said_yes:
        return (CONSERVATIVE if said_no else positive), "words"
    return CONSERVATIVE, "default"
