"""Agreement for pairwise rubrics (SimCourt's trial process evaluation).

A unit is a pair of trajectories of one case, ``FIRST|SECOND``; an answer prefers the first
(stored as score 1), neither (0, a draw) or the second (-1), whatever order the rater saw
them in. Reported per item, per row, per group and overall:

- shares of first / draw / second over all human answers, and SimCourt's aggregation per
  unit: draws left out, the majority preference, no majority = draw (its Table 3);
- among humans: percent agreement (agreeing rater pairs over all rater pairs on a unit),
  Cohen's kappa averaged over rater pairs, Fleiss' kappa (variable raters per unit) and
  Krippendorff's alpha (nominal);
- against the LLM judge: the share of human answers equal to the judge's and Cohen's kappa.

Every figure is a function of per-unit sums (category counts, agreeing pairs, coincidence
and confusion matrices), so the report is the figures for multiplicity 1 of every unit and
a bootstrap replicate is the same computation with resampled multiplicities.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from annotation.agreement import RatingsFrame, judge_choose
from annotation.bootstrap import SEED, multiplicities
from annotation.rubric import RubricDefinition

CATEGORIES = ("first", "draw", "second")
REPLICATES = 1000
FIGURES = (
    "share_first",
    "share_draw",
    "share_second",
    "majority_first",
    "majority_draw",
    "majority_second",
    "percent_agreement",
    "cohen_kappa_mean",
    "fleiss_kappa",
    "krippendorff_alpha_nominal",
    "llm_agreement_pct",
    "llm_cohen_kappa",
)


def category_of(score: np.ndarray) -> np.ndarray:
    """Scores 1 / 0 / -1 as category codes 0 (first) / 1 (draw) / 2 (second)."""
    return (1 - np.rint(score)).astype(np.int64)


def _divide(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


def kappa_from_confusion(confusion: np.ndarray) -> np.ndarray:
    """Cohen's kappa from (..., k, k) confusion matrices; ``nan`` where undefined."""
    total = confusion.sum(axis=(-2, -1))
    observed = _divide(np.trace(confusion, axis1=-2, axis2=-1), total)
    expected = _divide((confusion.sum(axis=-1) * confusion.sum(axis=-2)).sum(axis=-1), total**2)
    return np.where(
        np.abs(1 - expected) > 1e-12, (observed - expected) / np.where(expected != 1, 1 - expected, 1), np.nan
    )


def fleiss_kappa(counts: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Fleiss' kappa from units x categories answer counts, units with fewer than two answers
    left out; ``weights`` (replicates x units) resample the units. Raters per unit may vary
    (the usual generalisation: each unit's agreement over its own rater pairs)."""
    counts = np.asarray(counts, dtype=float)
    weights = np.ones((1, counts.shape[0])) if weights is None else weights
    raters = counts.sum(axis=1)
    usable = raters >= 2
    agreement = np.where(usable, _divide((counts * (counts - 1)).sum(axis=1), raters * (raters - 1)), 0)
    n_units = weights @ usable
    mean_agreement = _divide(weights @ agreement, n_units)
    proportions = (weights @ (counts * usable[:, None])) / np.maximum(weights @ (raters * usable), 1e-300)[:, None]
    chance = (proportions**2).sum(axis=1)
    kappa = np.where(
        np.abs(1 - chance) > 1e-12, (mean_agreement - chance) / np.where(chance != 1, 1 - chance, 1), np.nan
    )
    return np.where(n_units > 0, kappa, np.nan)


def alpha_nominal_from_coincidences(coincidences: np.ndarray) -> np.ndarray:
    """Krippendorff's alpha (nominal) from (..., k, k) coincidence matrices."""
    marginals = coincidences.sum(axis=-1)
    total = marginals.sum(axis=-1)
    off_diagonal = 1 - np.eye(coincidences.shape[-1])
    disagreement = (coincidences * off_diagonal).sum(axis=(-2, -1))
    expected = ((marginals[..., :, None] * marginals[..., None, :]) * off_diagonal).sum(axis=(-2, -1))
    alpha = 1 - (total - 1) * _divide(disagreement, expected)
    return np.where((total >= 2) & (expected > 0), alpha, np.nan)


@dataclass(frozen=True)
class PairwiseAnswers:
    """Answers as arrays: unit (pair of trajectories), item, rater codes and category."""

    units: list[str]
    unit: np.ndarray
    item: np.ndarray
    rater: np.ndarray
    category: np.ndarray


class PairwiseTables:
    """Per-unit sums behind every figure of one line (a set of items) of the report."""

    def __init__(self, humans: PairwiseAnswers, judge: PairwiseAnswers, items: Iterable[int]) -> None:
        n_units, k = len(humans.units), len(CATEGORIES)
        chosen = np.isin(humans.item, list(items))
        unit, item, rater, category = (
            humans.unit[chosen],
            humans.item[chosen],
            humans.rater[chosen],
            humans.category[chosen],
        )
        self.counts = np.zeros((n_units, k))
        np.add.at(self.counts, (unit, category), 1)
        cell_counts: dict[tuple[int, int], np.ndarray] = {}
        for u, i, c in zip(unit, item, category, strict=True):
            cell_counts.setdefault((int(u), int(i)), np.zeros(k))[c] += 1
        self.majority = np.zeros((n_units, k))
        self.agreeing_pairs = np.zeros(n_units)
        self.rater_pairs = np.zeros(n_units)
        self.fleiss_cells: list[tuple[int, np.ndarray]] = []
        self.coincidences = np.zeros((n_units, k, k))
        for (u, _i), cell in cell_counts.items():
            self.majority[u, _majority(cell)] += 1
            n = cell.sum()
            self.agreeing_pairs[u] += (cell * (cell - 1)).sum() / 2
            self.rater_pairs[u] += n * (n - 1) / 2
            if n >= 2:
                self.fleiss_cells.append((u, cell))
                self.coincidences[u] += (np.outer(cell, cell) - np.diag(cell)) / (n - 1)
        self.pair_confusions = self._rater_pairs(unit, item, rater, category, n_units)
        self.llm_confusion = self._against_judge(unit, item, category, judge, n_units)

    @staticmethod
    def _rater_pairs(unit, item, rater, category, n_units) -> np.ndarray:
        """(rater pairs, units, k, k) confusion matrices of every two raters' shared answers."""
        answer = {(int(u), int(i), int(r)): int(c) for u, i, r, c in zip(unit, item, rater, category, strict=True)}
        by_cell: dict[tuple[int, int], dict[int, int]] = {}
        for (u, i, r), c in answer.items():
            by_cell.setdefault((u, i), {})[r] = c
        pairs: dict[tuple[int, int], np.ndarray] = {}
        for (u, _i), raters in by_cell.items():
            for first, second in combinations(sorted(raters), 2):
                matrix = pairs.setdefault((first, second), np.zeros((n_units, 3, 3)))
                matrix[u, raters[first], raters[second]] += 1
        return np.stack(list(pairs.values())) if pairs else np.zeros((0, n_units, 3, 3))

    @staticmethod
    def _against_judge(unit, item, category, judge: PairwiseAnswers, n_units) -> np.ndarray:
        verdict = {(int(u), int(i)): int(c) for u, i, c in zip(judge.unit, judge.item, judge.category, strict=True)}
        confusion = np.zeros((n_units, 3, 3))
        for u, i, c in zip(unit, item, category, strict=True):
            judged = verdict.get((int(u), int(i)))
            if judged is not None:
                confusion[u, c, judged] += 1
        return confusion

    def figures(self, weights: np.ndarray) -> dict[str, np.ndarray]:
        """Every figure for each row of ``weights`` (replicates x units)."""
        counts = weights @ self.counts
        answers = counts.sum(axis=1)
        majority = weights @ self.majority
        decided = majority.sum(axis=1)
        result = {f"share_{name}": 100 * _divide(counts[:, c], answers) for c, name in enumerate(CATEGORIES)}
        result |= {f"majority_{name}": 100 * _divide(majority[:, c], decided) for c, name in enumerate(CATEGORIES)}
        result["percent_agreement"] = 100 * _divide(weights @ self.agreeing_pairs, weights @ self.rater_pairs)
        kappas = kappa_from_confusion(np.einsum("bu,puij->bpij", weights, self.pair_confusions))
        defined = np.isfinite(kappas)
        result["cohen_kappa_mean"] = _divide(np.where(defined, kappas, 0).sum(axis=1), defined.sum(axis=1))
        result["fleiss_kappa"] = self._fleiss(weights)
        result["krippendorff_alpha_nominal"] = alpha_nominal_from_coincidences(
            np.einsum("bu,uij->bij", weights, self.coincidences)
        )
        confusion = np.einsum("bu,uij->bij", weights, self.llm_confusion)
        result["llm_agreement_pct"] = 100 * _divide(np.trace(confusion, axis1=1, axis2=2), confusion.sum(axis=(1, 2)))
        result["llm_cohen_kappa"] = kappa_from_confusion(confusion)
        return result

    def _fleiss(self, weights: np.ndarray) -> np.ndarray:
        if not self.fleiss_cells:
            return np.full(weights.shape[0], np.nan)
        cells = np.stack([cell for _u, cell in self.fleiss_cells])
        owner = np.array([u for u, _cell in self.fleiss_cells])
        return fleiss_kappa(cells, weights[:, owner])

    def n_answers(self) -> int:
        return int(self.counts.sum())


def _majority(cell: np.ndarray) -> int:
    """SimCourt's rule: leave out draws; the larger side wins; a tie (or only draws) is a draw."""
    if cell[0] > cell[2]:
        return 0
    if cell[2] > cell[0]:
        return 2
    return 1


def _answers(frame: RatingsFrame, mask: np.ndarray) -> PairwiseAnswers:
    return PairwiseAnswers(
        units=frame.trajectories,
        unit=frame.trajectory[mask],
        item=frame.item[mask],
        rater=frame.rater[mask],
        category=category_of(frame.score[mask]),
    )


def _lines(rubric: RubricDefinition) -> Iterator[tuple[str, str, str, tuple[str, ...]]]:
    """(level, group, id, items) of every line of the report, in order."""
    for group_id, _title in rubric.groups:
        rows = rubric.rows_of(group_id)
        for row in rows:
            yield "row", group_id, row.id, row.items
        yield "group", group_id, f"{group_id}.overall", tuple(item for row in rows for item in row.items)
    yield "overall", "", "overall", rubric.item_ids
    for item in rubric.item_ids:
        yield "item", "", item, (item,)


def pairwise_report(
    *, rubric: RubricDefinition, frame: RatingsFrame, judge: str | None = None, replicates: int = REPLICATES
) -> dict[str, Any]:
    """The pairwise report: ``groups`` (rows and a group overall), ``overall``, ``items``; each
    line has every figure of ``FIGURES`` (shares in percent), ``n_answers`` and ``ci95``."""
    if frame.is_llm.any() or judge is not None:
        judge = judge_choose(frame, judge)
    judge_code = frame.raters.index(judge) if judge else -1
    humans = _answers(frame, ~frame.is_llm)
    verdicts = _answers(frame, frame.is_llm & (frame.rater == judge_code))
    codes = {item: code for code, item in enumerate(frame.items)}
    n_units = len(frame.trajectories)
    ones = np.ones((1, n_units))
    notes: list[str] = []
    lines = []
    for level, group, line_id, items in _lines(rubric):
        tables = PairwiseTables(humans, verdicts, [codes[item] for item in items if item in codes])
        point = {name: _value(values[0]) for name, values in tables.figures(ones).items()}
        line = {"level": level, "group": group, "id": line_id, "n_answers": tables.n_answers(), **point}
        line["ci95"] = _intervals(tables, n_units, replicates)
        lines.append(line)
    if judge is None:
        notes.append("no LLM judge answers: the judge columns are empty")
    if n_units < 2:
        notes.append("confidence intervals need at least two units")
    return {
        "rubric": rubric.id,
        "kind": rubric.kind.name,
        "judge": judge,
        "units": n_units,
        "groups": [
            {
                "id": group_id,
                "rows": [line for line in lines if line["level"] == "row" and line["group"] == group_id],
                "overall": next(line for line in lines if line["level"] == "group" and line["group"] == group_id),
            }
            for group_id, _title in rubric.groups
        ],
        "overall": next(line for line in lines if line["level"] == "overall"),
        "items": [line for line in lines if line["level"] == "item"],
        "bootstrap": {"replicates": replicates, "seed": SEED, "unit": "pair of trajectories", "level": 0.95},
        "notes": notes,
    }


def _value(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def _intervals(tables: PairwiseTables, n_units: int, replicates: int) -> dict[str, list[float] | None]:
    if n_units < 2 or replicates < 2:
        return dict.fromkeys(FIGURES)
    drawn: dict[str, list[np.ndarray]] = {}
    for weights in multiplicities(n_units, replicates, SEED):
        for name, values in tables.figures(weights).items():
            drawn.setdefault(name, []).append(values)
    result = {}
    for name in FIGURES:
        samples = np.concatenate(drawn[name])
        finite = samples[np.isfinite(samples)]
        result[name] = (
            [float(value) for value in np.percentile(finite, [2.5, 97.5])] if finite.size >= samples.size // 2 else None
        )
    return result
