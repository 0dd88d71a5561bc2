"""Server-rendered SVG charts of the scorecards: a scorecard's capabilities, a person's trend,
the models' heatmap, a class's distribution. Scores are stored in [0,1]; every chart a
person reads labels them out of 10, the one scale of the scorecard pages.

Each chart escapes every text it embeds (trial labels, model names) and so returns a
``SafeString`` that a template inlines as it is.
"""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from scoring.capabilities import CAPABILITIES
from scoring.names import capability_name
from scoring.report import capability_cell


def capability_bars_svg(rows: list[tuple[str, float | None]]) -> SafeString:
    """A scorecard's capabilities (or role dimensions) as horizontal bars out of 10, a
    capability not scored shown as such; sized to stay legible on a phone."""
    if not rows:
        return mark_safe("")
    width, row_h, label_w, right = 340, 26, 150, 36
    bar_w = width - label_w - right
    not_scored, title = escape(gettext("not scored")), escape(gettext("Scores out of 10"))
    parts = []
    for index, (name, value) in enumerate(rows):
        y = index * row_h + 4
        parts.append(f'<text x="0" y="{y + 14}" font-size="12">{escape(name)}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{bar_w}" height="14" fill="#e8eef6"/>')
        if value is None:
            parts.append(f'<text x="{label_w + 4}" y="{y + 14}" font-size="11" fill="#555">{not_scored}</text>')
            continue
        parts.append(
            f'<rect x="{label_w}" y="{y + 3}" width="{bar_w * value:.1f}" height="14" fill="#1f5fa8">'
            f"<title>{escape(name)}: {value * 10:.1f}</title></rect>"
            f'<text x="{width - right + 4}" y="{y + 14}" font-size="12">{value * 10:.1f}</text>'
        )
    height = len(rows) * row_h + 8
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{title}">{"".join(parts)}</svg>'
    )


def trend_svg(points: list[tuple[str, float]]) -> SafeString:
    """The overall score of each scorecard, oldest first, as a line labelled 0-10."""
    width, height, pad = 520, 180, 32
    if not points:
        return mark_safe("")
    step = (width - 2 * pad) / max(1, len(points) - 1)
    coords = [
        (pad + index * step, height - pad - value * (height - 2 * pad)) for index, (_, value) in enumerate(points)
    ]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    dots = "".join(
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4"><title>{escape(label)}: {value * 10:.1f}</title></circle>'
        for (x, y), (label, value) in zip(coords, points, strict=True)
    )
    axis = f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#999"/>'
    labels = f'<text x="4" y="{pad}" font-size="11">10</text><text x="4" y="{height - pad}" font-size="11">0</text>'
    title = escape(gettext("Overall score per trial"))
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{title}">{axis}{labels}'
        f'<polyline points="{line}" fill="none" stroke="#1f5fa8" stroke-width="2"/>{dots}</svg>'
    )


def heatmap_svg(rows: list[dict]) -> SafeString:
    """Figure 6: a row per model, a column per capability (halves averaged); darker is higher."""
    cell_w, cell_h, left, top = 84, 26, 180, 70
    width, height = left + cell_w * len(CAPABILITIES), top + cell_h * len(rows) + 4
    title = escape(gettext("Capability heatmap"))
    parts = [
        f'<text x="{left + index * cell_w + cell_w / 2}" y="{top - 8}" font-size="10" text-anchor="end" '
        f'transform="rotate(-30 {left + index * cell_w + cell_w / 2} {top - 8})">{escape(capability_name(name))}</text>'
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
        f'aria-label="{title}">{"".join(parts)}</svg>'
    )


def histogram_svg(values: list[float], *, bins: int = 10, label: str = "") -> SafeString:
    """How many of ``values`` (0-1) fall in each tenth, as bars with their counts; small
    enough in its own units that its text stays legible on a phone."""
    width, height, left, right, bottom, top = 340, 170, 12, 12, 36, 16
    if not values:
        return mark_safe("")
    label = label or gettext("Overall score")
    caption = escape(gettext("%(label)s (0-10): students per point") % {"label": label})
    title = escape(gettext("%(label)s: distribution") % {"label": label})
    counts = [0] * bins
    for value in values:
        counts[min(bins - 1, max(0, int(value * bins)))] += 1
    tallest, bar_w = max(counts), (width - left - right) / bins
    plot_h, base = height - top - bottom, height - bottom
    parts = [f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" stroke="#999"/>']
    for index, count in enumerate(counts):
        x, bar_h = left + index * bar_w, plot_h * count / tallest
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{base - bar_h:.1f}" width="{bar_w - 2:.1f}" height="{bar_h:.1f}" '
            f'fill="#1f5fa8"><title>{index * 10 / bins:g}-{(index + 1) * 10 / bins:g}: {count}</title></rect>'
        )
        if count:
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{base - bar_h - 3:.1f}" font-size="12" '
                f'text-anchor="middle">{count}</text>'
            )
    for index in range(0, bins + 1, 2):
        parts.append(
            f'<text x="{left + index * bar_w:.1f}" y="{base + 14}" font-size="11" text-anchor="middle">'
            f"{index * 10 / bins:g}</text>"
        )
    parts.append(f'<text x="{width / 2:.1f}" y="{height - 4}" font-size="11" text-anchor="middle">{caption}</text>')
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{title}">{"".join(parts)}</svg>'
    )
