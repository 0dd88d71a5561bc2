"""A trial stuck preparing for good (issue #44, item 9): a worker prepares a live trial under
the trial's lease, as a driver drives one. A preparation that fails pauses the trial with
the reason, shown as any pause and resumable; one whose worker died (its lease ran out) is
taken over by the workers' recovery pass and finished from the stages already stored."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.services import course_create
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials import preparation
from trials.leases import lease_claim, lease_kept
from trials.live.services import trial_pause_set
from trials.models import Case, LLMCallRecord, Trial
from trials.services import cases_import, trial_create
from trials.tasks import recovery_pass, trial_prepare_task

pytestmark = pytest.mark.django_db
CASE = "zh-civil-private-lending"
DEAD = "worker-host:4242:killed"


class Killed(BaseException):
    """The worker's process ends where it stands (kill -9): nothing of it runs after."""


@pytest.fixture
def hearing(openai_settings) -> Trial:
    """A live trial of the first-instance hearing, the plaintiff's lawyer a student of the
    course: preparing until agents have played the stages before FIT."""
    openai_settings.LEGALSIM_AGENT_BACKEND = "openai"
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    course = course_create(slug="civ", title="Civil procedure", instructor=person("ines", Role.INSTRUCTOR))
    return trial_create(
        live=True,
        case=Case.objects.get(pk=CASE),
        humans={"plaintiff_lawyer": person("paula", Role.STUDENT)},
        stages=["FIT"],
        course=course,
    )


def room_banner(trial: Trial) -> str:
    client = Client()
    client.force_login(User.objects.get(username="ines"))
    page = client.get(reverse("trials:trial_room", args=[trial.pk])).content.decode()
    return page[page.index('id="banner"') : page.index("</section>", page.index('id="banner"'))]


def test_a_worker_that_cannot_reach_a_model_pauses_the_preparation_with_why_and_resuming_finishes_it(
    hearing, openai_settings, llm_server
):
    openai_settings.OPENAI_BASE_URL = ""  # a worker started without it
    assert trial_prepare_task(hearing.pk) == Trial.Status.PAUSED
    paused = Trial.objects.get(pk=hearing.pk)
    assert paused.status == Trial.Status.PAUSED and paused.first_stage == "FIT"
    assert "could not be played: OPENAI_BASE_URL is not set" in paused.pause_reason
    assert paused.driver == "", "the worker handed the lease back"
    banner = room_banner(paused)
    assert "Paused" in banner and "OPENAI_BASE_URL is not set" in banner, "the reason is shown as any pause's"

    openai_settings.OPENAI_BASE_URL = llm_server.base_url
    assert trial_pause_set(trial_id=hearing.pk, user=User.objects.get(username="ines"), paused=False) == "instructor"
    assert Trial.objects.get(pk=hearing.pk).status == Trial.Status.PREPARING
    trial_prepare_task(hearing.pk)  # what the worker it was handed to does
    resumed = Trial.objects.get(pk=hearing.pk)
    assert resumed.status == Trial.Status.RUNNING and resumed.pause_reason == ""
    assert resumed.engine_state.stage_history == ["LC", "CD"]


def test_an_unexpected_error_pauses_the_preparation_naming_only_its_kind(hearing, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("the server's internals")

    monkeypatch.setattr(preparation, "trial_run", broken)
    trial_prepare_task(hearing.pk)
    paused = Trial.objects.get(pk=hearing.pk)
    assert paused.status == Trial.Status.PAUSED
    assert paused.pause_reason == (
        "the stages before FIT stopped on an unexpected error (KeyError); resume it to try again"
    )


def test_a_preparation_whose_worker_died_is_taken_over_by_the_recovery_pass_and_finished(
    hearing, llm_server, monkeypatch, tasks_in_process
):
    frame = preparation.preparing_frame

    def killed_at_cd(stage: str, *args):
        if stage == "CD":
            raise Killed
        return frame(stage, *args)

    monkeypatch.setattr(preparation, "preparing_frame", killed_at_cd)
    with pytest.raises(Killed):
        trial_prepare_task(hearing.pk)
    monkeypatch.setattr(preparation, "preparing_frame", frame)
    # What the killed worker left: its lease on the row, run out.
    Trial.objects.filter(pk=hearing.pk).update(driver=DEAD, driver_until=timezone.now() - timedelta(seconds=1))
    left = Trial.objects.get(pk=hearing.pk)
    assert left.status == Trial.Status.PREPARING and left.engine_state.stage_history == ["LC"]
    stored_lc = (left.turns.filter(stage="LC").count(), LLMCallRecord.objects.filter(trial=left, stage="LC").count())

    recovery_pass()
    finished = Trial.objects.get(pk=hearing.pk)
    assert finished.status == Trial.Status.RUNNING and finished.engine_state.stage_history == ["LC", "CD"]
    assert (
        finished.turns.filter(stage="LC").count(),
        LLMCallRecord.objects.filter(trial=finished, stage="LC").count(),
    ) == stored_lc, "the stage the dead worker stored is not played again"
    assert finished.turns.count() == len(finished.engine_state.turns)
    assert finished.driver == "", "the lease is handed back for the room's driver"


def test_the_recovery_pass_leaves_a_preparation_whose_worker_is_alive(hearing, llm_server, tasks_in_process):
    alive = timezone.now() + timedelta(seconds=10)
    Trial.objects.filter(pk=hearing.pk).update(driver=DEAD, driver_until=alive)
    recovery_pass()
    trial_prepare_task(hearing.pk)  # a second delivery of its message, too
    left = Trial.objects.get(pk=hearing.pk)
    assert (left.status, left.driver, left.driver_until) == (Trial.Status.PREPARING, DEAD, alive)
    assert left.turns.count() == 0 and llm_server.requests == []


@pytest.mark.django_db(transaction=True)
def test_a_preparing_workers_lease_is_renewed_while_it_plays_and_lost_to_a_takeover(hearing, settings):
    """Outside a transaction (as a worker runs) a thread renews the lease every third of its
    length; once another worker has taken the trial over, the run learns it lost it."""
    settings.LEGALSIM_DRIVER_LEASE_S = 0.6
    assert lease_claim(hearing.pk, preparing=True)
    with lease_kept(hearing.pk) as lost:
        first = Trial.objects.get(pk=hearing.pk).driver_until
        time.sleep(1.0)
        assert not lost.is_set() and Trial.objects.get(pk=hearing.pk).driver_until > first
        Trial.objects.filter(pk=hearing.pk).update(driver=DEAD)
        assert lost.wait(timeout=2.0), "the run stops storing once another holds the lease"
