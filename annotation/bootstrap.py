"""Bootstrap 95 % confidence intervals over trajectories for every figure of the agreement report.

A replicate draws as many trajectories as the study has, with replacement, and recomputes
each figure as if the drawn trajectories (duplicates included, as separate units) were the
study. Every figure of the report is a function of a few sums, so a replicate is a vector of
trajectory multiplicities ``w`` and each sum is ``w @ per_trajectory_sums``: the ratings are
never copied or redrawn, and thousands of replicates cost one matrix product per chunk of
replicates (``ReportColumns``), not thousands of reports.

- Pair figures (averages, differences, correlations, QWK) come from the weighted
  distribution of the distinct (human, LLM) score combinations of each item's pairs; a line
  of several items adds its items' combinations. Spearman uses the weighted average ranks of
  those values, which is what ``scipy.stats.spearmanr`` does with ties.
- Inter-rater figures (alpha interval, ICC) come from per-unit counts, sums and sums of
  squares of the human scores, as in ``annotation.reliability``; a unit is a (trajectory,
  item), drawn as often as its trajectory. The people's mean comes from the units' counts
  and sums. These need no judge.
Counts (pairs, trajectories, raters) are facts of the study, not estimates: they get no
interval.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

from annotation.agreement import (
    PAIR_FIGURES,
    AgreementResult,
    HumanUnits,
    PairCombinations,
    Pairs,
    RatingsFrame,
    item_codes_of,
    report_lines,
)
from annotation.reliability import divide, weighted_concordance, weighted_correlation, weighted_ranks
from annotation.rubric import RubricDefinition

REPLICATES = 1000
SEED = 20251217
CHUNK = 200
ITEM_PAIR_FIGURES = ("pearson", "spearman", "qwk")
RELIABILITY_FIGURES = ("krippendorff_alpha_interval", "icc_1_1", "icc_1_k")
HUMAN_FIGURES = ("human_mean", *RELIABILITY_FIGURES)
"""The people's figures of every line, with or without a judge (``agreement._inter_rater``)."""
UNIT_SUMS = (
    "count",
    "total",
    "units",
    "shared_count",
    "shared_total",
    "squares",
    "between",
    "observed",
    "within",
    "count_squared",
)
"""The people's sums per item and trajectory (its one unit): every score's count and sum, and
for a unit scored two or more times, the sums ``reliability_figures`` needs."""
DENSE_CELLS = 2**25
"""Trajectories x columns up to which the columns are a dense matrix (256 MiB); beyond, sparse."""


def pair_figures(
    human: np.ndarray, llm: np.ndarray, weights: np.ndarray, *, with_correlations: bool
) -> dict[str, np.ndarray]:
    """A line's pair figures for each replicate; ``weights`` (replicates x combinations) says
    how many pairs take each (``human``, ``llm``) combination."""
    count = weights.sum(axis=1)
    difference = human - llm
    mean_diff = divide(weights @ difference, count)
    squared = divide(weights @ difference**2 - count * np.nan_to_num(mean_diff) ** 2, count - 1)
    figures = {
        "human_avg": divide(weights @ human, count),
        "llm_avg": divide(weights @ llm, count),
        "mean_diff": mean_diff,
        "sd_diff": np.where(count >= 2, np.sqrt(np.maximum(squared, 0)), np.nan),
        "mae": divide(weights @ np.abs(difference), count),
        "within1_pct": 100 * divide(weights @ (np.abs(difference) <= 1), count),
    }
    if with_correlations:
        figures["pearson"] = weighted_correlation(human, llm, weights)
        figures["spearman"] = weighted_correlation(
            weighted_ranks(human, weights), weighted_ranks(llm, weights), weights
        )
        figures["qwk"] = weighted_concordance(human, llm, weights)
    return figures


def reliability_figures(sums: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Krippendorff's alpha (interval) and one-way ICC for each replicate (as
    ``annotation.reliability`` computes them), from a line's ``UNIT_SUMS`` per replicate."""
    units, total, totals, squares = sums["units"], sums["shared_count"], sums["shared_total"], sums["squares"]
    observed = divide(sums["observed"], total)
    grand = squares - divide(totals**2, total)
    expected = divide(2 * grand, total - 1)
    alpha = np.where(expected > 1e-12, 1 - observed / np.where(expected > 1e-12, expected, 1), np.nan)
    alpha = np.where((units >= 1) & (total >= 2), alpha, np.nan)

    between = divide(sums["between"] - divide(totals**2, total), units - 1)
    within = divide(sums["within"], total - units)
    k0 = divide(total - divide(sums["count_squared"], total), units - 1)
    denominator = between + (k0 - 1) * within
    single = np.where(denominator > 1e-12, (between - within) / np.where(denominator > 1e-12, denominator, 1), np.nan)
    mean_raters = divide(total, units)
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


def _drawn_ahead(chunks: Iterator[np.ndarray]) -> Iterator[np.ndarray]:
    """The chunks of ``chunks``, each drawn in a worker thread while the one before is used:
    numpy's sampling lets go of the GIL, so the draws overlap the figures' arithmetic. One
    thread draws them all, in order, so the draws are those of a plain loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(next, chunks, None)
        while (chunk := pending.result()) is not None:
            pending = pool.submit(next, chunks, None)
            yield chunk


def _interval(samples: np.ndarray) -> list[float] | None:
    finite = samples[np.isfinite(samples)]
    if finite.size < max(2, samples.size // 2):
        return None
    low, high = np.percentile(finite, [2.5, 97.5])
    return [float(low), float(high)]


def _unit_entries(units: HumanUnits) -> dict[str, np.ndarray]:
    """Each unit's ``UNIT_SUMS`` (zero for a unit scored once, but for its count and sum)."""
    count, total, squares = units.count, units.total, units.squares
    shared = count >= 2
    safe = np.maximum(count, 1)
    within = np.where(shared, squares - total**2 / safe, 0)
    return {
        "count": count,
        "total": total,
        "units": shared.astype(float),
        "shared_count": np.where(shared, count, 0),
        "shared_total": np.where(shared, total, 0),
        "squares": np.where(shared, squares, 0),
        "between": np.where(shared, total**2 / safe, 0),
        "observed": np.where(shared, 2 * count * within / np.maximum(count - 1, 1), 0),
        "within": within,
        "count_squared": np.where(shared, count**2, 0),
    }


@dataclass(frozen=True)
class ReportColumns:
    """Per trajectory, every sum a replicate's figures are made of, one column each: first,
    per item and distinct (human, LLM) combination of scores, how many of the item's pairs on
    the trajectory take it; then, per ``UNIT_SUMS`` name and item, the item's unit on the
    trajectory. A chunk of replicates' sums is one product of their multiplicities with this
    matrix (dense while it is small, sparse beyond)."""

    matrix: np.ndarray | sparse.csr_matrix
    pair_item: np.ndarray
    pair_human: np.ndarray
    pair_llm: np.ndarray
    n_items: int

    @classmethod
    def build(
        cls,
        pairs: Pairs,
        combinations: PairCombinations,
        units: HumanUnits,
        n_items: int,
        n_trajectories: int,
        dense_cells: int = DENSE_CELLS,
    ) -> ReportColumns:
        n_pairs = combinations.count.size
        shape = (n_trajectories, n_pairs + len(UNIT_SUMS) * n_items)
        entries = _unit_entries(units)
        unit_columns = [n_pairs + index * n_items + units.item for index in range(len(UNIT_SUMS))]
        if shape[0] * shape[1] <= dense_cells:
            matrix = np.zeros(shape)
            cells = np.bincount(pairs.trajectory * n_pairs + combinations.of_pair, minlength=n_trajectories * n_pairs)
            matrix[:, :n_pairs] = cells.reshape(n_trajectories, n_pairs)
            for name, column in zip(UNIT_SUMS, unit_columns, strict=True):
                matrix[units.trajectory, column] = entries[name]
        else:
            rows = np.concatenate([pairs.trajectory, *(units.trajectory for _name in UNIT_SUMS)])
            data = np.concatenate([np.ones(pairs.trajectory.size), *(entries[name] for name in UNIT_SUMS)])
            columns = np.concatenate([combinations.of_pair, *unit_columns])
            matrix = sparse.coo_matrix((data, (rows, columns)), shape).tocsr()
        return cls(matrix, combinations.item, combinations.human, combinations.llm, n_items)

    def sums(self, multiplicity: np.ndarray) -> np.ndarray:
        """Replicates x columns: every column summed over each replicate's draws."""
        return np.asarray((self.matrix.T @ multiplicity.T).T)

    def pair_columns(self, codes: list[int]) -> np.ndarray:
        return np.flatnonzero(np.isin(self.pair_item, codes))

    def unit_sums(self, sums: np.ndarray, codes: list[int]) -> dict[str, np.ndarray]:
        """A line's ``UNIT_SUMS`` per replicate, its items' columns of ``sums`` added."""
        first = self.pair_item.size + np.asarray(codes, dtype=np.int64)
        return {name: sums[:, first + index * self.n_items].sum(axis=1) for index, name in enumerate(UNIT_SUMS)}


class ReportResampler:
    """Every figure of one report, recomputed for replicates given as trajectory multiplicities."""

    def __init__(self, result: AgreementResult, *, rubric: RubricDefinition, frame: RatingsFrame) -> None:
        self.n_trajectories = len(frame.trajectories)
        item_codes = item_codes_of(frame)
        n_items = max(len(frame.items), 1)
        units = result.human_units or HumanUnits.of(frame)
        combinations = result.combinations or PairCombinations.of(result.pairs, n_items)
        self.columns = ReportColumns.build(result.pairs, combinations, units, n_items, self.n_trajectories)
        self.lines = []
        for key, items in report_lines(rubric):
            codes = [item_codes[item] for item in items if item in item_codes]
            self.lines.append((key, codes, self.columns.pair_columns(codes)))

    def figures(self, multiplicity: np.ndarray) -> dict[tuple[str, str], dict[str, np.ndarray]]:
        """(level, id) -> figure -> one value per replicate (``nan`` where undefined); a line
        without pairs (no judge) has the people's figures only."""
        sums = self.columns.sums(multiplicity)
        columns = self.columns
        result = {}
        for key, codes, pair_columns in self.lines:
            figures = (
                pair_figures(
                    columns.pair_human[pair_columns],
                    columns.pair_llm[pair_columns],
                    sums[:, pair_columns],
                    with_correlations=key[0] == "item",
                )
                if pair_columns.size
                else {}
            )
            human = columns.unit_sums(sums, codes)
            figures["human_mean"] = divide(human["total"], human["count"])
            result[key] = figures | reliability_figures(human)
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
    for multiplicity in _drawn_ahead(multiplicities(n_trajectories, replicates, seed)):
        for key, figures in resampler.figures(multiplicity).items():
            for name, values in figures.items():
                samples.setdefault(key, {}).setdefault(name, []).append(values)
    for key, entry in _entries(report):
        drawn = samples.get(key, {})
        entry["ci95"] = {
            name: _interval(np.concatenate(drawn[name])) if name in drawn else None for name in _figures_of(entry)
        }


def _entries(report: dict[str, Any]) -> Iterator[tuple[tuple[str, str], dict[str, Any]]]:
    """Every line of the report with its (level, id) key, as ``report_lines`` names them."""
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
