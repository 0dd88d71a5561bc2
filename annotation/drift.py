"""Drift (issue #21, item 6): how each rater of a study scores, and how far from the other
raters, as their work goes on.

A rater's questionnaires in the study are taken in the order they were submitted (the order
their ratings were stored). After each one, over their last ``WINDOW`` questionnaires:

- **mean score**: the mean of the rater's scores;
- **distance from the others**: the mean absolute difference between the rater's score of an
  item and the mean of the other raters' scores of the same item on the same trajectory
  (items nobody else scored are left out); 0 is full agreement.

N/A answers are in neither, and training and gold questionnaires are not ratings, so they
are not here either. A pairwise study has no drift: its answers are preferences.
The plots are SVG drawn here, as ``scoring.charts`` draws the scorecards'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from annotation.models import Rating, Study

WINDOW = 5
COLOURS = ("#1f5fa8", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d")


@dataclass(frozen=True)
class RaterDrift:
    """One rater's rolling figures, one value per questionnaire submitted, oldest first."""

    rater: str
    mean_score: tuple[float, ...]
    distance: tuple[float | None, ...]


def drift_series(study: Study, window: int = WINDOW) -> list[RaterDrift]:
    """Every rater who gave scores in the study, by name."""
    if not study.rubric.definition.kind.scores_points:
        return []
    rows = list(
        Rating.objects.filter(study=study, source=Rating.Source.HUMAN, score__isnull=False)
        .order_by("created_at", "id")
        .values_list("rater", "trajectory_id", "item", "score")
    )
    totals: dict[tuple[str, str], list[float]] = {}
    questionnaires: dict[str, dict[str, list[tuple[str, float]]]] = {}
    for rater, trajectory_id, item, score in rows:
        total = totals.setdefault((trajectory_id, item), [0.0, 0])
        total[0] += score
        total[1] += 1
        questionnaires.setdefault(rater, {}).setdefault(trajectory_id, []).append((item, score))
    return [_rolling(rater, list(questionnaires[rater].items()), totals, window) for rater in sorted(questionnaires)]


def _rolling(
    rater: str,
    questionnaires: list[tuple[str, list[tuple[str, float]]]],
    totals: dict[tuple[str, str], list[float]],
    window: int,
) -> RaterDrift:
    scores: list[list[float]] = []
    distances: list[list[float]] = []
    for trajectory_id, answers in questionnaires:
        scores.append([score for _item, score in answers])
        apart = []
        for item, score in answers:
            total, count = totals[trajectory_id, item]
            if count > 1:
                apart.append(abs(score - (total - score) / (count - 1)))
        distances.append(apart)
    mean_score, distance = [], []
    for index in range(len(questionnaires)):
        start = max(0, index - window + 1)
        pooled = [value for values in scores[start : index + 1] for value in values]
        mean_score.append(sum(pooled) / len(pooled))
        pooled = [value for values in distances[start : index + 1] for value in values]
        distance.append(sum(pooled) / len(pooled) if pooled else None)
    return RaterDrift(rater, tuple(mean_score), tuple(distance))


def drift_svg(
    series: Sequence[RaterDrift],
    figure: Callable[[RaterDrift], Sequence[float | None]],
    *,
    low: float,
    high: float,
    title: str,
) -> SafeString:
    """One line per rater of ``figure`` against the questionnaires submitted (1, 2, ...),
    between ``low`` and ``high``, with a legend; every text it embeds is escaped."""
    longest = max((len(figure(entry)) for entry in series), default=0)
    if not longest:
        return mark_safe("")
    width, plot_h, left, right, top = 560, 170, 34, 12, 24
    legend_rows = (len(series) + 3) // 4
    height = top + plot_h + 26 + legend_rows * 18
    base = top + plot_h
    step = (width - left - right) / max(longest - 1, 1)
    span = (high - low) or 1

    def point(index: int, value: float) -> tuple[float, float]:
        return left + index * step, base - plot_h * (min(max(value, low), high) - low) / span

    parts = [
        f'<text x="{left}" y="14" font-size="12">{escape(title)}</text>',
        f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" stroke="#999"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{base}" stroke="#999"/>',
        f'<text x="{left - 4}" y="{top + 4}" font-size="11" text-anchor="end">{high:g}</text>',
        f'<text x="{left - 4}" y="{base}" font-size="11" text-anchor="end">{low:g}</text>',
        f'<text x="{left}" y="{base + 14}" font-size="11" text-anchor="middle">1</text>',
        f'<text x="{width - right}" y="{base + 14}" font-size="11" text-anchor="end">{longest}</text>',
    ]
    for number, entry in enumerate(series):
        colour = COLOURS[number % len(COLOURS)]
        parts.append(_line(escape(entry.rater), colour, figure(entry), point))
        x, y = left + (number % 4) * 130, base + 26 + (number // 4) * 18
        parts.append(
            f'<rect x="{x}" y="{y}" width="10" height="10" fill="{colour}"/>'
            f'<text x="{x + 14}" y="{y + 9}" font-size="11">{escape(entry.rater)}</text>'
        )
    return mark_safe(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}">{"".join(parts)}</svg>'
    )


def _line(
    name: str, colour: str, values: Sequence[float | None], point: Callable[[int, float], tuple[float, float]]
) -> str:
    """A rater's polyline (broken where a value is missing) and a dot per value with its title."""
    segments: list[list[str]] = [[]]
    dots = []
    for index, value in enumerate(values):
        if value is None:
            segments.append([])
            continue
        x, y = point(index, value)
        segments[-1].append(f"{x:.1f},{y:.1f}")
        dots.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"><title>{name} #{index + 1}: {value:.2f}</title></circle>'
        )
    lines = [
        f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" stroke-width="2"/>'
        for points in segments
        if len(points) > 1
    ]
    return "".join(lines) + "".join(dots)
