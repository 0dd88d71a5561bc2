"""Bootstrap 95 % confidence intervals over trajectories for every figure of the agreement report.

A replicate draws as many trajectories as the study has, with replacement, and recomputes
each figure as if the drawn trajectories (duplicates included, as separate units) were the
study. Every figure of the report is a function of a few sums, so a replicate is a vector of
trajectory multiplicities ``w`` and each sum is ``w @ per_trajectory_sums``: thousands of
replicates cost a few matrix products, not thousands of reports.

- Pair figures (averages, differences, correlations, QWK) come from the weighted
  distribution of the distinct (human, LLM) score combinations of the pairs; Spearman uses
  the weighted average ranks of those values, which is what ``scipy.stats.spearmanr`` does
  with ties.
- Inter-rater figures (alpha interval, ICC) come from per-unit counts, sums and sums of
  squares of the human scores, as in ``annotation.reliability``; a unit is a (trajectory,
  item), drawn as often as its trajectory. The people's mean comes from per-trajectory
  counts and sums. These need no judge.
Counts (pairs, trajectories, raters) are facts of the study, not estimates: they get no
interval.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from annotation.agreement import AgreementResult, HumanUnits, RatingsFrame, item_codes_of, row_masks
from annotation.rubric import RubricDefinition

REPLICATES = 1000
SEED = 20251217
CHUNK = 200
PAIR_FIGURES = ("human_avg", "llm_avg", "mean_diff", "sd_diff", "mae", "within1_pct")
ITEM_PAIR_FIGURES = ("pearson", "spearman", "qwk")
RELIABILITY_FIGURES = ("krippendorff_alpha_interval", "icc_1_1", "icc_1_k")
HUMAN_FIGURES = ("human_mean", *RELIABILITY_FIGURES)
"""The people's figures of every line, with or without a judge (``agreement._inter_rater``)."""


@dataclass(frozen=True)
class PairTable:
    """Per trajectory, how many pairs take each distinct (human, LLM) combination."""

    human: np.ndarray
    llm: np.ndarray
    counts: np.ndarray

    @classmethod
    def build(cls, human: np.ndarray, llm: np.ndarray, trajectory: np.ndarray, n_trajectories: int) -> PairTable:
        combos, combo = np.unique(np.stack([human, llm], axis=1).reshape(-1, 2), axis=0, return_inverse=True)
        combo = combo.reshape(-1)
        size = combos.shape[0]
        counts = np.bincount(trajectory * size + combo, minlength=n_trajectories * size).reshape(n_trajectories, size)
        return cls(combos[:, 0], combos[:, 1], counts.astype(float))


def _divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def _weighted_ranks(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Average ranks (ties shared) of each combination's value, per replicate."""
    distinct, position = np.unique(values, return_inverse=True)
    per_value = np.zeros((weights.shape[0], distinct.size))
    for index in range(distinct.size):
        per_value[:, index] = weights[:, position == index].sum(axis=1)
    below = np.cumsum(per_value, axis=1) - per_value
    return (below + (per_value + 1) / 2)[:, position]


def _correlation(first: np.ndarray, second: np.ndarray, weights: np.ndarray, count: np.ndarray) -> np.ndarray:
    mean_first = _divide((weights * first).sum(axis=1), count)[:, None]
    mean_second = _divide((weights * second).sum(axis=1), count)[:, None]
    covariance = (weights * (first - mean_first) * (second - mean_second)).sum(axis=1)
    spread = (weights * (first - mean_first) ** 2).sum(axis=1) * (weights * (second - mean_second) ** 2).sum(axis=1)
    tiny = spread <= 1e-24
    result = _divide(covariance, np.sqrt(np.where(tiny, 0, spread)))
    return np.where((count >= 2) & ~tiny, result, np.nan)


def pair_figures(table: PairTable, multiplicity: np.ndarray, *, with_correlations: bool) -> dict[str, np.ndarray]:
    """Row (and item) figures for each replicate; ``multiplicity`` is replicates x trajectories."""
    weights = multiplicity @ table.counts
    count = weights.sum(axis=1)
    difference = table.human - table.llm
    mean_diff = _divide(weights @ difference, count)
    squared = _divide(weights @ difference**2 - count * np.nan_to_num(mean_diff) ** 2, count - 1)
    figures = {
        "human_avg": _divide(weights @ table.human, count),
        "llm_avg": _divide(weights @ table.llm, count),
        "mean_diff": mean_diff,
        "sd_diff": np.where(count >= 2, np.sqrt(np.maximum(squared, 0)), np.nan),
        "mae": _divide(weights @ np.abs(difference), count),
        "within1_pct": 100 * _divide(weights @ (np.abs(difference) <= 1), count),
    }
    if with_correlations:
        figures["pearson"] = _correlation(table.human, table.llm, weights, count)
        figures["spearman"] = _correlation(
            _weighted_ranks(table.human, weights), _weighted_ranks(table.llm, weights), weights, count
        )
        figures["qwk"] = _concordance(table, weights, count)
    return figures


def _concordance(table: PairTable, weights: np.ndarray, count: np.ndarray) -> np.ndarray:
    mean_human = _divide(weights @ table.human, count)[:, None]
    mean_llm = _divide(weights @ table.llm, count)[:, None]
    covariance = _divide((weights * (table.human - mean_human) * (table.llm - mean_llm)).sum(axis=1), count)
    variance_human = _divide((weights * (table.human - mean_human) ** 2).sum(axis=1), count)
    variance_llm = _divide((weights * (table.llm - mean_llm) ** 2).sum(axis=1), count)
    denominator = variance_human + variance_llm + (mean_human[:, 0] - mean_llm[:, 0]) ** 2
    return np.where(denominator > 1e-24, 2 * covariance / np.where(denominator > 1e-24, denominator, 1), np.nan)


@dataclass(frozen=True)
class UnitSums:
    """Per trajectory, sums over its units scored two or more times: how many, their counts,
    sums and sums of squares, and per unit sum/count (``between``), the unit's share of D_o
    (``observed``), the within-unit sum of squares (``within``) and count squared."""

    units: np.ndarray
    count: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    between: np.ndarray
    observed: np.ndarray
    within: np.ndarray
    count_squared: np.ndarray


def reliability_figures(sums: UnitSums, multiplicity: np.ndarray) -> dict[str, np.ndarray]:
    """Krippendorff's alpha (interval) and one-way ICC for each replicate (as
    ``annotation.reliability`` computes them), from sums already gathered per trajectory."""
    units = multiplicity @ sums.units
    total = multiplicity @ sums.count
    totals = multiplicity @ sums.total
    squares = multiplicity @ sums.squares
    observed = _divide(multiplicity @ sums.observed, total)
    grand = squares - _divide(totals**2, total)
    expected = _divide(2 * grand, total - 1)
    alpha = np.where(expected > 1e-12, 1 - observed / np.where(expected > 1e-12, expected, 1), np.nan)
    alpha = np.where((units >= 1) & (total >= 2), alpha, np.nan)

    between = _divide(multiplicity @ sums.between - _divide(totals**2, total), units - 1)
    within = _divide(multiplicity @ sums.within, total - units)
    k0 = _divide(total - _divide(multiplicity @ sums.count_squared, total), units - 1)
    denominator = between + (k0 - 1) * within
    single = np.where(denominator > 1e-12, (between - within) / np.where(denominator > 1e-12, denominator, 1), np.nan)
    mean_raters = _divide(total, units)
    spread = 1 + (mean_raters - 1) * single
    average = np.where(np.abs(spread) > 1e-12, mean_raters * single / np.where(spread != 0, spread, 1), np.nan)
    valid = (units >= 2) & (total - units > 0)
    return {
        "krippendorff_alpha_interval": alpha,
        "icc_1_1": np.where(valid, single, np.nan),
        "icc_1_k": np.where(valid, average, np.nan),
    }


def multiplicities(n_trajectories: int, replicates: int, seed: int) -> Iterator[np.ndarray]:
    """Replicates x trajectories draw counts, in chunks that keep memory flat."""
    rng = np.random.default_rng(seed)
    uniform = np.full(n_trajectories, 1 / n_trajectories)
    for start in range(0, replicates, CHUNK):
        yield rng.multinomial(n_trajectories, uniform, size=min(CHUNK, replicates - start)).astype(float)


def _interval(samples: np.ndarray) -> list[float] | None:
    finite = samples[np.isfinite(samples)]
    if finite.size < max(2, samples.size // 2):
        return None
    low, high = np.percentile(finite, [2.5, 97.5])
    return [float(low), float(high)]


@dataclass(frozen=True)
class HumanTable:
    """The people's scores of one line, summed per trajectory: every score's count and sum (for
    their mean), and over the trajectory's units scored two or more times (a unit: one item of
    it) the sums ``reliability_figures`` needs. A unit goes with its trajectory, so every
    figure of a replicate is a product of the multiplicities with these vectors."""

    count: np.ndarray
    total: np.ndarray
    shared: UnitSums

    @classmethod
    def build(cls, units: HumanUnits, codes: list[int], n_trajectories: int) -> HumanTable:
        chosen = units.of_items(codes)
        trajectory = units.trajectory[chosen]

        def per_trajectory(values: np.ndarray, where: np.ndarray | None = None) -> np.ndarray:
            keep = slice(None) if where is None else where
            return np.bincount(trajectory[keep], weights=values[keep], minlength=n_trajectories)

        count, total, squares = units.count[chosen], units.total[chosen], units.squares[chosen]
        shared = count >= 2
        within = np.where(shared, squares - total**2 / np.maximum(count, 1), 0)
        return cls(
            count=per_trajectory(count),
            total=per_trajectory(total),
            shared=UnitSums(
                units=per_trajectory(np.ones_like(count), shared),
                count=per_trajectory(count, shared),
                total=per_trajectory(total, shared),
                squares=per_trajectory(squares, shared),
                between=per_trajectory(total**2 / np.maximum(count, 1), shared),
                observed=per_trajectory(2 * count * within / np.maximum(count - 1, 1), shared),
                within=per_trajectory(within, shared),
                count_squared=per_trajectory(count**2, shared),
            ),
        )

    def figures(self, multiplicity: np.ndarray) -> dict[str, np.ndarray]:
        figures = {"human_mean": _divide(multiplicity @ self.total, multiplicity @ self.count)}
        return figures | reliability_figures(self.shared, multiplicity)


class ReportResampler:
    """Every figure of one report, recomputed for replicates given as trajectory multiplicities."""

    def __init__(self, result: AgreementResult, *, rubric: RubricDefinition, frame: RatingsFrame) -> None:
        self.n_trajectories = len(frame.trajectories)
        pairs, item_codes = result.pairs, item_codes_of(frame)
        self.keys = list(row_masks(rubric, pairs, item_codes).items())
        self.tables = {
            key: PairTable.build(pairs.human[mask], pairs.llm[mask], pairs.trajectory[mask], self.n_trajectories)
            for key, mask in self.keys
            if mask.any()
        }
        units = result.human_units or HumanUnits.of(frame)
        self.humans = {
            key: HumanTable.build(
                units, [item_codes[item] for item in items if item in item_codes], self.n_trajectories
            )
            for key, items in _line_items(rubric)
        }

    def figures(self, multiplicity: np.ndarray) -> dict[tuple[str, str], dict[str, np.ndarray]]:
        """(level, id) -> figure -> one value per replicate (``nan`` where undefined); a line
        without pairs (no judge) has the people's figures only."""
        result = {}
        for key, _mask in self.keys:
            level, _entry_id = key
            figures = (
                pair_figures(self.tables[key], multiplicity, with_correlations=level == "item")
                if key in self.tables
                else {}
            )
            result[key] = figures | self.humans[key].figures(multiplicity)
        return result


def _line_items(rubric: RubricDefinition) -> Iterator[tuple[tuple[str, str], list[str]]]:
    """Every line of the report, keyed as ``row_masks`` keys it, with its items."""
    for group_id, _title in rubric.groups:
        rows = rubric.rows_of(group_id)
        for row in rows:
            yield ("row", row.id), list(row.items)
        yield ("group", group_id), [item for row in rows for item in row.items]
    yield ("overall", "overall"), list(rubric.item_ids)
    for item in rubric.item_ids:
        yield ("item", item), [item]


def bootstrap_attach(
    result: AgreementResult,
    *,
    rubric: RubricDefinition,
    frame: RatingsFrame,
    replicates: int = REPLICATES,
    seed: int = SEED,
) -> None:
    """Add ``ci95`` (figure -> [low, high] or null) to every row and item of the report, and a
    ``bootstrap`` block saying how the intervals were drawn."""
    n_trajectories = len(frame.trajectories)
    report = result.report
    report["bootstrap"] = {"replicates": replicates, "seed": seed, "unit": "trajectory", "level": 0.95}
    if n_trajectories < 2 or replicates < 2:
        for _key, entry in _entries(report):
            entry["ci95"] = dict.fromkeys(_figures_of(entry))
        report["notes"].append("confidence intervals need at least two trajectories")
        return
    resampler = ReportResampler(result, rubric=rubric, frame=frame)
    samples: dict[tuple[str, str], dict[str, list[np.ndarray]]] = {}
    for multiplicity in multiplicities(n_trajectories, replicates, seed):
        for key, figures in resampler.figures(multiplicity).items():
            for name, values in figures.items():
                samples.setdefault(key, {}).setdefault(name, []).append(values)
    for key, entry in _entries(report):
        drawn = samples.get(key, {})
        entry["ci95"] = {
            name: _interval(np.concatenate(drawn[name])) if name in drawn else None for name in _figures_of(entry)
        }


def _entries(report: dict[str, Any]) -> Iterator[tuple[tuple[str, str], dict[str, Any]]]:
    """Every line of the report with its (level, id) key, as ``row_masks`` names them."""
    for group in report["groups"]:
        for row in group["rows"]:
            yield ("row", row["id"]), row
        yield ("group", group["id"]), group["overall"]
    yield ("overall", "overall"), report["overall"]
    for item in report["items"]:
        yield ("item", item["id"]), item


def _figures_of(entry: dict[str, Any]) -> tuple[str, ...]:
    pair = (*PAIR_FIGURES, *ITEM_PAIR_FIGURES) if "pearson" in entry else PAIR_FIGURES
    return (*pair, *HUMAN_FIGURES)
