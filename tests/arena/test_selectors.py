import numpy as np
import pytest

from arena.models import Vote
from arena.selectors import contest_next, leaderboard_build
from arena.services import comparison_create
from legalsim.roles import Role
from tests.arena.world import MODELS, trajectories
from tests.users import person

pytestmark = pytest.mark.django_db


def _votes(comparison, rater, outcome_of, *, source="human"):
    items = comparison.rubric.definition.item_ids
    Vote.objects.bulk_create(
        Vote(
            contest=contest,
            item=item,
            source=source,
            rater=rater if source == "human" else None,
            judge="" if source == "human" else rater,
            first_shown_as_a=shown,
            outcome=outcome_of(contest, item, shown),
        )
        for contest in comparison.contests.all()
        for item in items
        for shown in ((True, False) if source == "llm" else (True,))
    )


@pytest.fixture
def comparison():
    raters = [person(f"r{n}", Role.RATER) for n in range(3)]
    made = comparison_create(
        name="three",
        rubric_id="simcourt30",
        trajectory_ids=trajectories(MODELS, ("c1", "c2", "c3", "c4")),
        raters=raters,
    )
    return made, raters


def _prefers(order):
    """The better of the two in ``order`` on every item but the debate's, where they tie."""

    def outcome(contest, item, shown):
        if item.startswith("debate."):
            return "tie"
        return "first" if order.index(contest.first.name) < order.index(contest.second.name) else "second"

    return outcome


def test_the_configuration_people_prefer_leads_with_an_interval_and_both_bad_is_counted_apart(comparison):
    made, raters = comparison
    _votes(made, raters[0], _prefers(["gamma-70b", "beta-13b", "alpha-7b"]))
    _votes(made, raters[1], lambda contest, item, shown: "both_bad" if "alpha" in contest.first.name else "tie")
    board = leaderboard_build(made)
    assert [row["configuration"] for row in board["human"]] == ["gamma-70b", "beta-13b", "alpha-7b"]
    top = board["human"][0]
    assert top["low"] < top["score"] < top["high"] and top["rank_low"] == 1
    alpha = next(row for row in board["human"] if row["configuration"] == "alpha-7b")
    assert alpha["both_bad"] == 8 * 30 and alpha["votes"] == 16 * 30
    assert board["judge"] == [] and board["agreement"] is None


def test_judge_board_beside_people_with_rank_correlation_and_position_bias(comparison):
    made, raters = comparison
    people = _prefers(["gamma-70b", "beta-13b", "alpha-7b"])
    _votes(made, raters[0], people)
    # the judge agrees with the people when the first record is shown as A, and picks A otherwise
    _votes(
        made, "judge-x", lambda contest, item, shown: people(contest, item, shown) if shown else "second", source="llm"
    )
    board = leaderboard_build(made, item="overall.judge")
    assert board["judge_bias"]["share_a"] > 0.5 and board["judge_bias"]["consistent"] < 1.0, (
        "ties shown first, A second"
    )
    assert board["agreement"]["pairs_agreeing"] == 1.0 and len(board["judge"]) == 3


def test_a_rater_answering_at_random_is_flagged_near_chance(comparison):
    made, raters = comparison
    truth = _prefers(["beta-13b", "gamma-70b", "alpha-7b"])
    rng = np.random.default_rng(4)
    _votes(made, raters[0], truth)
    _votes(made, raters[1], truth)
    _votes(made, raters[2], lambda *_: ["first", "second", "tie", "both_bad"][rng.integers(4)])
    abilities = {row["voter"]: row for row in leaderboard_build(made)["abilities"]}
    assert abilities["r2"]["near_chance"] and not abilities["r0"]["near_chance"]
    assert abilities["r0"]["weight"] > abilities["r2"]["weight"]


def test_an_unknown_item_is_refused(comparison):
    with pytest.raises(KeyError):
        leaderboard_build(comparison[0], item="forged.item")


def test_next_pair_is_one_the_rater_has_not_voted_on_and_orders_balance(comparison):
    made, raters = comparison
    rng = np.random.default_rng(1)
    _votes(made, raters[0], _prefers(["gamma-70b", "beta-13b", "alpha-7b"]))
    assert contest_next(made, raters[0], rng) is None
    contest, shown = contest_next(made, raters[1], rng)
    assert contest.comparison_id == made.pk and shown is False, "r0 saw the first as A: the next rater sees it as B"
