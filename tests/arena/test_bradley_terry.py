import numpy as np
import pytest

from arena.bradley_terry import (
    BOTH_BAD,
    FIRST,
    SECOND,
    TIE,
    VoteArrays,
    fit_scores,
    leaderboard_fit,
    order_agreement,
    reference_fit,
    replicates_fit,
    wins_matrix,
)


def test_choix_and_scipy_find_the_same_scores_and_the_batched_replicate_fit_agrees():
    rng = np.random.default_rng(7)
    wins = rng.poisson(4, (5, 6, 6)).astype(float)
    wins[0, 0, :] = 40  # one configuration nearly never loses
    for matrix in wins:
        np.fill_diagonal(matrix, 0)
    alone = np.stack([fit_scores(matrix) for matrix in wins])
    assert np.abs(alone - np.stack([reference_fit(matrix) for matrix in wins])).max() < 1e-6
    assert np.abs(alone - replicates_fit(wins, np.zeros(6))).max() < 1e-6


def test_a_tie_is_half_a_win_each_and_both_bad_is_left_out_but_counted():
    votes = VoteArrays.of([0, 0, 0, 1], [1, 1, 2, 2], [FIRST, TIE, BOTH_BAD, SECOND])
    wins = wins_matrix(3, votes)
    assert wins[0, 1] == 1.5 and wins[1, 0] == 0.5 and wins[2, 1] == 1 and wins[0, 2] == wins[2, 0] == 0
    fit = leaderboard_fit(3, votes, replicates=50)
    assert fit.both_bad.tolist() == [1, 0, 1] and fit.votes.tolist() == [3, 3, 2]


def test_more_votes_narrow_the_interval_around_the_true_order():
    rng = np.random.default_rng(3)
    true = np.array([1.0, 0.0, -1.0])

    def width(n_votes: int) -> float:
        first = rng.integers(0, 3, n_votes)
        second = (first + rng.integers(1, 3, n_votes)) % 3
        won = rng.random(n_votes) < 1 / (1 + np.exp(-(true[first] - true[second])))
        fit = leaderboard_fit(3, VoteArrays.of(first, second, np.where(won, FIRST, SECOND)))
        assert fit.rank.tolist() == [1, 2, 3] and all(fit.low <= fit.scores) and all(fit.scores <= fit.high)
        return float((fit.high - fit.low).mean())

    assert width(4000) < width(400) / 2


def test_orders_alike_and_reversed():
    a = np.array([3.0, 2.0, 1.0])
    assert order_agreement(a, a) == {"kendall_tau": 1.0, "spearman": 1.0, "pairs_agreeing": 1.0}
    assert order_agreement(a, -a)["pairs_agreeing"] == 0.0
    assert np.isnan(order_agreement(a, np.zeros(3))["kendall_tau"])


@pytest.mark.parametrize("outcome", [FIRST, SECOND])
def test_no_votes_but_one_side_still_gives_finite_scores(outcome):
    fit = leaderboard_fit(2, VoteArrays.of([0] * 5, [1] * 5, [outcome] * 5), replicates=20)
    assert np.isfinite(fit.scores).all() and np.isfinite(fit.high).all()


@pytest.mark.parametrize("configurations", [0, 1])
def test_a_comparison_of_fewer_than_two_configurations_has_a_board_with_nothing_ranked(configurations):
    fit = leaderboard_fit(configurations, VoteArrays.of([], [], []))
    assert list(fit.scores) == [0.0] * configurations and list(fit.rank) == [1] * configurations
