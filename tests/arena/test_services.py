import json

import pytest

from annotation.models import Rubric
from arena.models import Contest, Vote
from arena.selectors import leaderboard_build
from arena.services import ArenaError, comparison_create, judge_run, shown_token, votes_submit
from legalsim.llm import LLMResult
from legalsim.roles import Role
from tests.arena.world import MODELS, trajectories
from tests.users import person

pytestmark = pytest.mark.django_db


def _comparison(models=MODELS[:2], **options):
    rater = person("rater1", Role.RATER)
    return comparison_create(
        name="models", rubric_id="simcourt30", trajectory_ids=trajectories(models), raters=[rater], **options
    ), rater


def _answers(answer: str) -> dict[str, str]:
    return {item: answer for item in Rubric.objects.get(pk="simcourt30").definition.item_ids}


def test_two_models_on_three_cases_make_one_blind_pair_per_case_named_by_model():
    comparison, _ = _comparison()
    assert sorted(comparison.configurations.values_list("name", flat=True)) == ["alpha-7b", "beta-13b"]
    assert sorted(Contest.objects.values_list("case_id", flat=True)) == ["c1", "c2", "c3"]
    assert {(c.first.name, c.second.name) for c in Contest.objects.all()} == {("alpha-7b", "beta-13b")}


def test_three_models_pair_every_two_on_each_case():
    comparison, _ = _comparison(MODELS)
    assert comparison.contests.count() == 9


def test_a_study_with_one_configuration_is_refused_and_nothing_is_stored():
    with pytest.raises(ArenaError, match="at least two configurations"):
        _comparison(MODELS[:1])
    assert not Contest.objects.exists()


def test_a_forged_configuration_name_is_refused():
    with pytest.raises(ArenaError, match="no configuration named 'delta-1b'"):
        _comparison(configurations=["alpha-7b", "delta-1b"])


def test_an_answer_for_a_shown_as_b_is_stored_as_the_second_of_the_pair():
    comparison, rater = _comparison()
    contest = comparison.contests.first()
    votes_submit(
        comparison=comparison,
        contest_id=contest.pk,
        rater=rater,
        token=shown_token(contest, False),
        answers=_answers("A"),
    )
    assert set(Vote.objects.values_list("outcome", "first_shown_as_a")) == {("second", False)}


def test_voting_twice_on_a_pair_is_refused_and_stored_once():
    comparison, rater = _comparison()
    contest = comparison.contests.first()
    token = shown_token(contest, True)
    votes_submit(comparison=comparison, contest_id=contest.pk, rater=rater, token=token, answers=_answers("tie"))
    with pytest.raises(ArenaError, match="already voted on pair"):
        votes_submit(comparison=comparison, contest_id=contest.pk, rater=rater, token=token, answers=_answers("B"))
    assert Vote.objects.count() == 30 and set(Vote.objects.values_list("outcome", flat=True)) == {"tie"}


def test_a_vote_on_a_pair_of_another_comparison_or_with_a_forged_order_is_refused():
    comparison, rater = _comparison()
    other = comparison_create(
        name="other", rubric_id="simcourt30", trajectory_ids=[*trajectories(MODELS[2:], ("c1",)), "c1.alpha-7b"]
    )
    foreign = other.contests.get()
    with pytest.raises(ArenaError, match="not a pair of this comparison"):
        votes_submit(comparison=comparison, contest_id=foreign.pk, rater=rater, token="", answers=_answers("A"))
    contest = comparison.contests.first()
    with pytest.raises(ArenaError, match="order of A and B"):
        votes_submit(comparison=comparison, contest_id=contest.pk, rater=rater, token="forged", answers=_answers("A"))
    with pytest.raises(ArenaError, match="belongs to another pair"):
        votes_submit(
            comparison=comparison,
            contest_id=contest.pk,
            rater=rater,
            token=shown_token(foreign, True),
            answers=_answers("A"),
        )
    assert not Vote.objects.exists()


def test_a_missing_or_unknown_answer_stores_nothing():
    comparison, rater = _comparison()
    contest = comparison.contests.first()
    answers = _answers("A") | {"overall.judge": "maybe"}
    with pytest.raises(ArenaError, match=r"overall\.judge: choose A, B, tie or both bad"):
        votes_submit(
            comparison=comparison, contest_id=contest.pk, rater=rater, token=shown_token(contest, True), answers=answers
        )
    assert not Vote.objects.exists()


class AlwaysA:
    """A judge that prefers whatever it is shown first, and records what it read."""

    def __init__(self) -> None:
        self.read: list[str] = []

    def complete(self, call):
        self.read.append(json.dumps(call.messages, ensure_ascii=False))
        items = Rubric.objects.get(pk="simcourt30").definition.item_ids
        answers = {item: {"preference": "A", "reason": "first"} for item in items}
        return LLMResult(json.dumps({"answers": answers}), "judge-x", 0, 0, 0.0, 1), None


def test_the_judge_votes_both_orders_blind_and_its_position_bias_shows():
    comparison, _ = _comparison()
    judge = AlwaysA()
    assert judge_run(comparison=comparison, model="judge-x", client=judge) == 0
    assert Vote.objects.filter(source="llm").count() == 3 * 2 * 30
    assert not any("alpha-7b" in text or "beta-13b" in text for text in judge.read) and "[model]" in judge.read[0]
    bias = leaderboard_build(comparison)["judge_bias"]
    assert bias["share_a"] == 1.0 and bias["consistent"] == 0.0 and bias["swapped"] == 90
    judge_run(comparison=comparison, model="judge-x", client=judge)
    assert Vote.objects.filter(source="llm").count() == 3 * 2 * 30, "a second run replaces the first"
