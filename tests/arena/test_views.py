import io
import json

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from annotation.models import Rubric
from arena.models import Comparison, Vote
from legalsim.roles import Role
from tests.arena.world import trajectories
from tests.users import person

pytestmark = pytest.mark.django_db
PASSWORD = "pw-123456"


@pytest.fixture
def made(client):
    ids = trajectories()
    teacher = person("teacher", Role.INSTRUCTOR, password=PASSWORD)
    raters = [person(f"rater{n}", Role.RATER, password=PASSWORD) for n in range(2)]
    client.login(username="teacher", password=PASSWORD)
    response = client.post(
        reverse("arena:comparison_new"),
        {
            "name": "two models",
            "rubric": "simcourt30",
            "trajectory_ids": "\n".join(ids),
            "raters": [r.pk for r in raters],
        },
    )
    comparison = Comparison.objects.get()
    assert response.status_code == 302 and response.url == reverse("arena:comparison", args=[comparison.pk])
    assert comparison.owner == teacher
    return comparison, raters


def _vote(client, comparison, rater, answer_for):
    client.login(username=rater.username, password=PASSWORD)
    items = Rubric.objects.get(pk="simcourt30").definition.item_ids
    for _ in range(comparison.contests.count()):
        page = client.get(reverse("arena:vote", args=[comparison.pk])).content.decode()
        assert "Record A" in page and "Record B" in page and "Both bad" in page
        assert "alpha-7b" not in page and "beta-13b" not in page, "the configuration names would unblind the pair"
        contest = page.split('name="contest" value="')[1].split('"')[0]
        token = page.split('name="shown" value="')[1].split('"')[0]
        answer = answer_for(page)
        data = {"contest": contest, "shown": token} | {f"answer__{item}": answer for item in items}
        assert client.post(reverse("arena:vote", args=[comparison.pk]), data).status_code == 302
        again = client.post(reverse("arena:vote", args=[comparison.pk]), data)
        assert again.status_code == 400 and "already voted" in again.content.decode()
    assert "voted on every pair" in client.get(reverse("arena:vote", args=[comparison.pk])).content.decode()


def test_researcher_creates_two_raters_vote_blind_and_the_leaderboard_ranks_with_intervals(client, made):
    comparison, raters = made
    for rater in raters:
        _vote(client, comparison, rater, lambda page: "A" if "c1" in page or "c2" in page else "tie")
    assert Vote.objects.filter(source="human").count() == 2 * 3 * 30
    client.login(username="teacher", password=PASSWORD)
    page = client.get(reverse("arena:comparison", args=[comparison.pk])).content.decode()
    assert 'id="board-human"' in page and "95% interval" in page and "alpha-7b" in page and "beta-13b" in page
    assert 'id="abilities"' in page and "rater0" in page and "<svg" in page
    partial = client.get(
        reverse("arena:comparison", args=[comparison.pk]), {"item": "overall.judge"}, HTTP_HX_REQUEST="true"
    )
    assert (
        partial.content.decode().startswith('\n<div id="leaderboard">')
        or 'id="leaderboard"' in partial.content.decode()
    )
    assert "<html" not in partial.content.decode()


def test_exports_carry_the_leaderboard_in_csv_xlsx_and_json(client, made):
    comparison, _ = made
    url = lambda fmt: reverse("arena:comparison_export", args=[comparison.pk, fmt])  # noqa: E731
    csv_text = client.get(url("csv")).content.decode()
    assert csv_text.startswith("leaderboard,item,rank,configuration") and "alpha-7b" in csv_text
    book = load_workbook(io.BytesIO(client.get(url("xlsx")).content))
    assert book["leaderboard"]["D2"].value in ("alpha-7b", "beta-13b")
    board = json.loads(client.get(url("json")).content)
    assert len(board["human"]) == 2 and board["human"][0]["low"] <= board["human"][0]["score"]
    assert client.get(reverse("arena:comparison", args=[comparison.pk]), {"item": "forged"}).status_code == 404


def test_a_comparison_of_one_configuration_is_refused_on_the_page(client):
    ids = trajectories(("alpha-7b",))
    person("teacher", Role.INSTRUCTOR, password=PASSWORD)
    client.login(username="teacher", password=PASSWORD)
    response = client.post(
        reverse("arena:comparison_new"), {"name": "one", "rubric": "simcourt30", "trajectory_ids": "\n".join(ids)}
    )
    assert response.status_code == 400 and "at least two configurations" in response.content.decode()
    assert not Comparison.objects.exists()


def test_raters_cannot_read_the_leaderboard_and_other_people_cannot_vote(client, made):
    comparison, _ = made
    person("outsider", Role.RATER, password=PASSWORD)
    client.login(username="outsider", password=PASSWORD)
    assert client.get(reverse("arena:comparison", args=[comparison.pk])).status_code == 403
    assert client.get(reverse("arena:vote", args=[comparison.pk])).status_code == 404
