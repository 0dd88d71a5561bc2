"""Raters' ability from their votes: Dawid & Skene's (1979) model, fitted by EM.

Each question (one item of one pair) has an unknown true answer among the four outcomes
(first better, second better, tie, both bad); each rater answers it through their own
confusion matrix. EM alternates the posterior of every question's true answer with the
maximum-likelihood class prior and confusion matrices (a pseudo-count of ``SMOOTHING`` on
every cell). A rater's ability is the probability their answer is the true one,
``sum_k prior_k * pi_r[k, k]``; chance is what a rater answering at random with their own
answer shares would get, ``sum_k prior_k * q_r[k]``. The weight a rater's votes carry in the
weighted leaderboard is kappa-like, ``max(0, ability - chance) / (1 - chance)``; a rater
whose weight is under ``NEAR_CHANCE`` (with at least ``MIN_VOTES`` votes) is flagged. The
model is fitted on people's votes; the LLM judge, which answers every question twice (both
orders, not independent answers), is measured against the fitted answers (``ability_against``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CLASSES = 4
SMOOTHING = 0.5
ITERATIONS = 200
TOLERANCE = 1e-7
NEAR_CHANCE = 0.2
MIN_VOTES = 5


@dataclass(frozen=True)
class Abilities:
    ability: np.ndarray
    chance: np.ndarray
    votes: np.ndarray
    posterior: np.ndarray
    """questions x classes: each question's true answer as the model sees it."""
    prior: np.ndarray

    @property
    def weight(self) -> np.ndarray:
        return self.weight_of(self.ability, self.chance)

    @staticmethod
    def weight_of(ability, chance):
        """max(0, ability - chance) / (1 - chance): the part of the ability above chance."""
        return np.clip((ability - chance) / np.maximum(1 - chance, 1e-12), 0, 1)

    @property
    def near_chance(self) -> np.ndarray:
        return (self.weight < NEAR_CHANCE) & (self.votes >= MIN_VOTES)


def _posterior(question: np.ndarray, label: np.ndarray, rater: np.ndarray, prior, confusion, n_questions: int):
    log_posterior = np.tile(np.log(prior), (n_questions, 1))
    np.add.at(log_posterior, question, np.log(confusion[rater, :, label]))
    log_posterior -= log_posterior.max(axis=1, keepdims=True)
    posterior = np.exp(log_posterior)
    return posterior / posterior.sum(axis=1, keepdims=True)


def dawid_skene(question, rater, label, n_raters: int) -> Abilities:
    """Abilities of ``n_raters`` raters from votes (question index, rater index, outcome code)."""
    question, rater, label = (np.asarray(values, dtype=np.int64) for values in (question, rater, label))
    n_questions = int(question.max()) + 1 if len(question) else 0
    posterior = np.zeros((n_questions, CLASSES))
    np.add.at(posterior, (question, label), 1.0)
    posterior /= np.maximum(posterior.sum(axis=1, keepdims=True), 1)
    prior = np.full(CLASSES, 1 / CLASSES)
    confusion = np.full((n_raters, CLASSES, CLASSES), 1 / CLASSES)
    for _ in range(ITERATIONS):
        prior = (posterior.sum(axis=0) + SMOOTHING) / (n_questions + CLASSES * SMOOTHING)
        counts = np.full((n_raters, CLASSES, CLASSES), SMOOTHING)
        np.add.at(counts, (rater, slice(None), label), posterior[question])
        confusion = counts / counts.sum(axis=2, keepdims=True)
        updated = _posterior(question, label, rater, prior, confusion, n_questions)
        moved = np.abs(updated - posterior).max() if n_questions else 0.0
        posterior = updated
        if moved < TOLERANCE:
            break
    shares = np.full((n_raters, CLASSES), SMOOTHING)
    np.add.at(shares, (rater, label), 1.0)
    shares /= shares.sum(axis=1, keepdims=True)
    ability = np.einsum("k,rkk->r", prior, confusion)
    return Abilities(ability, shares @ prior, np.bincount(rater, minlength=n_raters), posterior, prior)


def ability_against(fitted: Abilities, question, label) -> tuple[float, float]:
    """(ability, chance) of one more voter (the LLM judge) whose answers did not take part in
    the fit: its confusion matrix against the fitted questions' posterior, one M-step. A
    voter answering each question twice (both orders) counts both answers."""
    question, label = np.asarray(question, dtype=np.int64), np.asarray(label, dtype=np.int64)
    counts = np.full((CLASSES, CLASSES), SMOOTHING)
    np.add.at(counts, (slice(None), label), fitted.posterior[question].T)
    confusion = counts / counts.sum(axis=1, keepdims=True)
    shares = np.bincount(label, minlength=CLASSES) + SMOOTHING
    return float(fitted.prior @ np.diag(confusion)), float((shares / shares.sum()) @ fitted.prior)
