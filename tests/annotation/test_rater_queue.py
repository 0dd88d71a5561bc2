"""The rater's queue keeps its order while they work (saving a draft moves nothing), and a
study with nothing new for them says which of their questionnaires are still open, linked."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from annotation.models import Assignment, Study, Trajectory
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db
UNITS = ("lease-1", "lease-2", "lease-3")


@pytest.fixture
def client() -> Client:
    """Rita, rater of a study of three trajectories, one rater each, who has taken all three."""
    for unit in UNITS:
        Trajectory.objects.create(
            id=unit, case_id="case-1", procedure="civil", language="en", title=f"Lease {unit[-1]}", stages=[]
        )
    study = Study.objects.create(
        name="leases", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=list(UNITS)
    )
    rita = person("rita", Role.RATER)
    study.raters.set([rita])
    client = Client()
    client.force_login(rita)
    for _unit in UNITS:
        client.post(reverse("annotation:assignment_next", args=[study.pk]))
    assert Assignment.objects.count() == len(UNITS)
    return client


def queue_rows(client: Client) -> list[str]:
    queue = client.get(reverse("annotation:rater_queue")).content.decode()
    return re.findall(r'<span class="small muted">([\w-]+)</span>', queue)


def test_saving_a_draft_does_not_move_it_in_the_queue(client):
    before = queue_rows(client)
    assert before == list(UNITS)
    middle = Assignment.objects.get(trajectory_id="lease-2")
    item = middle.study.rubric.definition.item_ids[0]
    client.post(reverse("annotation:assignment_draft", args=[middle.pk]), {f"score__{item}": "5"})
    assert Assignment.objects.get(pk=middle.pk).status == Assignment.Status.DRAFT
    assert queue_rows(client) == before


def test_a_study_with_nothing_new_links_the_questionnaires_still_open(client):
    study = Study.objects.get()
    first, second, third = (Assignment.objects.get(trajectory_id=unit) for unit in UNITS)
    Assignment.objects.filter(pk=third.pk).update(status=Assignment.Status.SUBMITTED)
    page = client.post(reverse("annotation:assignment_next", args=[study.pk]), follow=True).content.decode()
    message = re.search(r'<ul class="messages"[^>]*>(.*?)</ul>', page, re.DOTALL).group(1)
    assert "Nothing left to rate" not in message
    assert "are still open" in message
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', message)
    assert links == [
        (reverse("annotation:assignment", args=[first.pk]), "Lease 1 (lease-1)"),
        (reverse("annotation:assignment", args=[second.pk]), "Lease 2 (lease-2)"),
    ]

    Assignment.objects.update(status=Assignment.Status.SUBMITTED)
    page = client.post(reverse("annotation:assignment_next", args=[study.pk]), follow=True).content.decode()
    assert "Nothing left to rate in this study." in page
