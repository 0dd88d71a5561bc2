import numpy as np
import pytest
from scipy.stats import spearmanr

from arena.ability import dawid_skene
from arena.sampling import pair_choose, variance_reduction


def test_raters_are_ranked_by_their_true_accuracy_and_the_random_one_is_near_chance():
    rng = np.random.default_rng(11)
    accuracy = np.array([0.95, 0.85, 0.7, 0.55, 0.0])  # the last answers at random
    truth = rng.choice(4, 400, p=[0.4, 0.35, 0.15, 0.1])
    rows = [
        (question, rater, truth[question] if rng.random() < accuracy[rater] else rng.integers(4))
        for question in range(400)
        for rater in range(5)
    ]
    found = dawid_skene(*np.array(rows).T, 5)
    assert spearmanr(found.ability, accuracy).statistic == pytest.approx(1.0)
    assert found.near_chance.tolist() == [False, False, False, False, True]


def test_the_next_pair_is_the_close_uncertain_one_not_the_settled_one():
    scores = np.array([3.0, 0.1, 0.0])
    counts = np.array([[0, 50, 50], [0, 0, 2], [0, 0, 0]], dtype=float)
    reduction = variance_reduction(scores, counts)
    assert reduction[1, 2] > reduction[0, 1] and reduction[1, 2] > reduction[0, 2]
    rng = np.random.default_rng(0)
    picks = [pair_choose(scores, counts, [(0, 1), (0, 2), (1, 2)], uniform_share=0.3, rng=rng) for _ in range(300)]
    assert 0.7 < picks.count((1, 2)) / 300 < 0.9, "a uniform share keeps the other pairs covered"
    assert picks.count((0, 1)) > 0 and picks.count((0, 2)) > 0
