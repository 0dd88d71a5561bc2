"""The notes of an agreement report as a reader sees them: each thing said once, naming every
line it concerns ("FIT · Procedural compliance; SIT · Process coherence: Pearson undefined"),
"Every item (except ...)" when a note covers most of the rubric."""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.translation import gettext, gettext_lazy

NOTES = (
    (r"(?P<line>[^:]+): no human-judge pairs", gettext_lazy("%(line)s: no human-judge pairs")),
    (r"(?P<line>[^:]+): sd_diff needs at least two pairs", gettext_lazy("%(line)s: the SD needs at least two pairs")),
    (
        r"(?P<line>[^:]+): (?P<kind>pearson|spearman) undefined \(fewer than two pairs or constant scores\)",
        gettext_lazy("%(line)s: %(kind)s undefined (fewer than two pairs or constant scores)"),
    ),
    (
        r"(?P<line>[^:]+): qwk undefined \(no variation in either rater\)",
        gettext_lazy("%(line)s: QWK undefined (no variation in either rater)"),
    ),
    (
        r"(?P<line>[^:]+): inter-rater figures need two or more trajectories with at least two human scores and "
        r"some variation",
        gettext_lazy(
            "%(line)s: inter-rater figures need two or more trajectories with at least two human scores and some "
            "variation"
        ),
    ),
    (
        r"confidence intervals need at least two trajectories",
        gettext_lazy("confidence intervals need at least two trajectories"),
    ),
    (r"confidence intervals need at least two units", gettext_lazy("confidence intervals need at least two pairs")),
    (
        r"no LLM judge answers: the judge columns are empty",
        gettext_lazy("no LLM judge answers: the judge columns are empty"),
    ),
    (
        r"test-retest (?P<line>.+): figures need two or more pairs with some variation",
        gettext_lazy("test-retest, %(line)s: QWK and ICC need two or more pairs with some variation"),
    ),
)
"""The report's notes (data, in English, as the JSON has them) as a page shows them."""
CORRELATIONS = {"pearson": gettext_lazy("Pearson"), "spearman": gettext_lazy("Spearman")}


def notes_shown(notes: list[str], titles: dict[str, str], items: Iterable[str] = ()) -> list[str]:
    """The report's notes as a page shows them, in the interface language: notes that say the
    same of several lines are said once, naming the lines by their titles, most of the rubric's
    ``items`` as every item (but a few) (in a small study most items lack a correlation, and a
    line each buried the other notes); a note of another shape is kept as it is."""
    lines_of: dict[tuple[int, tuple], list[str]] = {}
    for note in notes:
        index, values = _note_match(note)
        line = values.pop("line", None)
        lines_of.setdefault((index, tuple(values.items())), []).extend([line] if line else [])
    every = list(items)
    return [
        _note_said(index, dict(values), _lines_named(list(dict.fromkeys(lines)), titles, every))
        for (index, values), lines in lines_of.items()
    ]


def _lines_named(lines: list[str], titles: dict[str, str], items: list[str]) -> str:
    """``lines`` by title, the items among them as "Every item" or "Every item (except ...)" when
    they are most of ``items``; the other lines (rows, groups) after them."""
    named = [line for line in lines if line in items]
    missing = [item for item in items if item not in named]
    if not items or len(missing) >= len(items) / 2:
        return "; ".join(titles.get(line, line) for line in lines)
    others = [titles.get(line, line) for line in lines if line not in items]
    if missing:
        every = gettext("Every item (except %(items)s)") % {
            "items": "; ".join(titles.get(item, item) for item in missing)
        }
    else:
        every = gettext("Every item")
    return "; ".join([every, *others])


def _note_match(note: str) -> tuple[int, dict[str, str]]:
    """The index of the ``NOTES`` pattern ``note`` matches and its values; -1 and the note."""
    for index, (pattern, _text) in enumerate(NOTES):
        match = re.fullmatch(pattern, note)
        if match:
            return index, match.groupdict()
    return -1, {"note": note}


def _note_said(index: int, values: dict[str, str], lines: str) -> str:
    if index < 0:
        return values["note"]
    if lines:
        values["line"] = lines
    if "kind" in values:
        values["kind"] = CORRELATIONS[values["kind"]]
    return str(NOTES[index][1]) % values
