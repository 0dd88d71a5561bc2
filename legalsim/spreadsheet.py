"""Every CSV and XLSX file LegalSim writes goes through here, so that a cell is data, never a
formula (OWASP "CSV Injection").

The rule, for CSV and XLSX alike, is about *fields*: the places where a spreadsheet may start
reading a cell. That is the start of our cell, and the place after every character a
spreadsheet may split a cell at (``SEPARATORS``): the list separators ``,`` and ``;`` (Excel
uses the one of its locale, so a comma file opened where ``;`` is the separator splits our
cells at every ``;`` and no longer sees our quotes), tab, and a line break (which then ends the
row). A field is *dangerous* when, once any single quotes are set aside, it starts with a tab
or a carriage return, or (after spaces and double quotes, which a reader may drop) with a
formula trigger: ``=``, ``+``, ``-``, ``@`` or any character whose compatibility form starts
with one, such as the full-width ``＝ ＋ － ＠`` (``FORMULA``). :func:`cell_escape` puts one
``'`` in front of every dangerous field of a text cell; every other value is left as it is.
Numbers (``int``, ``float``, numpy scalars, ``Decimal``) are never altered, so a score of
``-1`` stays the number ``-1``; only ``str`` cells are looked at.

Examples::

    =HYPERLINK("http://x/?"&A1)  ->  '=HYPERLINK("http://x/?"&A1)
    -1 too harsh                 ->  '-1 too harsh
    ;=1+1                        ->  ;'=1+1
    ＝1+1 / ok, +1               ->  '＝1+1 / ok,' +1
    '=not a formula              ->  ''=not a formula     (already quoted text gets one more)
    it's fine / 'quoted' / a=b   ->  unchanged            (no field starts with a trigger)

Counting the quotes in front of the trigger is what makes the escape reversible: a quote added
at one field never changes whether another field is dangerous, and :func:`cell_unescape`
strips exactly one leading ``'`` from every field that is dangerous once its quotes are set
aside, and leaves every other character alone, so ``cell_unescape(cell_escape(s)) == s`` for
every string, and no field of ``cell_escape(s)`` starts with a trigger. Readers of files we
wrote (``import_ratings`` for CSV) unescape every cell; a cell written by hand with a field
that starts with ``'`` and then a trigger therefore loses that first quote (write ``''=...``
to keep one).

In XLSX the escaped text is also stored with the cell type set to text (``data_type 's'``),
so openpyxl never stores it as a formula (nor as an error value such as ``#N/A``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Mapping
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
"""What a dangerous cell starts with, in ASCII (OWASP's list)."""
FORMULA = "=+-@\u207a\u207c\u208a\u208c\u2a75\u2a76\ufb29\ufe62\ufe63\ufe66\ufe6b\uff0b\uff0d\uff1d\uff20"
"""The formula triggers: ``=+-@`` and every character whose NFKC form starts with one of them
(superscript, subscript, small and full-width forms)."""
SEPARATORS = ",;\t\r\n"
QUOTE = "'"

_FIELD_START = r"(?:\A|(?<=[,;\t\r\n]))"
_DANGEROUS = rf"'*(?:[\t\r]|(?:[^\S\t\r\n]|\")*[{re.escape(FORMULA)}])"
_ESCAPE = re.compile(rf"{_FIELD_START}(?={_DANGEROUS})")
_UNESCAPE = re.compile(rf"{_FIELD_START}{QUOTE}(?={_DANGEROUS})")


def cell_escape(value: Any) -> Any:
    """``value`` as a safe spreadsheet cell: every dangerous field of a string gets a ``'``."""
    if isinstance(value, str):
        return _ESCAPE.sub(QUOTE, value)
    return value


def cell_unescape(value: Any) -> Any:
    """Undo :func:`cell_escape`: strip the ``'`` it added to each field, and nothing else."""
    if isinstance(value, str):
        return _UNESCAPE.sub("", value)
    return value


class CsvWriter:
    """``csv.writer`` whose every cell goes through :func:`cell_escape`."""

    def __init__(self, handle: IO[str], **options: Any) -> None:
        self._writer = csv.writer(handle, **options)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([cell_escape(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


class CsvDictWriter(csv.DictWriter):
    """``csv.DictWriter`` whose every cell (the header too) goes through :func:`cell_escape`."""

    def writerow(self, rowdict: Mapping[str, Any]) -> Any:
        return super().writerow({key: cell_escape(value) for key, value in rowdict.items()})

    def writerows(self, rowdicts: Iterable[Mapping[str, Any]]) -> None:
        for rowdict in rowdicts:
            self.writerow(rowdict)


def xlsx_append(sheet: Worksheet, row: Iterable[Any]) -> None:
    """Append ``row`` to an openpyxl worksheet, text escaped and typed as text. Control
    characters XML cannot carry (openpyxl would refuse the whole report) become U+FFFD."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell

    cells = []
    for value in row:
        if isinstance(value, str):
            value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
        cell = Cell(sheet, value=cell_escape(value))
        if isinstance(cell.value, str):
            cell.data_type = "s"
        cells.append(cell)
    sheet.append(cells)
