"""What an admin reads in a small study's agreement report and its exports: the job says what
it counted, the HTML export names its study and labels its histogram's bars, alpha and the
ICCs get no interval from too few trajectories, and the CSV writes no ``None``."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from annotation.models import Assignment, Job, Study
from annotation.reports import RELIABILITY_INTERVAL_MIN
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db

TRAJECTORIES = ["t1", "t2", "t3"]
RATERS = ("ann", "bo")


@pytest.fixture
def rated(client, tasks_in_process) -> Study:
    """The walk's study: three trajectories, two raters who submitted every questionnaire
    (96 scores), no judge; an instructor logged in."""
    study = Study.objects.create(
        name="Traffic pilot", rubric_id="legalworld16", raters_per_trajectory=2, trajectory_ids=TRAJECTORIES
    )
    study.raters.set([person(name, Role.RATER, password="pw-123456") for name in RATERS])
    study_plan(study=study)
    items = study.rubric.definition.item_ids
    for number, name in enumerate(RATERS):
        client.login(username=name, password="pw-123456")
        for assignment in Assignment.objects.filter(study=study, rater__username=name):
            form = {}
            for index, item in enumerate(items):
                form[f"score__{item}"] = str(
                    (index * 3 + number * 2 + TRAJECTORIES.index(assignment.trajectory_id)) % 11
                )
                form[f"reason__{item}"] = "as I read it"
            assert client.post(reverse("annotation:assignment_submit", args=[assignment.pk]), form).status_code == 302
        client.logout()
    client.force_login(person("boss", Role.INSTRUCTOR))
    return study


def export(client, study: Study, fmt: str) -> tuple[str, str]:
    """The job page and the downloaded file of an agreement report export."""
    response = client.post(reverse("annotation:study_export", args=[study.pk]), {"format": fmt})
    job = Job.objects.latest("pk")
    assert response.url == reverse("annotation:job", args=[job.pk])
    page = client.get(response.url).content.decode()
    download = client.get(reverse("annotation:job_download", args=[job.pk]))
    return page, b"".join(download.streaming_content).decode()


def test_the_job_page_counts_the_scores_by_people_not_pairs_with_no_judge(client, rated):
    page, _file = export(client, rated, "csv")
    assert "96 scores by people · no LLM judge" in page
    assert "0 pairs" not in page


def test_the_html_export_names_its_study_and_labels_every_bar_with_its_count(client, rated):
    _page, html = export(client, rated, "html")
    assert "<h1>Agreement among raters · Traffic pilot</h1>" in html
    assert "<title>Traffic pilot · " in html
    assert html.count('<text class="count"') >= 5


def test_alpha_and_the_iccs_get_no_interval_from_too_few_trajectories(client, rated):
    page = client.get(reverse("annotation:study_report", args=[rated.pk])).content.decode()
    assert 3 < RELIABILITY_INTERVAL_MIN
    assert "Only 3 trajectories were rated by two or more people" in page
    assert page.count("no interval") == 3 * (8 + 2 + 1 + 16), "α, ICC(1,1), ICC(1,k) of every line"
    assert "[-58" not in page


def test_the_csv_leaves_subdimensions_without_a_figure_out_rather_than_write_none(client, rated):
    _page, text = export(client, rated, "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows
    assert all(row["subdims"] == "" for row in rows), "no judge: no subdimension has a figure"
