"""Bootstrap intervals: a replicate is the report of the resampled study, computed fast."""

from __future__ import annotations

import math

import numpy as np
import pytest

from annotation.agreement import RatingsFrame, agreement_compute
from annotation.bootstrap import ReportColumns, ReportResampler, _entries, bootstrap_attach
from annotation.rubric import RUBRIC_DIR, rubric_load

RUBRIC = rubric_load(RUBRIC_DIR / "legalworld16.json")


def synthetic_rows(seed: int, trajectories: int = 12) -> list[tuple]:
    """Humans (2-4 per trajectory, varying) and one judge that sometimes skips an item or
    scores a mean of samples; some items constant on some trajectories."""
    rng = np.random.default_rng(seed)
    rows = []
    for trajectory in range(trajectories):
        quality = rng.integers(4, 11, size=len(RUBRIC.item_ids))
        for rater in rng.choice(6, size=rng.integers(1, 5), replace=False):
            for index, item in enumerate(RUBRIC.item_ids):
                score = int(np.clip(quality[index] + rng.integers(-2, 3), 0, 10))
                rows.append((f"t{trajectory}", item, f"r{rater}", "human", float(score)))
        for index, item in enumerate(RUBRIC.item_ids):
            if rng.random() < 0.9:
                judge = quality[index] - rng.choice([0, 1, 1.5])
                rows.append((f"t{trajectory}", item, "judge", "llm", float(judge)))
    return rows


def materialise(rows: list[tuple], trajectories: list[str], multiplicity: np.ndarray) -> list[tuple]:
    """The resampled study itself: each drawn trajectory copied as a distinct unit."""
    resampled = []
    for code, count in enumerate(multiplicity.astype(int)):
        for copy in range(count):
            name = f"{trajectories[code]}#{copy}"
            resampled += [(name, *row[1:]) for row in rows if row[0] == trajectories[code]]
    return resampled


def same(expected, actual: float) -> bool:
    if expected is None:
        return math.isnan(actual)
    return actual == pytest.approx(expected, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize(("seed", "judged"), [(1, True), (2, True), (3, True), (4, False), (5, False)])
def test_a_replicate_equals_the_report_of_the_resampled_study(seed, judged):
    """Without a judge every line still has the people's figures (mean, alpha, ICCs)."""
    rows = [row for row in synthetic_rows(seed) if judged or row[3] == "human"]
    frame = RatingsFrame.from_rows(rows)
    result = agreement_compute(rubric=RUBRIC, frame=frame)
    resampler = ReportResampler(result, rubric=RUBRIC, frame=frame)
    rng = np.random.default_rng(seed)
    multiplicity = rng.multinomial(len(frame.trajectories), np.full(len(frame.trajectories), 1 / 12), size=3)
    replicate = resampler.figures(multiplicity.astype(float))
    compared = 0
    for index in range(3):
        expected = agreement_compute(
            rubric=RUBRIC, frame=RatingsFrame.from_rows(materialise(rows, frame.trajectories, multiplicity[index]))
        ).report
        for key, entry in _entries(expected):
            for name, values in replicate[key].items():
                assert same(entry[name], values[index]), (key, name, entry[name], values[index])
                compared += 1
    pair_figures = (11 * 6 + 16 * 9) if judged else 0
    assert compared == 3 * (pair_figures + 11 * 4 + 16 * 4), "every figure of every line (11 rows, 16 items) compared"


def test_intervals_bracket_the_estimate_and_are_reproducible():
    rows = synthetic_rows(4, trajectories=40)
    frame = RatingsFrame.from_rows(rows)
    first = agreement_compute(rubric=RUBRIC, frame=frame)
    bootstrap_attach(first, rubric=RUBRIC, frame=frame, replicates=400)
    second = agreement_compute(rubric=RUBRIC, frame=frame)
    bootstrap_attach(second, rubric=RUBRIC, frame=frame, replicates=400)
    assert first.report == second.report, "a fixed seed gives the same intervals"
    overall = first.report["overall"]
    low, high = overall["ci95"]["mean_diff"]
    assert low < overall["mean_diff"] < high
    assert high - low < 0.5, "40 trajectories of 16 items pin the mean difference down"
    item = first.report["items"][0]
    low, high = item["ci95"]["icc_1_1"]
    assert low <= item["icc_1_1"] <= high
    assert first.report["bootstrap"] == {"replicates": 400, "seed": 20251217, "unit": "trajectory", "level": 0.95}


def test_one_trajectory_has_no_interval_and_says_why():
    rows = [row for row in synthetic_rows(5) if row[0] == "t0"]
    frame = RatingsFrame.from_rows(rows)
    result = agreement_compute(rubric=RUBRIC, frame=frame)
    bootstrap_attach(result, rubric=RUBRIC, frame=frame)
    assert result.report["overall"]["ci95"]["mean_diff"] is None
    assert "confidence intervals need at least two trajectories" in result.report["notes"]


def test_intervals_are_the_percentiles_of_the_seeded_resamples_reports():
    """The intervals a seed gives are those of its draws: each replicate is the report of
    the study resampled with ``numpy.random.default_rng(seed).multinomial``, and each
    interval the 2.5th and 97.5th percentiles of a figure's defined values (none when fewer
    than half are defined)."""
    rows = synthetic_rows(6, trajectories=10)
    frame = RatingsFrame.from_rows(rows)
    result = agreement_compute(rubric=RUBRIC, frame=frame)
    bootstrap_attach(result, rubric=RUBRIC, frame=frame, replicates=40, seed=99)
    n = len(frame.trajectories)
    draws = np.random.default_rng(99).multinomial(n, np.full(n, 1 / n), size=40)
    reports = [
        agreement_compute(
            rubric=RUBRIC, frame=RatingsFrame.from_rows(materialise(rows, frame.trajectories, draw))
        ).report
        for draw in draws
    ]
    compared = 0
    for key, entry in _entries(result.report):
        for name, interval in entry["ci95"].items():
            values = np.array([dict(_entries(report))[key][name] for report in reports], dtype=float)
            defined = values[np.isfinite(values)]
            expected = list(np.percentile(defined, [2.5, 97.5])) if defined.size >= 20 else None
            assert interval == (None if expected is None else pytest.approx(expected, rel=1e-9, abs=1e-12)), (key, name)
            compared += expected is not None
    assert compared > 300, "most figures have an interval"


def test_dense_and_sparse_columns_give_the_same_replicates():
    """Past ``DENSE_CELLS`` (trajectories x columns) the per-trajectory sums are a sparse matrix."""
    frame = RatingsFrame.from_rows(synthetic_rows(7, trajectories=30))
    result = agreement_compute(rubric=RUBRIC, frame=frame)
    multiplicity = np.random.default_rng(7).multinomial(30, np.full(30, 1 / 30), size=5).astype(float)
    dense = ReportResampler(result, rubric=RUBRIC, frame=frame)
    sparse_columns = ReportColumns.build(
        result.pairs, result.combinations, result.human_units, len(frame.items), 30, dense_cells=0
    )
    assert isinstance(dense.columns.matrix, np.ndarray) and not isinstance(sparse_columns.matrix, np.ndarray)
    np.testing.assert_allclose(dense.columns.sums(multiplicity), sparse_columns.sums(multiplicity), rtol=1e-12)
