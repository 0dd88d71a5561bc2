"""Bradley-Terry scores of configurations from pairwise votes, with bootstrap intervals.

Plain numpy/scipy (no Django). A vote names two configurations by index (``first``,
``second``: the pair's stored order) and an outcome: the first better, the second better,
a tie, or both bad. Ties count half a win to each side; both-bad votes are left out of the
fit and counted. The fit is choix's iterative Luce spectral ranking on the dense win matrix
(``choix.ilsr_pairwise_dense``) with a small prior of ``PRIOR_TIES`` ties on every pair (so a
configuration that never lost still has a finite score); ``reference_fit`` maximises the same
likelihood with scipy's Newton-CG and is the check (benchmarks/arena.py, docs/arena.md).

Bootstrap: votes are resampled with replacement ``REPLICATES`` times (a multinomial draw over
the distinct kinds of vote, so a million votes cost no more than a thousand) and the
replicates are refitted together, by Newton's method on the stacked likelihoods from the point
estimate (``replicates_fit``; a thousand calls of a fitter would cost seconds); intervals are the 2.5 and 97.5 percentiles,
rank ranges the same percentiles of each configuration's rank over the replicates.
"""

from __future__ import annotations

from dataclasses import dataclass

import choix
import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, log_expit

FIRST, SECOND, TIE, BOTH_BAD = range(4)
OUTCOMES = ("first", "second", "tie", "both_bad")
PRIOR_TIES = 1.0
REPLICATES = 1000
SEED = 20260
REPLICATE_TOL = 1e-9
NEWTON_STEPS = 50
MAX_STEP = 1.0
LEVEL = 95.0


@dataclass(frozen=True)
class VoteArrays:
    """Votes as arrays: configuration indices, outcome codes and weights (1 unweighted)."""

    first: np.ndarray
    second: np.ndarray
    outcome: np.ndarray
    weight: np.ndarray

    @classmethod
    def of(cls, first, second, outcome, weight=None) -> VoteArrays:
        first = np.asarray(first, dtype=np.int64)
        weight = np.ones(len(first)) if weight is None else np.asarray(weight, dtype=float)
        return cls(first, np.asarray(second, dtype=np.int64), np.asarray(outcome, dtype=np.int64), weight)

    def __len__(self) -> int:
        return len(self.first)


@dataclass(frozen=True)
class Fit:
    """A leaderboard's figures, configurations in index order."""

    scores: np.ndarray
    low: np.ndarray
    high: np.ndarray
    rank: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    votes: np.ndarray
    both_bad: np.ndarray
    wins: np.ndarray
    """Win matrix: ``wins[i, j]`` is i's (weighted) wins over j, ties half each, no prior."""

    @property
    def win_rate(self) -> np.ndarray:
        """i's share of the decisive-or-tied votes against j (nan where they never met)."""
        met = self.wins + self.wins.T
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(met > 0, self.wins / np.where(met > 0, met, 1), np.nan)


def _cells(n: int, votes: VoteArrays) -> tuple[np.ndarray, np.ndarray]:
    """The distinct kinds of counted vote (pair, outcome, weight) as rows, and how many of each."""
    kept = votes.outcome != BOTH_BAD
    weights, weight_code = np.unique(votes.weight[kept], return_inverse=True)
    keys = ((votes.first[kept] * n + votes.second[kept]) * 4 + votes.outcome[kept]) * len(weights) + weight_code
    counts = np.bincount(keys, minlength=n * n * 4 * len(weights)) if len(keys) else np.zeros(0, dtype=np.int64)
    present = np.flatnonzero(counts)
    code, weight = np.divmod(present, max(len(weights), 1))
    cells = np.stack([code // 4, code % 4, weights[weight] if len(weights) else weight], axis=1).astype(float)
    return cells, counts[present].astype(float)


def _contribution(n: int, cells: np.ndarray) -> np.ndarray:
    """cells x n*n: what one vote of each kind adds to the win matrix."""
    pair = cells[:, 0].astype(np.int64)
    first, second = pair // n, pair % n
    outcome, weight = cells[:, 1].astype(np.int64), cells[:, 2]
    rows = np.arange(len(cells))
    matrix = np.zeros((len(cells), n * n))
    share_first = np.select([outcome == FIRST, outcome == TIE], [1.0, 0.5], 0.0) * weight
    share_second = np.select([outcome == SECOND, outcome == TIE], [1.0, 0.5], 0.0) * weight
    np.add.at(matrix, (rows, first * n + second), share_first)
    np.add.at(matrix, (rows, second * n + first), share_second)
    return matrix


def wins_matrix(n: int, votes: VoteArrays) -> np.ndarray:
    cells, counts = _cells(n, votes)
    return (counts @ _contribution(n, cells)).reshape(n, n) if len(cells) else np.zeros((n, n))


def with_prior(wins: np.ndarray) -> np.ndarray:
    """The win matrix with ``PRIOR_TIES`` ties added to every pair (half a tie each way)."""
    return wins + PRIOR_TIES / 2 * (1 - np.eye(wins.shape[-1]))


def fit_scores(wins: np.ndarray, initial: np.ndarray | None = None, tol: float = 1e-10) -> np.ndarray:
    """Log-strengths (mean 0) maximising the Bradley-Terry likelihood of ``wins`` plus the prior."""
    if len(wins) < 2:
        return np.zeros(len(wins))  # nothing to compare yet: a comparison of fewer than two configurations
    params = choix.ilsr_pairwise_dense(with_prior(wins), initial_params=initial, max_iter=500, tol=tol)
    return params - params.mean()


def reference_fit(wins: np.ndarray) -> np.ndarray:
    """The same maximum found by scipy's Newton-CG on the log-likelihood (the check of ``fit_scores``)."""
    counts = with_prior(wins)

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        difference = theta[:, None] - theta[None, :]
        lost = counts * expit(-difference)
        return -(counts * log_expit(difference)).sum(), -(lost.sum(axis=1) - lost.sum(axis=0))

    def hessian(theta: np.ndarray) -> np.ndarray:
        p = expit(theta[:, None] - theta[None, :])
        information = (counts + counts.T) * p * (1 - p)
        return np.diag(information.sum(axis=1)) - information

    found = minimize(loss, np.zeros(len(wins)), jac=True, hess=hessian, method="Newton-CG", options={"xtol": 1e-12})
    return found.x - found.x.mean()


def ranks_of(scores: np.ndarray) -> np.ndarray:
    """1 for the highest score (per row for a 2-D array)."""
    order = np.argsort(-scores, axis=-1)
    return np.argsort(order, axis=-1) + 1


def leaderboard_fit(n: int, votes: VoteArrays, *, replicates: int = REPLICATES, seed: int = SEED) -> Fit:
    """Scores, bootstrap intervals and rank ranges of ``n`` configurations from ``votes``."""
    cells, counts = _cells(n, votes)
    contribution = _contribution(n, cells)
    wins = (counts @ contribution).reshape(n, n) if len(cells) else np.zeros((n, n))
    scores = fit_scores(wins)
    samples = _bootstrap(n, counts, contribution, scores, replicates, seed)
    tails = (100 - LEVEL) / 2
    low, high = np.percentile(samples, [tails, 100 - tails], axis=0)
    rank_low, rank_high = np.percentile(ranks_of(samples), [tails, 100 - tails], axis=0)
    involved = np.bincount(votes.first, minlength=n) + np.bincount(votes.second, minlength=n)
    bad = votes.outcome == BOTH_BAD
    both_bad = np.bincount(votes.first[bad], minlength=n) + np.bincount(votes.second[bad], minlength=n)
    return Fit(scores, low, high, ranks_of(scores), np.floor(rank_low), np.ceil(rank_high), involved, both_bad, wins)


def _bootstrap(
    n: int, counts: np.ndarray, contribution: np.ndarray, scores: np.ndarray, replicates: int, seed: int
) -> np.ndarray:
    """replicates x n scores, each refitted on votes drawn with replacement."""
    total = int(counts.sum())
    if total == 0:
        return np.tile(scores, (replicates, 1))
    draws = np.random.default_rng(seed).multinomial(total, counts / total, size=replicates)
    return replicates_fit((draws @ contribution).reshape(replicates, n, n), scores)


def replicates_fit(wins: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The maximum of every replicate's likelihood (``wins``: replicates x n x n, prior added
    here) at once: Newton's method on the stacked problems from the point estimate, each step
    at most ``MAX_STEP`` per score; the same maximum ``fit_scores`` finds one at a time (tests)."""
    counts = with_prior(wins)
    replicates, n = counts.shape[0], counts.shape[1]
    theta = np.tile(start, (replicates, 1))
    centre = np.ones((n, n)) / n
    for _ in range(NEWTON_STEPS):
        p = expit(theta[:, :, None] - theta[:, None, :])
        gradient = (counts * (1 - p)).sum(axis=2) - (counts.transpose(0, 2, 1) * p).sum(axis=2)
        met = (counts + counts.transpose(0, 2, 1)) * p * (1 - p)
        information = met.sum(axis=2)[:, :, None] * np.eye(n) - met + centre
        step = np.clip(np.linalg.solve(information, gradient[:, :, None])[:, :, 0], -MAX_STEP, MAX_STEP)
        theta = theta + step
        if np.abs(step).max() < REPLICATE_TOL:
            break
    return theta - theta.mean(axis=1, keepdims=True)


def order_agreement(a: np.ndarray, b: np.ndarray) -> dict[str, float]:
    """Kendall's tau, Spearman's rho and the share of configuration pairs ordered alike."""
    from scipy.stats import kendalltau, spearmanr

    if len(a) < 2 or np.ptp(a) == 0 or np.ptp(b) == 0:
        return {"kendall_tau": float("nan"), "spearman": float("nan"), "pairs_agreeing": float("nan")}
    upper = np.triu_indices(len(a), 1)
    same = np.sign(a[:, None] - a[None, :])[upper] == np.sign(b[:, None] - b[None, :])[upper]
    return {
        "kendall_tau": float(kendalltau(a, b).statistic),
        "spearman": float(spearmanr(a, b).statistic),
        "pairs_agreeing": float(same.mean()),
    }
