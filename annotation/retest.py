"""Test-retest: each rater against themselves. When a person rated the same item of the same
trajectory in two studies, their later score is paired with their earlier one; the figures
say how far people agree with themselves (intra-rater reliability), overall, per item and per
rater. Figures are those of the agreement report: the mean difference (later minus earlier),
MAE, the share within one point, QWK (Lin's concordance, ``annotation.reliability``) and
ICC(1,1) with the two scores of a pair as its unit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from annotation.reliability import UnitScores, concordance, icc_oneway
from annotation.rubric import RubricDefinition

FIGURES = ("n_pairs", "mean_diff", "mae", "within1_pct", "qwk", "icc_1_1")


@dataclass(frozen=True)
class RetestPairs:
    """One entry per pair: who, which item, the earlier and the later score."""

    rater: np.ndarray
    item: np.ndarray
    first: np.ndarray
    second: np.ndarray

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[str, str, str, int, float]], *, study_id: int | None = None) -> RetestPairs:
        """Rows of (rater, trajectory_id, item, study id, score), in the order the studies
        were run for each rater, trajectory and item; each rating is paired with the one
        before it of another study. With ``study_id``, only pairs that involve that study."""
        raters, items, firsts, seconds = [], [], [], []
        previous: tuple[str, str, str, int, float] | None = None
        for row in rows:
            rater, trajectory_id, item, study, score = row
            if previous is not None and previous[:3] == (rater, trajectory_id, item) and previous[3] != study:
                if study_id is None or study_id in (previous[3], study):
                    raters.append(rater)
                    items.append(item)
                    firsts.append(previous[4])
                    seconds.append(score)
            previous = row
        return cls(
            np.asarray(raters, dtype=object),
            np.asarray(items, dtype=object),
            np.asarray(firsts, dtype=float),
            np.asarray(seconds, dtype=float),
        )


def _figures(first: np.ndarray, second: np.ndarray) -> dict[str, Any]:
    difference = second - first
    count = int(first.size)
    scores = UnitScores(np.repeat(np.arange(count), 2), np.column_stack([first, second]).ravel())
    return {
        "n_pairs": count,
        "mean_diff": float(difference.mean()),
        "mae": float(np.abs(difference).mean()),
        "within1_pct": float(100.0 * np.mean(np.abs(difference) <= 1)),
        "qwk": concordance(first, second),
        "icc_1_1": icc_oneway(scores).icc_1_1,
    }


def _line(line_id: str, mask: np.ndarray, pairs: RetestPairs, notes: list[str]) -> dict[str, Any]:
    line = {"id": line_id} | _figures(pairs.first[mask], pairs.second[mask])
    if line["qwk"] is None or line["icc_1_1"] is None:
        notes.append(f"test-retest {line_id}: figures need two or more pairs with some variation")
    return line


def retest_report(pairs: RetestPairs, rubric: RubricDefinition, notes: list[str]) -> dict[str, Any] | None:
    """``{"n_pairs", "n_raters", "overall", "items", "raters"}`` (lines of ``FIGURES`` with an
    ``id``: ``overall``, an item id, a rater's name), or ``None`` without any pair."""
    if pairs.first.size == 0:
        return None
    everything = np.ones(pairs.first.size, dtype=bool)
    raters, items = sorted(set(pairs.rater)), set(pairs.item)
    return {
        "n_pairs": int(pairs.first.size),
        "n_raters": len(raters),
        "overall": _line("overall", everything, pairs, notes),
        "items": [_line(item, pairs.item == item, pairs, notes) for item in rubric.item_ids if item in items],
        "raters": [_line(rater, pairs.rater == rater, pairs, notes) for rater in raters],
    }
