"""The arena's figures with synthetic raters of known ability voting on configurations of
known strength (docs/arena.md): the fit against the reference, interval coverage, active
against uniform sampling, the ability model's ranking, and a million votes' leaderboard.

    .venv/bin/python benchmarks/arena.py [--quick]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import expit
from scipy.stats import kendalltau, spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.ability import dawid_skene
from arena.bradley_terry import (
    BOTH_BAD,
    FIRST,
    SECOND,
    TIE,
    VoteArrays,
    fit_scores,
    leaderboard_fit,
    reference_fit,
    replicates_fit,
)
from arena.sampling import pair_choose


def synthetic_votes(rng: np.random.Generator, true: np.ndarray, votes: int, tie: float = 0.1, bad: float = 0.05):
    n = len(true)
    first = rng.integers(0, n, votes)
    second = (first + rng.integers(1, n, votes)) % n
    draw = rng.random(votes)
    won = rng.random(votes) < expit(true[first] - true[second])
    outcome = np.where(draw < bad, BOTH_BAD, np.where(draw < bad + tie, TIE, np.where(won, FIRST, SECOND)))
    return VoteArrays.of(first, second, outcome)


def fit_agreement(rng: np.random.Generator) -> float:
    worst = 0.0
    for _ in range(20):
        votes = synthetic_votes(rng, rng.normal(0, 1, 12), 3000)
        wins = np.zeros((12, 12))
        np.add.at(wins, (votes.first[votes.outcome == FIRST], votes.second[votes.outcome == FIRST]), 1)
        np.add.at(wins, (votes.second[votes.outcome == SECOND], votes.first[votes.outcome == SECOND]), 1)
        point = fit_scores(wins)
        worst = max(worst, np.abs(point - reference_fit(wins)).max())
        worst = max(worst, np.abs(replicates_fit(wins[None], np.zeros(12))[0] - point).max())
    return worst


def coverage(rng: np.random.Generator, runs: int) -> float:
    covered = []
    for _ in range(runs):
        true = rng.normal(0, 1, 8)
        fit = leaderboard_fit(8, synthetic_votes(rng, true, 4000, tie=0.0), seed=int(rng.integers(1 << 30)))
        centred = true - true.mean()
        covered.extend((fit.low <= centred) & (centred <= fit.high))
    return float(np.mean(covered))


def votes_to_order(rng: np.random.Generator, active: bool, n: int = 20, spread: float = 6.0, step: int = 25) -> int:
    true = np.linspace(-spread, spread, n)
    candidates = [(i, j) for i in range(n) for j in range(i + 1, n)]
    wins, counts, scores, given = np.zeros((n, n)), np.zeros((n, n)), np.zeros(n), 0
    while given < 20000:
        for _ in range(step):
            if active:
                i, j = pair_choose(scores, counts, candidates, uniform_share=0.2, rng=rng)
            else:
                i, j = candidates[rng.integers(len(candidates))]
            winner, loser = (i, j) if rng.random() < expit(true[i] - true[j]) else (j, i)
            wins[winner, loser] += 1
            counts[i, j] += 1
        given += step
        scores = fit_scores(wins)
        if kendalltau(scores, true).statistic >= 0.9:
            return given
    return given


def ability_ranking(rng: np.random.Generator) -> float:
    raters, questions = 12, 600
    accuracy = rng.uniform(0.3, 0.95, raters)
    truth = rng.choice(4, questions, p=[0.4, 0.35, 0.15, 0.1])
    rows = []
    for question in range(questions):
        for rater in rng.choice(raters, 4, replace=False):
            wrong = rng.choice([label for label in range(4) if label != truth[question]])
            rows.append((question, rater, truth[question] if rng.random() < accuracy[rater] else wrong))
    question, rater, label = np.array(rows).T
    return float(spearmanr(dawid_skene(question, rater, label, raters).ability, accuracy).statistic)


def main() -> None:
    quick = "--quick" in sys.argv
    rng = np.random.default_rng(2403)
    print(f"fit: largest difference choix vs scipy Newton-CG (and batched replicate fit): {fit_agreement(rng):.2e}")
    runs = 40 if quick else 200
    print(f"95% intervals cover the true scores: {coverage(rng, runs):.1%} of {runs * 8} intervals ({runs} runs)")
    seeds = 4 if quick else 12
    active = [votes_to_order(rng, True) for _ in range(seeds)]
    uniform = [votes_to_order(rng, False) for _ in range(seeds)]
    print(
        f"votes to Kendall tau >= 0.9 (20 configurations, mean of {seeds} runs): active {np.mean(active):.0f}, "
        f"uniform {np.mean(uniform):.0f}, ratio {np.mean(active) / np.mean(uniform):.2f}"
    )
    print(f"ability model vs true rater accuracies (12 raters): Spearman {ability_ranking(rng):.3f}")
    votes = synthetic_votes(rng, rng.normal(0, 1, 20), 1_000_000)
    start = time.perf_counter()
    leaderboard_fit(20, votes)
    print(
        f"1,000,000 votes over 20 configurations, leaderboard with 1,000 bootstrap intervals: {time.perf_counter() - start:.2f} s"
    )


if __name__ == "__main__":
    main()
