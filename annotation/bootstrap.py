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
- Inter-rater figures (alpha interval, ICC) come from per-trajectory counts, sums and sums
  of squares of the human scores, as in ``annotation.reliability``.
Counts (pairs, trajectories, raters) are facts of the study, not estimates: they get no
interval.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from annotation.agreement import AgreementResult, RatingsFrame, item_codes_of, row_masks
from annotation.rubric import RubricDefinition

REPLICATES = 1000
SEED = 20251217
CHUNK = 200
PAIR_FIGURES = ("human_avg", "llm_avg", "mean_diff", "sd_diff", "mae", "within1_pct")
ITEM_PAIR_FIGURES = ("pearson", "spearman", "qwk")
RELIABILITY_FIGURES = ("krippendorff_alpha_interval", "icc_1_1", "icc_1_k")


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


@dataclass(frozen=True)
class UnitTable:
    """Per trajectory, the count, sum and sum of squares of the human scores of one item,
    zero for trajectories with fewer than two (they carry no agreement information)."""

    count: np.ndarray
    total: np.ndarray
    squares: np.ndarray

    @classmethod
    def build(cls, unit: np.ndarray, score: np.ndarray, n_trajectories: int) -> UnitTable:
        count = np.bincount(unit, minlength=n_trajectories).astype(float)
        total = np.bincount(unit, weights=score, minlength=n_trajectories)
        squares = np.bincount(unit, weights=score**2, minlength=n_trajectories)
        pairable = count >= 2
        return cls(count * pairable, total * pairable, squares * pairable)


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


def reliability_figures(table: UnitTable, multiplicity: np.ndarray) -> dict[str, np.ndarray]:
    """Krippendorff's alpha (interval) and one-way ICC for each replicate."""
    units = multiplicity @ (table.count > 0)
    total = multiplicity @ table.count
    sums = multiplicity @ table.total
    squares = multiplicity @ table.squares
    within_unit = np.nan_to_num(table.squares - _divide(table.total**2, table.count))
    per_unit_observed = np.nan_to_num(_divide(2 * table.count * within_unit, table.count - 1))
    observed = _divide(multiplicity @ per_unit_observed, total)
    grand = squares - _divide(sums**2, total)
    expected = _divide(2 * grand, total - 1)
    alpha = np.where(expected > 1e-12, 1 - observed / np.where(expected > 1e-12, expected, 1), np.nan)
    alpha = np.where((units >= 1) & (total >= 2), alpha, np.nan)

    between_sum = multiplicity @ np.nan_to_num(_divide(table.total**2, table.count)) - _divide(sums**2, total)
    between = _divide(between_sum, units - 1)
    within = _divide(multiplicity @ within_unit, total - units)
    k0 = _divide(total - _divide(multiplicity @ table.count**2, total), units - 1)
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


class ReportResampler:
    """Every figure of one report, recomputed for replicates given as trajectory multiplicities."""

    def __init__(self, result: AgreementResult, *, rubric: RubricDefinition, frame: RatingsFrame) -> None:
        self.n_trajectories = len(frame.trajectories)
        pairs, item_codes = result.pairs, item_codes_of(frame)
        self.keys = list(row_masks(rubric, pairs, item_codes).items())
        self.tables = {
            key: PairTable.build(pairs.human[mask], pairs.llm[mask], pairs.trajectory[mask], self.n_trajectories)
            for key, mask in self.keys
        }
        humans = ~frame.is_llm
        self.units = {}
        for item in rubric.item_ids:
            if item in item_codes:
                chosen = humans & (frame.item == item_codes[item])
                self.units[item] = UnitTable.build(frame.trajectory[chosen], frame.score[chosen], self.n_trajectories)

    def figures(self, multiplicity: np.ndarray) -> dict[tuple[str, str], dict[str, np.ndarray]]:
        """(level, id) -> figure -> one value per replicate (``nan`` where undefined)."""
        result = {}
        for key, _mask in self.keys:
            level, entry_id = key
            figures = pair_figures(self.tables[key], multiplicity, with_correlations=level == "item")
            if level == "item" and entry_id in self.units:
                figures |= reliability_figures(self.units[entry_id], multiplicity)
            result[key] = figures
        return result


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
    return (*PAIR_FIGURES, *ITEM_PAIR_FIGURES, *RELIABILITY_FIGURES) if "pearson" in entry else PAIR_FIGURES
