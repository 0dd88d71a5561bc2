"""Drift: each rater's rolling mean score and distance from the other raters, in the order
they submitted their questionnaires, drawn on the study dashboard."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotation.drift import RaterDrift, drift_series, drift_svg
from annotation.models import Assignment
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.annotation.quality_world import FULL, study_make, submit, trajectories_store
from tests.users import person

pytestmark = pytest.mark.django_db


@pytest.fixture
def study(tmp_path):
    """ann rates u1 with 8s, then u2 with 2s; bo gives 5 throughout (ann first, then bo)."""
    trajectories_store(tmp_path, {"case.u1": FULL, "case.u2": FULL})
    study = study_make("pilot", ["case.u1", "case.u2"], ["ann", "bo"], k=2)
    study_plan(study=study)
    for rater, scores in {"ann": {"case.u1": 8, "case.u2": 2}, "bo": {"case.u1": 5, "case.u2": 5}}.items():
        for unit, score in scores.items():
            submit(
                Assignment.objects.get(study=study, rater__username=rater, trajectory_id=unit), lambda item, s=score: s
            )
    return study


def test_each_raters_figures_follow_the_order_of_their_questionnaires(study):
    series = {entry.rater: entry for entry in drift_series(study, window=1)}
    assert series["ann"].mean_score == (8, 2) and series["ann"].distance == (3, 3)
    assert series["bo"].mean_score == (5, 5) and series["bo"].distance == (3, 3)
    rolling = {entry.rater: entry for entry in drift_series(study, window=2)}
    assert rolling["ann"].mean_score == (8, 5)


def test_a_rater_nobody_else_rated_beside_has_no_distance(tmp_path):
    trajectories_store(tmp_path, {"case.solo": FULL})
    study = study_make("solo", ["case.solo"], ["ann"], k=1)
    study_plan(study=study)
    submit(Assignment.objects.get(study=study), lambda item: 7)
    assert drift_series(study) == [RaterDrift("ann", (7,), (None,))]


def test_the_plot_draws_a_line_per_rater_and_escapes_their_names():
    series = [RaterDrift("<b>ann</b>", (8, 2, 4), (3, 3, 1)), RaterDrift("bo", (5, 5, 5), (None, 3, 1))]
    svg = drift_svg(series, lambda entry: entry.mean_score, low=0, high=10, title="Mean & more")
    assert svg.count("<polyline") == 2 and svg.count("<circle") == 6
    assert "&lt;b&gt;ann&lt;/b&gt;" in svg and "<b>" not in svg and "Mean &amp; more" in svg
    distances = drift_svg(series, lambda entry: entry.distance, low=0, high=3, title="t")
    assert distances.count("<circle") == 5  # bo's first questionnaire had nobody to compare with


def test_the_dashboard_shows_the_drift_plots(study, client):
    client.force_login(person("boss", Role.INSTRUCTOR))
    page = client.get(reverse("annotation:study_dashboard", args=[study.pk])).content.decode()
    drift = page[page.index('id="drift"') :]
    assert drift.count("<svg") == 2 and ">ann<" in drift and ">bo<" in drift
