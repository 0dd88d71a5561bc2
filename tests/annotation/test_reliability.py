"""Reliability statistics against published worked examples and the GPL oracle packages."""

from __future__ import annotations

import krippendorff
import numpy as np
import pandas as pd
import pingouin
import pytest

from annotation.reliability import (
    UnitScores,
    cohen_kappa,
    concordance,
    icc_oneway,
    krippendorff_alpha,
    krippendorff_alpha_interval,
)

NAN = np.nan
# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", example C: 4 coders x 12 units.
EXAMPLE_C = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
        [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
    ]
)
# Shrout & Fleiss (1979), Table 2: 6 targets rated by 4 judges.
SHROUT_FLEISS = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], float)


def unit_scores(matrix: np.ndarray) -> UnitScores:
    """coders x units matrix -> (unit, score) pairs, skipping missing values."""
    coder, unit = np.nonzero(~np.isnan(matrix))
    return UnitScores(unit, matrix[coder, unit])


@pytest.mark.parametrize(("level", "expected"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)])
def test_krippendorff_example_c(level, expected):
    assert round(krippendorff_alpha(EXAMPLE_C, level), 3) == expected


def test_closed_form_interval_alpha_equals_the_coincidence_matrix():
    assert krippendorff_alpha_interval(unit_scores(EXAMPLE_C)) == pytest.approx(
        krippendorff_alpha(EXAMPLE_C, "interval"), abs=1e-12
    )


def test_shrout_fleiss_icc():
    units = np.repeat(np.arange(6), 4)
    icc = icc_oneway(UnitScores(units, SHROUT_FLEISS.ravel()))
    assert round(icc.icc_1_1, 6) == 0.165742 and round(icc.icc_1_k, 6) == 0.442797
    assert round(icc.icc_1_1, 2) == 0.17 and round(icc.icc_1_k, 2) == 0.44


def test_cohen_kappa_artstein_poesio():
    assert round(cohen_kappa(np.array([[20, 20], [10, 50]])), 3) == 0.348


@pytest.mark.parametrize("seed", range(5))
def test_alpha_matches_the_krippendorff_package_on_random_data(seed):
    rng = np.random.default_rng(seed)
    matrix = rng.integers(0, 11, size=(5, 40)).astype(float)
    matrix[rng.random(matrix.shape) < 0.3] = np.nan
    for level in ("nominal", "ordinal", "interval"):
        oracle = krippendorff.alpha(reliability_data=matrix, level_of_measurement=level)
        assert krippendorff_alpha(matrix, level) == pytest.approx(oracle, abs=1e-9)
    oracle = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    assert krippendorff_alpha_interval(unit_scores(matrix)) == pytest.approx(oracle, abs=1e-9)


@pytest.mark.parametrize("seed", range(5))
def test_icc_matches_pingouin_on_random_balanced_data(seed):
    rng = np.random.default_rng(100 + seed)
    targets, raters = 12, 3
    scores = np.clip(rng.integers(3, 9, size=(targets, 1)) + rng.integers(-2, 3, size=(targets, raters)), 0, 10)
    frame = pd.DataFrame(
        {
            "target": np.repeat(np.arange(targets), raters),
            "rater": np.tile(np.arange(raters), targets),
            "score": scores.ravel().astype(float),
        }
    )
    oracle = pingouin.intraclass_corr(data=frame, targets="target", raters="rater", ratings="score").set_index("Type")
    icc = icc_oneway(UnitScores(frame["target"].to_numpy(), frame["score"].to_numpy()))
    assert icc.icc_1_1 == pytest.approx(oracle.loc["ICC(1,1)", "ICC"], abs=1e-9)
    assert icc.icc_1_k == pytest.approx(oracle.loc["ICC(1,k)", "ICC"], abs=1e-9)


def quadratic_weighted_kappa(first: np.ndarray, second: np.ndarray, low: int, high: int) -> float:
    """The textbook confusion-matrix definition, over the full label range."""
    labels = high - low + 1
    observed = np.zeros((labels, labels))
    np.add.at(observed, (first - low, second - low), 1)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    weights = (np.subtract.outer(np.arange(labels), np.arange(labels)) ** 2) / (labels - 1) ** 2
    return 1 - (weights * observed).sum() / (weights * expected).sum()


@pytest.mark.parametrize("seed", range(5))
def test_concordance_is_quadratic_weighted_kappa_on_integers(seed):
    rng = np.random.default_rng(200 + seed)
    first = rng.integers(0, 11, 60)
    second = np.clip(first + rng.integers(-3, 4, 60), 0, 10)
    assert concordance(first.astype(float), second.astype(float)) == pytest.approx(
        quadratic_weighted_kappa(first, second, 0, 10), abs=1e-12
    )


def test_undefined_figures_are_none():
    assert krippendorff_alpha_interval(UnitScores(np.array([0, 0, 1, 1]), np.array([5.0, 5, 5, 5]))) is None
    assert icc_oneway(UnitScores(np.array([0, 0]), np.array([5.0, 6]))).icc_1_1 is None
    assert concordance(np.array([4.0, 4.0]), np.array([4.0, 4.0])) is None
