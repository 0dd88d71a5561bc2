"""A leaderboard as CSV, XLSX or JSON: one row per leaderboard (people, weighted, judge) and
configuration, then the raters' abilities (spreadsheet cells through legalsim.spreadsheet)."""

from __future__ import annotations

import io
import json

from legalsim.spreadsheet import CsvWriter, xlsx_append

FORMATS = ("csv", "xlsx", "json")
BOARDS = ("human", "weighted", "judge")
COLUMNS = ("leaderboard", "item", "rank", "configuration", "score", "low_95", "high_95", "rank_low", "rank_high")
COLUMNS_AFTER = ("votes", "both_bad")
ABILITY_COLUMNS = ("voter", "human", "ability", "chance", "weight", "near_chance", "votes")


def _rows(board: dict) -> list[list]:
    return [
        [
            name,
            board["item"] or "overall",
            row["rank"],
            row["configuration"],
            row["score"],
            row["low"],
            row["high"],
            row["rank_low"],
            row["rank_high"],
            row["votes"],
            row["both_bad"],
        ]
        for name in BOARDS
        for row in board[name]
    ]


def _ability_rows(board: dict) -> list[list]:
    return [[row[column] for column in ABILITY_COLUMNS] for row in board["abilities"]]


def leaderboard_export(board: dict, fmt: str) -> tuple[bytes, str]:
    """(content, content type) of ``board`` (``arena.selectors.leaderboard_build``) in ``fmt``."""
    if fmt == "json":
        return json.dumps(
            board, ensure_ascii=False, indent=2, allow_nan=False, default=str
        ).encode(), "application/json"
    if fmt == "csv":
        handle = io.StringIO()
        writer = CsvWriter(handle)
        writer.writerow(COLUMNS + COLUMNS_AFTER)
        writer.writerows(_rows(board))
        writer.writerow([])
        writer.writerow(ABILITY_COLUMNS)
        writer.writerows(_ability_rows(board))
        return handle.getvalue().encode(), "text/csv; charset=utf-8"
    if fmt == "xlsx":
        return _xlsx(board), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    raise ValueError(f"format {fmt!r} is not one of {', '.join(FORMATS)}")


def _xlsx(board: dict) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "leaderboard"
    xlsx_append(sheet, COLUMNS + COLUMNS_AFTER)
    for row in _rows(board):
        xlsx_append(sheet, row)
    abilities = book.create_sheet("raters")
    xlsx_append(abilities, ABILITY_COLUMNS)
    for row in _ability_rows(board):
        xlsx_append(abilities, row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
