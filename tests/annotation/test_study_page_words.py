"""A study's page speaks to a person in a browser: it says what to do in the web app, or who
does it (an administrator), never which shell command to run or which README to read."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from annotation.models import Study
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db
SHELL_WORDS = ("study_gold", "study_create", "README", "OPENAI_BASE_URL", "manage.py", "command")


@pytest.fixture
def page(client, settings) -> str:
    """The page of a study without assignments, references or a model server."""
    settings.OPENAI_BASE_URL = ""
    study = Study.objects.create(name="pilot", rubric_id="legalworld16", raters_per_trajectory=2, trajectory_ids=["t1"])
    client.force_login(person("prof", Role.INSTRUCTOR))
    response = client.get(reverse("annotation:study_dashboard", args=[study.pk]))
    assert response.status_code == 200
    main = response.content.decode().split("<main>", 1)[1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def test_a_study_without_assignments_says_raters_take_them_from_their_queue(page):
    assert "No assignments yet: raters take this study's trajectories from their queue" in page.replace("&#x27;", "'")
    assert "study_create" not in page


def test_the_study_page_names_no_shell_command_and_no_readme(page):
    assert [word for word in SHELL_WORDS if word in page] == []
    assert "An administrator connects one" in page, "who makes the LLM judge available"
    assert "Ask an administrator to add them" in page, "who gives the study gold trajectories"
