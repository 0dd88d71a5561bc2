"""The win-rate matrix as an SVG heatmap: the row configuration's share of the votes against the
column's (ties half), blue above one half, red below, grey where they never met. Column names
are the row names in the same order, written above each column at an angle."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

CELL = 52
LABEL = 140
TOP = 110


def _colour(rate: float | None) -> str:
    if rate is None:
        return "#e5e7eb"
    strength = int(255 - abs(rate - 0.5) * 2 * 180)
    return f"rgb({strength},{strength},255)" if rate >= 0.5 else f"rgb(255,{strength},{strength})"


def _short(name: str) -> str:
    return name if len(name) <= 20 else name[:19] + "…"


def _cell(row: int, column: int, names: list[str], rate: float | None) -> str:
    x, y = LABEL + column * CELL, TOP + row * CELL
    title = f"{escape(names[row])} vs {escape(names[column])}: " + ("—" if rate is None else f"{rate:.0%}")
    figure = (
        f'<text x="{x + CELL / 2 - 1}" y="{y + CELL / 2 + 4}" font-size="12" text-anchor="middle">{rate:.0%}</text>'
        if rate is not None
        else ""
    )
    return (
        f'<rect x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" fill="{_colour(rate)}">'
        f"<title>{title}</title></rect>{figure}"
    )


def heatmap_svg(names: list[str], win_rate: list[list[float | None]]) -> SafeString:
    n = len(names)
    width, height = LABEL + n * CELL + TOP, TOP + n * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'width="{width}" height="{height}" font-family="sans-serif">'
    ]
    for row, name in enumerate(names):
        label = escape(_short(name))
        middle = TOP + row * CELL + CELL / 2 + 4
        parts.append(f'<text x="{LABEL - 8}" y="{middle}" font-size="12" text-anchor="end">{label}</text>')
        x = LABEL + row * CELL + CELL / 2
        parts.append(f'<text x="{x}" y="{TOP - 8}" font-size="12" transform="rotate(-40 {x} {TOP - 8})">{label}</text>')
        parts.extend(_cell(row, column, names, None if row == column else win_rate[row][column]) for column in range(n))
    parts.append("</svg>")
    return mark_safe("".join(parts))
