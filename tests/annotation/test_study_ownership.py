"""A study belongs to its owner and the instructors they share it with (issue #44 item 15):
any instructor could start an LLM judge run on another's study and read its dashboard,
report, quality page, adjudication transcripts and exports. For another instructor the study
and its jobs are not there (404) and nothing they post starts a job; the owner, a colleague
it is shared with and an admin keep every page."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from annotation.models import Job, Rating, Study
from legalsim.roles import Role
from tests.annotation.test_setup_views import form, library  # noqa: F401  (the set-up page's trajectories)
from tests.users import person

pytestmark = pytest.mark.django_db
THRESHOLDS = {"gold_min_within1_pct": "1", "adjudication_threshold": "0"}
RESOLVED = {"score": "10", "reason": "an outsider's verdict"}


@pytest.fixture
def study() -> Study:
    """The owner's study with a rating, a judge's and a finished export to download."""
    owner = person("owner", Role.INSTRUCTOR)
    study = Study.objects.create(
        name="pilot", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=["t1"], owner=owner
    )
    study.raters.set([person("ann", Role.RATER)])
    for rater, source, score in (("ann", "human", 3), ("judge-x", "llm", 9)):
        Rating.objects.create(
            rubric_id="legalworld16",
            trajectory_id="t1",
            item="FIT.process_coherence",
            rater=rater,
            source=source,
            score=score,
            reason="the owner's rater's reason",
        )
    return study


@pytest.fixture
def job(study) -> Job:
    job = Job.objects.create(
        kind=Job.Kind.RATINGS_EXPORT, rubric_id="legalworld16", study=study, status=Job.Status.DONE
    )
    job.file.save("ratings.csv", ContentFile(b"trajectory,score\n"))
    return job


def study_urls(study: Study, job: Job) -> list[tuple[str, str, dict]]:
    """Every page and action of one study, with what a browser would post."""
    pk = study.pk
    return [
        ("get", reverse("annotation:study_dashboard", args=[pk]), {}),
        ("get", reverse("annotation:study_jobs", args=[pk]), {}),
        ("get", reverse("annotation:study_report", args=[pk]), {}),
        ("post", reverse("annotation:study_quality", args=[pk]), THRESHOLDS),
        ("get", reverse("annotation:adjudication_queue", args=[pk]), {}),
        ("get", reverse("annotation:adjudication_item", args=[pk, "FIT.process_coherence", "t1"]), {}),
        ("post", reverse("annotation:adjudication_item", args=[pk, "FIT.process_coherence", "t1"]), RESOLVED),
        ("post", reverse("annotation:study_judge", args=[pk]), {"model": "judge-y"}),
        ("post", reverse("annotation:study_export", args=[pk]), {"kind": "ratings_export", "layout": "long"}),
        ("post", reverse("annotation:study_export", args=[pk]), {"format": "html"}),
        ("get", reverse("annotation:job", args=[job.pk]), {}),
        ("get", reverse("annotation:job_progress", args=[job.pk]), {}),
        ("get", reverse("annotation:job_download", args=[job.pk]), {}),
    ]


def signed_in(username: str, role: Role) -> Client:
    client = Client()
    client.force_login(person(username, role))
    return client


def test_another_instructor_finds_no_study_of_someone_else(study, job, settings):
    settings.OPENAI_BASE_URL = "http://127.0.0.1:9/v1"  # the judge could run: only ownership refuses it
    intruder = signed_in("intruder", Role.INSTRUCTOR)
    for method, url, data in study_urls(study, job):
        response = getattr(intruder, method)(url, data)
        assert response.status_code == 404, url
        assert b"the owner's rater's reason" not in response.content
    assert Job.objects.count() == 1, "no judge run or export was started"
    study.refresh_from_db()
    assert (study.gold_min_within1_pct, study.adjudication_threshold) == (50, 3)
    assert not study.adjudications.exists()
    assert "pilot" not in intruder.get(reverse("annotation:study_list")).content.decode()


@pytest.mark.parametrize("who", ["owner", "colleague", "admin"])
def test_the_owner_those_they_share_it_with_and_admins_keep_every_page(study, job, who):
    if who == "colleague":
        study.shared_with.add(person("colleague", Role.INSTRUCTOR))
    client = signed_in(who, Role.ADMIN if who == "admin" else Role.INSTRUCTOR)
    for method, url, _data in study_urls(study, job):
        if method == "get":
            assert client.get(url).status_code in (200, 302), url
    assert "pilot" in client.get(reverse("annotation:study_list")).content.decode()


def test_a_study_set_up_on_the_page_is_its_creators(library, client):  # noqa: F811
    person("ann", Role.RATER)
    client.force_login(person("creator", Role.INSTRUCTOR))
    assert (
        client.post(reverse("annotation:study_new"), form(trajectories=library[:1], raters=["ann"], k="1")).status_code
        == 302
    )
    created = Study.objects.get(name="Pilot")
    assert created.owner.get_username() == "creator"
    stranger = signed_in("stranger", Role.INSTRUCTOR)
    assert stranger.get(reverse("annotation:study_dashboard", args=[created.pk])).status_code == 404


@pytest.mark.django_db
def test_the_api_shows_another_instructor_neither_the_study_nor_its_progress(study):
    intruder = APIClient()
    intruder.force_authenticate(person("intruder", Role.INSTRUCTOR))
    listed = intruder.get("/api/studies/")
    assert listed.status_code == 200 and study.pk not in [row["id"] for row in listed.json()["results"]]
    assert intruder.get(f"/api/studies/{study.pk}/").status_code == 404
