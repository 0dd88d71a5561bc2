"""Agreement and reliability statistics on numpy: Krippendorff's alpha, one-way ICC, Lin's
concordance (= quadratic-weighted kappa on integers), Cohen's kappa.

Written here because the reference implementations (``krippendorff``, ``pingouin``) are GPL;
the tests check these against them and against published worked examples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

Level = Literal["nominal", "ordinal", "interval"]


@dataclass(frozen=True)
class UnitScores:
    """Scores grouped by unit (trajectory): ``unit`` codes aligned with ``score`` values."""

    unit: np.ndarray
    score: np.ndarray

    def pairable(self) -> UnitScores:
        """Only units with at least two scores carry information about agreement."""
        counts = np.bincount(self.unit)
        keep = counts[self.unit] >= 2
        return UnitScores(self.unit[keep], self.score[keep])


def _unit_moments(scores: UnitScores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    counts = np.bincount(scores.unit).astype(float)
    sums = np.bincount(scores.unit, weights=scores.score)
    squares = np.bincount(scores.unit, weights=scores.score**2)
    present = counts > 0
    return counts[present], sums[present], squares[present]


def krippendorff_alpha_interval(scores: UnitScores) -> float | None:
    """Interval alpha in closed form: D_o and D_e from within-unit and total sums of squares."""
    return alpha_interval_of(*_unit_moments(scores.pairable()))


def alpha_interval_of(counts: np.ndarray, sums: np.ndarray, squares: np.ndarray) -> float | None:
    """Interval alpha from the count, sum and sum of squares of each unit scored two or more times."""
    total = counts.sum()
    if counts.size == 0 or total < 2:
        return None
    within = squares - sums**2 / counts
    observed = np.sum(2 * counts * within / (counts - 1)) / total
    grand = squares.sum() - sums.sum() ** 2 / total
    expected = 2 * grand / (total - 1)
    if expected <= 0:
        return None
    return float(1 - observed / expected)


def krippendorff_alpha(reliability: np.ndarray, level: Level) -> float | None:
    """Alpha from a coders x units matrix with ``nan`` for missing values (coincidence matrix)."""
    matrix = np.asarray(reliability, dtype=float)
    values = np.unique(matrix[~np.isnan(matrix)])
    index = {value: position for position, value in enumerate(values)}
    coincidences = np.zeros((values.size, values.size))
    for unit in matrix.T:
        present = unit[~np.isnan(unit)]
        if present.size < 2:
            continue
        codes = np.array([index[value] for value in present])
        pair_counts = np.zeros_like(coincidences)
        np.add.at(pair_counts, (codes[:, None], codes[None, :]), 1)
        pair_counts[np.diag_indices_from(pair_counts)] -= np.bincount(codes, minlength=values.size)
        coincidences += pair_counts / (present.size - 1)
    marginals = coincidences.sum(axis=1)
    total = marginals.sum()
    if total < 2:
        return None
    delta = _delta(values, marginals, level)
    observed = np.sum(coincidences * delta)
    expected = np.sum(np.outer(marginals, marginals) * delta) / (total - 1)
    if expected == 0:
        return None
    return float(1 - observed / expected)


def _delta(values: np.ndarray, marginals: np.ndarray, level: Level) -> np.ndarray:
    if level == "nominal":
        return 1.0 - np.eye(values.size)
    if level == "interval":
        return (values[:, None] - values[None, :]) ** 2
    cumulative = np.cumsum(marginals)
    low, high = (
        np.minimum.outer(np.arange(values.size), np.arange(values.size)),
        np.maximum.outer(np.arange(values.size), np.arange(values.size)),
    )
    between = cumulative[high] - cumulative[low] + marginals[low]
    return (between - (marginals[low] + marginals[high]) / 2) ** 2


@dataclass(frozen=True)
class IntraclassCorrelation:
    icc_1_1: float | None
    icc_1_k: float | None
    mean_raters: float | None


def icc_oneway(scores: UnitScores) -> IntraclassCorrelation:
    """One-way random ICC (raters differ from unit to unit), unbalanced-safe.

    ICC(1,1) uses the unbalanced ANOVA estimator with k0; ICC(1,k) applies Spearman-Brown
    with k the mean number of raters per unit. Both equal Shrout & Fleiss on balanced data.
    """
    return icc_oneway_of(*_unit_moments(scores.pairable()))


def icc_oneway_of(counts: np.ndarray, sums: np.ndarray, squares: np.ndarray) -> IntraclassCorrelation:
    """``icc_oneway`` from the count, sum and sum of squares of each unit scored two or more times."""
    units, total = counts.size, counts.sum()
    if units < 2 or total - units <= 0:
        return IntraclassCorrelation(None, None, None)
    grand_mean = sums.sum() / total
    between = np.sum(counts * (sums / counts - grand_mean) ** 2) / (units - 1)
    within = np.sum(squares - sums**2 / counts) / (total - units)
    k0 = (total - np.sum(counts**2) / total) / (units - 1)
    denominator = between + (k0 - 1) * within
    mean_raters = total / units
    if denominator <= 0:
        return IntraclassCorrelation(None, None, float(mean_raters))
    single = (between - within) / denominator
    spread = 1 + (mean_raters - 1) * single
    average = mean_raters * single / spread if spread != 0 else None
    return IntraclassCorrelation(float(single), None if average is None else float(average), float(mean_raters))


def concordance(first: np.ndarray, second: np.ndarray) -> float | None:
    """Lin's concordance correlation with population moments.

    On integer scores it is exactly the quadratic-weighted kappa with expected counts from
    the marginals: sum w*O / sum w*E reduces to the same moments.
    """
    if first.size == 0:
        return None
    mean_first, mean_second = first.mean(), second.mean()
    covariance = np.mean((first - mean_first) * (second - mean_second))
    denominator = first.var() + second.var() + (mean_first - mean_second) ** 2
    if denominator == 0:
        return None
    return float(2 * covariance / denominator)


def cohen_kappa(table: np.ndarray) -> float | None:
    """Cohen's kappa from a square contingency table of two raters' labels."""
    table = np.asarray(table, dtype=float)
    total = table.sum()
    if total == 0:
        return None
    observed = np.trace(table) / total
    expected = np.sum(table.sum(axis=0) * table.sum(axis=1)) / total**2
    if expected == 1:
        return None
    return float((observed - expected) / (1 - expected))


def divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """``numerator / denominator``, ``nan`` where the denominator is not positive."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def weighted_ranks(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The average rank (ties shared, as ``scipy.stats.rankdata``) of each of ``values`` when
    each is taken as often as its weight; ``weights`` is sets x values, one ranking per set."""
    distinct, position = np.unique(values, return_inverse=True)
    per_value = np.zeros((weights.shape[0], distinct.size))
    for index in range(distinct.size):
        per_value[:, index] = weights[:, position == index].sum(axis=1)
    below = np.cumsum(per_value, axis=1) - per_value
    return (below + (per_value + 1) / 2)[:, position]


def weighted_correlation(first: np.ndarray, second: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Pearson's r of value pairs (``first``, ``second``) each taken as often as its weight,
    for every row of ``weights`` (sets x pairs; ranks as ``first`` and ``second`` give
    Spearman's rho); ``nan`` with fewer than two pairs or no spread."""
    count = weights.sum(axis=1)
    mean_first = divide((weights * first).sum(axis=1), count)[:, None]
    mean_second = divide((weights * second).sum(axis=1), count)[:, None]
    covariance = (weights * (first - mean_first) * (second - mean_second)).sum(axis=1)
    spread = (weights * (first - mean_first) ** 2).sum(axis=1) * (weights * (second - mean_second) ** 2).sum(axis=1)
    tiny = spread <= 1e-24
    result = np.clip(divide(covariance, np.sqrt(np.where(tiny, 0, spread))), -1, 1)
    return np.where((count >= 2) & ~tiny, result, np.nan)


def weighted_concordance(first: np.ndarray, second: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``concordance`` of value pairs taken as often as their weights, per row of ``weights``;
    ``nan`` where it is undefined."""
    count = weights.sum(axis=1)
    mean_first = divide(weights @ first, count)[:, None]
    mean_second = divide(weights @ second, count)[:, None]
    covariance = divide((weights * (first - mean_first) * (second - mean_second)).sum(axis=1), count)
    variance_first = divide((weights * (first - mean_first) ** 2).sum(axis=1), count)
    variance_second = divide((weights * (second - mean_second) ** 2).sum(axis=1), count)
    denominator = variance_first + variance_second + (mean_first[:, 0] - mean_second[:, 0]) ** 2
    return np.where(denominator > 1e-24, 2 * covariance / np.where(denominator > 1e-24, denominator, 1), np.nan)
