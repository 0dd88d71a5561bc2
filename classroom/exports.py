"""The gradebook as a file: CSV or XLSX, the same rows (``classroom.gradebook.gradebook_build``)
for the page's downloads and the ``gradebook`` command. Every cell goes through
``legalsim.spreadsheet``: feedback that looks like a formula is written as text."""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO

from classroom.gradebook import GRADEBOOK_COLUMNS, Gradebook
from legalsim.spreadsheet import CsvDictWriter, xlsx_append

GRADEBOOK_FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def gradebook_csv(gradebook: Gradebook, handle: IO[str]) -> None:
    writer = CsvDictWriter(handle, fieldnames=list(GRADEBOOK_COLUMNS))
    writer.writeheader()
    writer.writerows(cell.as_row() for cell in gradebook.cells)


def gradebook_xlsx(gradebook: Gradebook, handle: IO[bytes]) -> None:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "gradebook"
    xlsx_append(sheet, list(GRADEBOOK_COLUMNS))
    for cell in gradebook.cells:
        row = cell.as_row()
        xlsx_append(sheet, [None if row[key] == "" else row[key] for key in GRADEBOOK_COLUMNS])
    workbook.save(handle)


def gradebook_bytes(gradebook: Gradebook, fmt: str) -> bytes:
    """The file's content in ``fmt`` (``csv`` or ``xlsx``)."""
    if fmt == "csv":
        text = io.StringIO(newline="")
        gradebook_csv(gradebook, text)
        return text.getvalue().encode("utf-8")
    if fmt == "xlsx":
        data = io.BytesIO()
        gradebook_xlsx(gradebook, data)
        return data.getvalue()
    raise ValueError(f"{fmt!r}: csv or xlsx")


def gradebook_write(gradebook: Gradebook, path: Path) -> None:
    """Write the gradebook to ``path``; its extension (``.csv``, ``.xlsx``) says the format."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in GRADEBOOK_FORMATS:
        raise ValueError(f"{path}: the file name ends in .csv or .xlsx")
    path.write_bytes(gradebook_bytes(gradebook, fmt))
