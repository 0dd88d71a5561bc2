"""Which pair of configurations to show next (Chatbot Arena's active sampling, arXiv 2403.04132 §5).

The Bradley-Terry scores' covariance is approximated by the inverse of the Fisher information
of the votes so far, ``I = sum_pairs n_ij p_ij (1 - p_ij) v_ij v_ij^T`` with ``v_ij = e_i - e_j``
(plus the prior's ties). One more vote on (i, j) adds ``w = p_ij (1 - p_ij)`` along ``v_ij``;
by Sherman-Morrison it lowers the summed variances of all scores by
``w v^T C^2 v / (1 + w v^T C v)``, ``C`` the current covariance. The next pair is the one with
the largest reduction among the ``candidates`` (pairs that still have a question for the
rater), except that with probability ``uniform_share`` it is drawn uniformly from them, so
every pair keeps being covered.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from arena.bradley_terry import PRIOR_TIES


def variance_reduction(scores: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """n x n: how much one more vote on (i, j) lowers the summed variances of the scores."""
    n = len(scores)
    p = expit(scores[:, None] - scores[None, :])
    weight = p * (1 - p)
    met = (counts + counts.T + PRIOR_TIES) * weight * (1 - np.eye(n))
    information = np.diag(met.sum(axis=1)) - met
    covariance = np.linalg.pinv(information)
    squared = covariance @ covariance
    diagonal, diagonal_squared = np.diag(covariance), np.diag(squared)
    along = diagonal[:, None] + diagonal[None, :] - 2 * covariance
    along_squared = diagonal_squared[:, None] + diagonal_squared[None, :] - 2 * squared
    return weight * along_squared / (1 + weight * along)


def pair_choose(
    scores: np.ndarray,
    counts: np.ndarray,
    candidates: list[tuple[int, int]],
    *,
    uniform_share: float,
    rng: np.random.Generator,
) -> tuple[int, int]:
    """One of ``candidates`` (pairs of configuration indices); ``counts[i, j]`` votes so far."""
    if rng.random() < uniform_share:
        return candidates[rng.integers(len(candidates))]
    reduction = variance_reduction(scores, counts)
    gains = np.array([reduction[i, j] for i, j in candidates])
    return candidates[int(np.argmax(gains))]
