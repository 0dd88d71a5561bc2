"""``seed_demo`` then ``seed_demo_study`` (what ``dev.py up`` runs): a fresh demo has something
for every demo user to do, the rater included, its study's agreement report has figures at
once, and running them again (``dev.py up`` twice) creates nothing twice."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from annotation.models import Assignment, Rating, Study
from annotation.selectors import agreement_build
from trials.models import Trial

pytestmark = pytest.mark.django_db


def seed() -> str:
    out = io.StringIO()
    call_command("seed_demo", stdout=io.StringIO(), stderr=io.StringIO())
    call_command("seed_demo_study", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_the_demo_rater_finds_a_study_to_rate_at_once_and_a_second_run_adds_nothing(client):
    first = seed()
    assert "study 'Demo study': 6 trajectories, each assigned to 'rater', 'rater2' and 'rater3'" in first
    counts = (Trial.objects.count(), Study.objects.count(), Assignment.objects.count(), Rating.objects.count())
    assert "study 'Demo study' exists" in seed()
    assert (Trial.objects.count(), Study.objects.count(), Assignment.objects.count(), Rating.objects.count()) == counts
    client.force_login(get_user_model().objects.get(username="rater"))
    page = client.get(reverse("annotation:rater_queue")).content.decode()
    assert "Nothing assigned to you yet." not in page
    assert page.count(">Rate</a>") == 6
    assert "Demo study" in page


def test_the_demo_study_report_shows_the_raters_agreement_at_once(client):
    """Issue 44 item 5: one rater, so the report was all dashes."""
    seed()
    study = Study.objects.get(name="Demo study")
    report = agreement_build(rubric=study.rubric, judge=None, study=study, replicates=0).report
    lines = [report["overall"], *(line for group in report["groups"] for line in (group["overall"], *group["rows"]))]
    for line in lines:
        assert line["n_human_raters"] == 2 and line["n_units_shared"] >= 12, line["id"]
        assert line["krippendorff_alpha_interval"] is not None and line["icc_1_1"] is not None, line["id"]
    assert 0.3 < report["overall"]["krippendorff_alpha_interval"] < 0.95, "raters who agree, not copies"
    client.force_login(get_user_model().objects.get(username="instructor"))
    dashboard = client.get(reverse("annotation:study_dashboard", args=[study.pk])).content.decode()
    figures = re.search(r"α \(interval\) (\S+) · ICC\(1,1\) (\S+) ·", dashboard)
    assert figures and "—" not in figures.groups()


def test_each_demo_score_says_what_was_counted_in_the_trajectory():
    seed()
    ratings = Rating.objects.filter(study__name="Demo study", rater__in=["rater2", "rater3"])
    lease = ratings.filter(trajectory_id__startswith="en-civil-commercial-lease", item="SIT.process_coherence")
    assert {rating.reason for rating in lease} == {"4 of 26 turns repeat an earlier turn word for word."}
    assert sorted(rating.score for rating in lease) == [5, 7], "the strict reader takes more off"
    assert not get_user_model().objects.get(username="rater2").has_usable_password(), "nobody signs in as them"
