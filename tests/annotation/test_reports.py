"""How a report's notes read on a page: one sentence per thing said, naming every line it
concerns, in the interface language."""

from __future__ import annotations

from django.utils import translation

from annotation.report_notes import notes_shown

TITLES = {"LC.procedural_compliance": "LC · Procedural compliance", "FIT.process_coherence": "FIT · Process coherence"}
UNDEFINED = "{line}: {kind} undefined (fewer than two pairs or constant scores)"


def test_a_note_about_several_lines_is_said_once_naming_them_all():
    notes = [
        UNDEFINED.format(line="LC.procedural_compliance", kind="pearson"),
        UNDEFINED.format(line="FIT.process_coherence", kind="pearson"),
        UNDEFINED.format(line="FIT.process_coherence", kind="spearman"),
        "confidence intervals need at least two trajectories",
        "a note of 100% another shape",
    ]
    assert notes_shown(notes, TITLES) == [
        "LC · Procedural compliance; FIT · Process coherence: Pearson undefined (fewer than two pairs or constant "
        "scores)",
        "FIT · Process coherence: Spearman undefined (fewer than two pairs or constant scores)",
        "confidence intervals need at least two trajectories",
        "a note of 100% another shape",
    ]


def test_notes_read_in_the_interface_language():
    with translation.override("zh-hans"):
        shown = notes_shown([UNDEFINED.format(line="FIT.process_coherence", kind="pearson")], TITLES)
    assert shown[0].startswith("FIT · Process coherence") and "undefined" not in shown[0]


def test_a_note_about_most_items_says_every_item_and_names_the_others():
    items = [f"item{number}" for number in range(5)]
    titles = {item: item.title() for item in items}
    every = [UNDEFINED.format(line=item, kind="pearson") for item in items]
    most = [UNDEFINED.format(line=item, kind="spearman") for item in items[1:]]
    few = [UNDEFINED.format(line=item, kind="pearson") for item in items[:2]]
    assert notes_shown(every + most, titles, items) == [
        "Every item: Pearson undefined (fewer than two pairs or constant scores)",
        "Every item (except Item0): Spearman undefined (fewer than two pairs or constant scores)",
    ]
    assert notes_shown(few, titles, items) == [
        "Item0; Item1: Pearson undefined (fewer than two pairs or constant scores)"
    ]


def test_rows_sharing_the_note_follow_every_item_and_a_line_is_named_once():
    items = ["item0", "item1", "item2"]
    titles = {item: item.title() for item in items} | {"group": "Group"}
    lines = [*items, "group", "item0"]
    notes = [UNDEFINED.format(line=line, kind="pearson") for line in lines]
    assert notes_shown(notes, titles, items) == [
        "Every item; Group: Pearson undefined (fewer than two pairs or constant scores)"
    ]
