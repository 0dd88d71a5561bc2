"""``seed_demo`` then ``seed_demo_study`` (what ``dev.py up`` runs): a fresh demo has something
for every demo user to do, the rater included, and running them again (``dev.py up`` twice)
creates nothing twice."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from annotation.models import Assignment, Study
from trials.models import Trial

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=io.StringIO(), stderr=io.StringIO())
    call_command("seed_demo_study", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_demo_rater_finds_a_study_to_rate_at_once_and_a_second_run_adds_nothing(client):
    first = seed()
    assert "study 'Demo study': 6 trajectories, 6 assigned to 'rater'" in first
    counts = (Trial.objects.count(), Study.objects.count(), Assignment.objects.count())
    assert "study 'Demo study' exists" in seed()
    assert (Trial.objects.count(), Study.objects.count(), Assignment.objects.count()) == counts
    client.force_login(get_user_model().objects.get(username="rater"))
    page = client.get(reverse("annotation:rater_queue")).content.decode()
    assert "Nothing assigned to you yet." not in page
    assert page.count(">Rate</a>") == 6
    assert "Demo study" in page
