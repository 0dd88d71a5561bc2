import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from annotation.models import Rubric
from arena.models import Vote
from legalsim.roles import Role
from tests.arena.world import trajectories
from tests.users import person

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def test_a_comparison_is_made_voted_on_blind_and_ranked_over_the_api():
    teacher, rater = person("teacher", Role.INSTRUCTOR), person("rater", Role.RATER)
    made = _client(teacher).post(
        reverse("api:arena_comparisons"),
        {"name": "api", "trajectory_ids": trajectories(), "raters": ["rater"]},
        format="json",
    )
    assert made.status_code == 201 and made.data["pairs"] == 3
    comparison = made.data["id"]
    voter = _client(rater)
    items = Rubric.objects.get(pk="simcourt30").definition.item_ids
    drawn = voter.get(reverse("api:arena_next", args=[comparison]))
    assert drawn.status_code == 200 and "alpha-7b" not in str(drawn.data) and "[model]" in str(drawn.data["a"])
    vote = {"pair": drawn.data["pair"], "shown": drawn.data["shown"], "answers": {item: "both_bad" for item in items}}
    assert voter.post(reverse("api:arena_votes", args=[comparison]), vote, format="json").status_code == 201
    again = voter.post(reverse("api:arena_votes", args=[comparison]), vote, format="json")
    assert again.status_code == 400 and "already voted" in str(again.data)
    forged = voter.post(reverse("api:arena_votes", args=[comparison]), vote | {"pair": 999999}, format="json")
    assert forged.status_code == 400 and "not a pair of this comparison" in str(forged.data)
    assert Vote.objects.count() == len(items)
    board = _client(teacher).get(reverse("api:arena_leaderboard", args=[comparison])).data
    assert {row["configuration"] for row in board["human"]} == {"alpha-7b", "beta-13b"}
    assert all(row["both_bad"] == len(items) for row in board["human"])
    assert voter.get(reverse("api:arena_leaderboard", args=[comparison])).status_code == 403


def test_a_forged_configuration_name_is_refused_over_the_api():
    teacher = person("teacher", Role.INSTRUCTOR)
    response = _client(teacher).post(
        reverse("api:arena_comparisons"),
        {"name": "forged", "trajectory_ids": trajectories(), "configurations": ["alpha-7b", "gpt-9"]},
        format="json",
    )
    assert response.status_code == 400 and "gpt-9" in str(response.data)
