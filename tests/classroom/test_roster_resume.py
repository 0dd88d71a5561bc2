"""A roster job stuck after a worker kill (issue #44, item 10): a job whose worker died half-way
is resumed where it stopped, by the workers' recovery pass or by the next look at its page,
and every account it created gets its set-password link once; a job whose run is alive is
left to it."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from classroom import rosters
from classroom.models import Enrolment, RosterJob
from classroom.services import course_create
from legalsim.roles import Role
from tests.users import person
from trials.tasks import recovery_pass

pytestmark = pytest.mark.django_db
ROWS = 7
USERNAMES = [f"r{index:03d}" for index in range(ROWS)]


class Killed(BaseException):
    """The worker's process ends where it stands (kill -9): nothing of it runs after."""


def roster_file() -> SimpleUploadedFile:
    lines = ["username,email,full_name"] + [f"{name},{name}@uni.example,Student {name}" for name in USERNAMES]
    return SimpleUploadedFile("class.csv", ("\n".join(lines) + "\n").encode())


@pytest.fixture
def prof_client(monkeypatch) -> Client:
    monkeypatch.setattr(rosters, "ROSTER_BATCH_ROWS", 2)
    course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    client = Client()
    client.force_login(person("prof"))
    return client


def upload(client: Client) -> None:
    client.post(reverse("classroom:course_roster", args=["civ"]), {"roster": roster_file()})


@pytest.fixture
def killed_job(prof_client, monkeypatch, tasks_in_process, django_capture_on_commit_callbacks) -> RosterJob:
    """A roster of seven uploaded, its worker killed after the first batch of two: the job
    left running at row 2 with its two accounts made, and its lease left to run out."""
    enrol = rosters.roster_batch_enrol

    def killed_at_the_second_batch(job, batch):
        if job.done:
            raise Killed
        enrol(job, batch)

    monkeypatch.setattr(rosters, "roster_batch_enrol", killed_at_the_second_batch)
    with pytest.raises(Killed), django_capture_on_commit_callbacks(execute=True):
        upload(prof_client)
    monkeypatch.setattr(rosters, "roster_batch_enrol", enrol)
    job = RosterJob.objects.get()
    assert (job.status, job.done, len(job.created)) == (RosterJob.Status.RUNNING, 2, 2)
    cache.delete(rosters._lease_key(job))  # run out
    return job


def job_page(client: Client, job: RosterJob) -> str:
    return client.get(reverse("classroom:roster_job", args=["civ", job.pk])).content.decode()


def links_listed(page: str) -> list[str]:
    return [name for name in USERNAMES for _ in range(page.count(f"<td>{name}</td>"))]


def links_downloaded(client: Client, job: RosterJob) -> list[str]:
    response = client.post(reverse("classroom:roster_links", args=["civ", job.pk]))
    return [row["username"] for row in csv.DictReader(io.StringIO(response.content.decode()))]


def test_the_next_look_at_a_killed_jobs_page_resumes_it_and_lists_every_link_once(prof_client, killed_job):
    page = job_page(prof_client, killed_job)
    job = RosterJob.objects.get()
    assert (job.status, job.done, job.enrolled) == (RosterJob.Status.DONE, ROWS, ROWS)
    assert "Enrolled 7 from class.csv; 7 new account(s)." in page
    assert links_listed(page) == USERNAMES, "each new account's link, once, the first two included"
    assert "Download 7 links (once)" in page
    assert links_downloaded(prof_client, job) == USERNAMES
    assert Enrolment.objects.count() == get_user_model().objects.filter(username__in=USERNAMES).count() == ROWS


def test_the_workers_recovery_pass_resumes_a_killed_job_and_leaves_a_live_one(prof_client, killed_job):
    cache.set(rosters._lease_key(killed_job), "a-live-worker", timeout=60)
    recovery_pass()
    assert "2 of 7 rows" in job_page(prof_client, killed_job), "a run that holds the lease is left to it"

    cache.delete(rosters._lease_key(killed_job))  # that run's lease ran out too
    recovery_pass()
    job = RosterJob.objects.get()
    assert (job.status, job.done, sorted(job.created)) == (
        RosterJob.Status.DONE,
        ROWS,
        sorted(get_user_model().objects.filter(username__in=USERNAMES).values_list("pk", flat=True)),
    )
    assert links_listed(job_page(prof_client, job)) == USERNAMES


def test_a_second_upload_while_the_first_is_stuck_leaves_no_link_twice_or_lost(
    prof_client, killed_job, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        upload(prof_client)
    second = RosterJob.objects.exclude(pk=killed_job.pk).get()
    first_links = links_listed(job_page(prof_client, killed_job))
    second_links = links_listed(job_page(prof_client, second))
    assert sorted(first_links + second_links) == USERNAMES
    assert first_links == USERNAMES[:2], "the killed job's two accounts get their links on its page"
