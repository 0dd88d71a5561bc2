"""Server-rendered SVG charts of the scorecards: a person's trend, the models' heatmap.

Each chart escapes every text it embeds (trial labels, model names) and so returns a
``SafeString`` that a template inlines as it is.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from trials.scoring.capabilities import CAPABILITIES
from trials.scoring.report import capability_cell


def trend_svg(points: list[tuple[str, float]]) -> SafeString:
    """The overall capability score (0-1) of each scorecard, oldest first, as a line."""
    width, height, pad = 520, 180, 32
    if not points:
        return mark_safe("")
    step = (width - 2 * pad) / max(1, len(points) - 1)
    coords = [
        (pad + index * step, height - pad - value * (height - 2 * pad)) for index, (_, value) in enumerate(points)
    ]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    dots = "".join(
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4"><title>{escape(label)}: {value:.2f}</title></circle>'
        for (x, y), (label, value) in zip(coords, points, strict=True)
    )
    axis = f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#999"/>'
    labels = f'<text x="4" y="{pad}" font-size="11">1.0</text><text x="4" y="{height - pad}" font-size="11">0.0</text>'
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="Overall score per trial">{axis}{labels}'
        f'<polyline points="{line}" fill="none" stroke="#1f5fa8" stroke-width="2"/>{dots}</svg>'
    )


def heatmap_svg(rows: list[dict]) -> SafeString:
    """Figure 6: a row per model, a column per capability (halves averaged); darker is higher."""
    cell_w, cell_h, left, top = 84, 26, 180, 70
    width, height = left + cell_w * len(CAPABILITIES), top + cell_h * len(rows) + 4
    parts = [
        f'<text x="{left + index * cell_w + cell_w / 2}" y="{top - 8}" font-size="10" text-anchor="end" '
        f'transform="rotate(-30 {left + index * cell_w + cell_w / 2} {top - 8})">{name.replace("_", " ")}</text>'
        for index, name in enumerate(CAPABILITIES)
    ]
    for row_index, row in enumerate(rows):
        y = top + row_index * cell_h
        parts.append(
            f'<text x="{left - 6}" y="{y + 17}" font-size="11" text-anchor="end">{escape(row["model"])}</text>'
        )
        for index, name in enumerate(CAPABILITIES):
            value = capability_cell(row["capabilities"][name])
            shade = "#eee" if value is None else f"rgba(31,95,168,{0.1 + 0.9 * value:.2f})"
            text = "–" if value is None else f"{value:.2f}"
            x = left + index * cell_w
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell_w - 2}" height="{cell_h - 2}" fill="{shade}"/>'
                f'<text x="{x + cell_w / 2}" y="{y + 17}" font-size="11" text-anchor="middle">{text}</text>'
            )
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="Capability heatmap">{"".join(parts)}</svg>'
    )
