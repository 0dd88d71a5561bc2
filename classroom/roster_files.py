"""A roster file read as a table: a CSV file (UTF-8) or an Excel workbook (.xlsx, its first
sheet), the same columns either way, each row with the number a problem names (the CSV's
line, the sheet's row).

A workbook is told by what the file holds (a ZIP archive), not by its name: the upload is
saved under a name of its own. A problem in a workbook names its sheet beside the file
(``roster.xlsx [Students]:3: email: ...``), so the instructor finds the row in Excel.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from legalsim.json_input import Problem, UnreadableFile, file_text
from legalsim.spreadsheet import cell_unescape

XLSX = b"PK\x03\x04"
"""How an .xlsx workbook (a ZIP archive) starts."""
XLS = b"\xd0\xcf\x11\xe0"
"""How an old binary Excel workbook (.xls) starts."""


class UnreadableRoster(Exception):
    """The file cannot be read as a roster table; ``problem`` says where and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


@dataclass
class RosterTable:
    """``where``: what a problem of a row names (the file, and a workbook's sheet);
    ``header``: the first row, stripped; ``rows``: (number, cells by column name), read as
    they are iterated (blank rows skipped), raising ``UnreadableRoster`` on a broken CSV."""

    where: str
    header: list[str]
    rows: Iterator[tuple[int, dict[str, str]]]


def roster_table(path: Path, label: str) -> RosterTable:
    """The file as a table; raises ``UnreadableRoster`` for a file that is neither UTF-8 CSV
    nor an .xlsx workbook."""
    with path.open("rb") as handle:
        start = handle.read(4)
    if start == XLSX:
        return _sheet_table(path, label)
    if start == XLS:
        message = "is an old Excel workbook (.xls); save it as .xlsx or as CSV (UTF-8)"
        raise UnreadableRoster(Problem(label, 1, "file", message))
    return _csv_table(path, label)


def _csv_table(path: Path, label: str) -> RosterTable:
    try:
        text = file_text(path)
    except UnreadableFile as error:
        raise UnreadableRoster(Problem(label, error.problem.line, error.problem.field, error.problem.message)) from None
    lines = (text if "\n" in text else text.replace("\r", "\n")).split("\n")
    reader = csv.DictReader([line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else []))
    try:
        header = [name.strip() for name in reader.fieldnames or []]
    except csv.Error as error:
        raise _csv_problem(label, reader, error) from None
    reader.fieldnames = header
    return RosterTable(label, header, _csv_rows(reader, label))


def _csv_rows(reader: csv.DictReader, label: str) -> Iterator[tuple[int, dict[str, str]]]:
    try:
        for row in reader:
            yield reader.line_num, {key: _text(cell) for key, cell in row.items() if isinstance(key, str)}
    except csv.Error as error:
        raise _csv_problem(label, reader, error) from None


def _csv_problem(label: str, reader: csv.DictReader, error: csv.Error) -> UnreadableRoster:
    line = max(reader.reader.line_num, 1)
    return UnreadableRoster(Problem(label, line, "csv", f"cannot be read as CSV: {error}"))


def _sheet_table(path: Path, label: str) -> RosterTable:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(path.read_bytes()), read_only=True, data_only=True)
        sheet = workbook.worksheets[0]
        rows = enumerate(sheet.iter_rows(values_only=True), start=1)
        header = [_text(cell) for cell in next(rows, (0, ()))[1]]
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, IndexError) as error:
        message = f"cannot be read as an Excel workbook (.xlsx): {error}"
        raise UnreadableRoster(Problem(label, 1, "file", message)) from None
    where = f"{label} [{sheet.title}]"
    return RosterTable(where, header, _sheet_rows(rows, header))


def _sheet_rows(rows: Iterator[tuple[int, tuple]], header: list[str]) -> Iterator[tuple[int, dict[str, str]]]:
    for number, values in rows:
        cells = {name: _text(value) for name, value in zip(header, values, strict=False) if name}
        if any(cells.values()):
            yield number, cells


def _text(value: object) -> str:
    """A cell as the roster's text: a number as written (``12345``, not ``12345.0``), a date
    as ISO, nothing as blank; a cell escaped against formulas (files LegalSim wrote) unescaped."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, datetime | date):
        value = value.isoformat()
    return str(cell_unescape(str(value))).strip()
