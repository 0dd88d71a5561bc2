"""Reads of the arena: the leaderboards (people, judge, ability-weighted), raters' ability,
the judge's position bias, pointwise means beside, and which pair a rater sees next."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Avg, Count, Q, QuerySet

from annotation.models import Rating
from arena.ability import MIN_VOTES, NEAR_CHANCE, Abilities, ability_against, dawid_skene
from arena.bradley_terry import OUTCOMES, Fit, VoteArrays, fit_scores, leaderboard_fit, order_agreement, wins_matrix
from arena.models import Comparison, Configuration, Contest, Vote
from arena.sampling import pair_choose
from legalsim.roles import Ability, can

OVERALL = ""


def comparisons_of(*, user: AbstractBaseUser) -> QuerySet[Comparison]:
    """The comparisons an instructor owns (admins: all; made by a command: every instructor's)."""
    if not can(user, Ability.TEACH):
        return Comparison.objects.none()
    if can(user, Ability.ADMINISTER):
        return Comparison.objects.all()
    return Comparison.objects.filter(Q(owner=user) | Q(owner__isnull=True))


@dataclass(frozen=True)
class VotesFrame:
    """Every vote of a comparison as arrays, configurations by index (in name order)."""

    configurations: list[Configuration]
    first: np.ndarray
    second: np.ndarray
    outcome: np.ndarray
    item: np.ndarray
    human: np.ndarray
    voter: np.ndarray
    voters: list[str]
    question: np.ndarray
    shown_a: np.ndarray
    items: list[str]

    def arrays(self, chosen: np.ndarray, weight: np.ndarray | None = None) -> VoteArrays:
        return VoteArrays.of(
            self.first[chosen], self.second[chosen], self.outcome[chosen], None if weight is None else weight[chosen]
        )


def votes_frame(comparison: Comparison) -> VotesFrame:
    configurations = list(comparison.configurations.order_by("name"))
    index = {configuration.pk: number for number, configuration in enumerate(configurations)}
    rows = list(
        Vote.objects.filter(contest__comparison=comparison).values_list(
            "contest_id",
            "contest__first_id",
            "contest__second_id",
            "outcome",
            "item",
            "source",
            "rater__username",
            "judge",
            "first_shown_as_a",
        )
    )
    items = comparison.rubric.definition.item_ids
    item_index = {item: number for number, item in enumerate(items)}
    voters = sorted({(judge if source == Vote.Source.LLM else username) for *_, source, username, judge, _ in rows})
    voter_index = {voter: number for number, voter in enumerate(voters)}
    outcome_index = {outcome: number for number, outcome in enumerate(OUTCOMES)}
    questions: dict[tuple[int, str], int] = {}
    columns = list(zip(*rows, strict=True)) if rows else [()] * 9
    contest, first, second, outcome, item, source, username, judge, shown_a = columns
    return VotesFrame(
        configurations=configurations,
        first=np.array([index[value] for value in first], dtype=np.int64),
        second=np.array([index[value] for value in second], dtype=np.int64),
        outcome=np.array([outcome_index[value] for value in outcome], dtype=np.int64),
        item=np.array([item_index.get(value, -1) for value in item], dtype=np.int64),
        human=np.array([value == Vote.Source.HUMAN for value in source], dtype=bool),
        voter=np.array(
            [voter_index[j if s == Vote.Source.LLM else u] for s, u, j in zip(source, username, judge, strict=True)],
            dtype=np.int64,
        ),
        voters=voters,
        question=np.array([questions.setdefault(key, len(questions)) for key in zip(contest, item, strict=True)]),
        shown_a=np.array(shown_a, dtype=bool),
        items=items,
    )


def leaderboard_rows(frame: VotesFrame, fit: Fit) -> list[dict]:
    rows = [
        {
            "configuration": configuration.name,
            "score": float(fit.scores[number]),
            "low": float(fit.low[number]),
            "high": float(fit.high[number]),
            "rank": int(fit.rank[number]),
            "rank_low": int(fit.rank_low[number]),
            "rank_high": int(fit.rank_high[number]),
            "votes": int(fit.votes[number]),
            "both_bad": int(fit.both_bad[number]),
        }
        for number, configuration in enumerate(frame.configurations)
    ]
    return sorted(rows, key=lambda row: row["rank"])


def abilities_build(frame: VotesFrame) -> list[dict]:
    """Each voter's ability (Dawid-Skene over people's votes; the judge measured against it),
    chance level, weight and near-chance flag."""
    if not frame.human.any():
        return []
    asked, question = np.unique(frame.question[frame.human], return_inverse=True)
    fitted = dawid_skene(question, frame.voter[frame.human], frame.outcome[frame.human], len(frame.voters))
    rows = []
    for number, voter in enumerate(frame.voters):
        human = bool(frame.human[frame.voter == number].any())
        if human:
            ability, chance = float(fitted.ability[number]), float(fitted.chance[number])
        else:
            own = (frame.voter == number) & np.isin(frame.question, asked)
            if not own.any():
                continue
            ability, chance = ability_against(fitted, np.searchsorted(asked, frame.question[own]), frame.outcome[own])
        weight = float(Abilities.weight_of(ability, chance))
        votes = int((frame.voter == number).sum())
        rows.append(
            {
                "voter": voter,
                "human": human,
                "ability": ability,
                "chance": chance,
                "weight": weight,
                "near_chance": bool(weight < NEAR_CHANCE and votes >= MIN_VOTES),
                "votes": votes,
            }
        )
    return rows


def judge_bias(frame: VotesFrame) -> dict | None:
    """The judge's share of decisive votes for the trajectory shown as A, and the share of its
    answers that stay the same when the order is swapped."""
    judged = ~frame.human
    if not judged.any():
        return None
    decisive = judged & (frame.outcome <= 1)
    chose_a = (frame.outcome[decisive] == 0) == frame.shown_a[decisive]
    answers: dict[tuple[int, int], list[int]] = defaultdict(list)
    for key in zip(frame.question[judged], frame.voter[judged], frame.outcome[judged], strict=True):
        answers[(int(key[0]), int(key[1]))].append(int(key[2]))
    both = [given for given in answers.values() if len(given) == 2]
    return {
        "share_a": float(chose_a.mean()) if chose_a.size else float("nan"),
        "decisive": int(decisive.sum()),
        "consistent": float(np.mean([given[0] == given[1] for given in both])) if both else float("nan"),
        "swapped": len(both),
    }


def leaderboard_build(comparison: Comparison, *, item: str = OVERALL) -> dict:
    """People's, ability-weighted and judge's leaderboards of one item (or all), their agreement,
    the win-rate matrix, abilities, the judge's position bias, pointwise means beside."""
    frame = votes_frame(comparison)
    if item and item not in frame.items:
        raise KeyError(f"{item!r} is not an item of rubric {comparison.rubric_id}")
    n = len(frame.configurations)
    on_item = frame.item == frame.items.index(item) if item else np.ones(len(frame.item), dtype=bool)
    abilities = abilities_build(frame)
    weight_of = {row["voter"]: row["weight"] for row in abilities}
    weights = np.array([weight_of.get(voter, 0.0) for voter in frame.voters])[frame.voter] if abilities else None
    humans = leaderboard_fit(n, frame.arrays(on_item & frame.human))
    weighted = leaderboard_fit(n, frame.arrays(on_item & frame.human, weights))
    judge_chosen = on_item & ~frame.human
    judge = leaderboard_fit(n, frame.arrays(judge_chosen)) if judge_chosen.any() else None
    pointwise = pointwise_means(frame.configurations)
    human_rows = [
        row | {"pointwise": pointwise.get(row["configuration"], {})} for row in leaderboard_rows(frame, humans)
    ]
    return finite(
        {
            "item": item,
            "configurations": [configuration.name for configuration in frame.configurations],
            "human": human_rows,
            "weighted": leaderboard_rows(frame, weighted),
            "judge": leaderboard_rows(frame, judge) if judge else [],
            "agreement": order_agreement(humans.scores, judge.scores) if judge else None,
            "win_rate": humans.win_rate.tolist(),
            "abilities": abilities,
            "judge_bias": judge_bias(frame),
            "pointwise": pointwise,
            "human_votes": int((on_item & frame.human).sum()),
            "judge_votes": int(judge_chosen.sum()),
        }
    )


def finite(value: object) -> object:
    """``value`` with every nan float as ``None`` (JSON and templates show no figure)."""
    if isinstance(value, float):
        return None if np.isnan(value) else value
    if isinstance(value, dict):
        return {key: finite(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [finite(inner) for inner in value]
    return value


def pointwise_means(configurations: list[Configuration]) -> dict[str, dict[str, float]]:
    """Per configuration, the mean people's score of its trajectories in each pointwise rubric."""
    owner = {tid: configuration.name for configuration in configurations for tid in configuration.trajectory_ids}
    means: dict[str, dict[str, float]] = defaultdict(dict)
    rows = (
        Rating.objects.filter(trajectory_id__in=list(owner), source=Rating.Source.HUMAN, score__isnull=False)
        .values("trajectory_id", "rubric_id")
        .annotate(total=Avg("score"), n=Count("id"))
    )
    sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for row in rows:
        key = (owner[row["trajectory_id"]], row["rubric_id"])
        sums[key][0] += row["total"] * row["n"]
        sums[key][1] += row["n"]
    for (name, rubric), (total, count) in sums.items():
        means[name][rubric] = total / count
    return dict(means)


def contest_next(
    comparison: Comparison, rater: AbstractBaseUser, rng: np.random.Generator
) -> tuple[Contest, bool] | None:
    """The pair this rater votes on next and whether its first trajectory is shown as A; ``None``
    when the rater has voted on every pair."""
    open_contests = list(comparison.contests.exclude(votes__rater=rater).annotate(n=Count("votes", distinct=True)))
    if not open_contests:
        return None
    frame = votes_frame(comparison)
    n = len(frame.configurations)
    index = {configuration.pk: number for number, configuration in enumerate(frame.configurations)}
    human = frame.arrays(frame.human)
    counts = np.zeros((n, n))
    np.add.at(counts, (human.first, human.second), 1.0)
    by_pair: dict[tuple[int, int], list[Contest]] = defaultdict(list)
    for contest in open_contests:
        by_pair[(index[contest.first_id], index[contest.second_id])].append(contest)
    scores = fit_scores(wins_matrix(n, human))
    chosen = pair_choose(scores, counts, sorted(by_pair), uniform_share=comparison.uniform_share, rng=rng)
    contest = min(by_pair[chosen], key=lambda one: (one.n, one.pk))
    shown = Vote.objects.filter(contest=contest, source=Vote.Source.HUMAN).values("rater").distinct()
    first_as_a = shown.filter(first_shown_as_a=True).count()
    second_as_a = shown.filter(first_shown_as_a=False).count()
    first_shown_as_a = bool(rng.integers(2)) if first_as_a == second_as_a else first_as_a < second_as_a
    return contest, first_shown_as_a
