"""A student plays plaintiff counsel through a trial and reads the scorecard."""

from __future__ import annotations

import asyncio
import copy
import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client

from legalsim.roles import Role
from tests.conftest import CIVIL_CASE
from tests.trials.test_room import connect, make_trial, play, stop_drivers  # noqa: F401 (fixture)
from tests.users import person
from trials.models import Trial

pytestmark = pytest.mark.django_db(transaction=True)
CANARY = "Return the pledged violin CANARY-CLAIM-7731"
FINDINGS = "CANARY-FINDINGS-7731 the court finds the loan proved"


def seed_with_canary() -> dict:
    """A claim of the plaintiff's that no agent states (the student drafts the complaint), and
    court findings that are never a point the student failed to raise."""
    seed = copy.deepcopy(CIVIL_CASE)
    seed["first_instance"]["claims"].append(CANARY)
    seed["first_instance"]["court_findings"] = f"{FINDINGS}. The defendant repaid nothing."
    return seed


@database_sync_to_async
def page(path: str, username: str = "student") -> str:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    response = client.get(path, HTTP_HOST="127.0.0.1")
    assert response.status_code == 200, path
    return response.content.decode()


async def test_the_scorecard_links_every_deduction_and_reveals_only_after_the_end():
    trial = await make_trial({"plaintiff_lawyer": "student"}, stages=("CD", "FIT"), seed=seed_with_canary())
    early = await page(f"/trials/{trial.pk}/scorecard/")
    assert 'id="reveal"' not in early and "CANARY" not in early

    communicator = await connect(trial, "student")
    await play(communicator, {"plaintiff_lawyer"})
    await communicator.disconnect()
    trial = await database_sync_to_async(Trial.objects.get)(pk=trial.pk)
    assert trial.status == Trial.Status.FINISHED

    card = await page(f"/trials/{trial.pk}/scorecard/")
    assert "Rule-based scorer" in card
    assert "Legal consultation: played by an agent" in card and "Drafting the complaint: played by an agent" not in card
    deductions = re.findall(r'<li class="deduction">(.*?)</li>', card, re.DOTALL)
    assert deductions, "a student who says the same line everywhere loses points"
    transcript = await page(f"/trials/{trial.pk}/transcript/")
    for deduction in deductions:
        links = re.findall(rf'href="/trials/{trial.pk}/transcript/(#[\w-]+)"', deduction)
        assert links, deduction
        assert all(f'id="{anchor[1:]}"' in transcript for anchor in links)
    assert 'id="reveal"' in card and CANARY in card
    assert FINDINGS not in card, "the court's findings are not a point the student failed to raise"

    history = await page("/scorecards/")
    assert f"/trials/{trial.pk}/scorecard/" in history and "<svg" in history


async def test_a_stranger_cannot_open_the_scorecard():
    trial = await make_trial({"plaintiff_lawyer": "student"}, seed=seed_with_canary())

    @database_sync_to_async
    def as_stranger() -> int:
        stranger = person("stranger", Role.STUDENT)
        client = Client()
        client.force_login(stranger)
        return client.get(f"/trials/{trial.pk}/scorecard/", HTTP_HOST="127.0.0.1").status_code

    assert await as_stranger() == 404


@database_sync_to_async
def stored_scorecards(trial: Trial) -> dict[str, str]:
    return {score.seat: score.subject_user.username for score in trial.scores.exclude(subject_user=None)}


async def test_a_student_judge_finds_a_judges_scorecard_in_my_scorecards_without_opening_it():
    trial = await make_trial({"judge": "student"})
    communicator = await connect(trial, "student")
    await play(communicator, {"judge"})
    await communicator.disconnect()
    assert await stored_scorecards(trial) == {"judge": "student"}, "stored when the trial ended"

    history = await page("/scorecards/")
    assert f"/trials/{trial.pk}/scorecard/?seat=judge" in history
    card = await page(f"/trials/{trial.pk}/scorecard/")
    assert "As the judge you are scored on" in card
    assert "Procedural compliance" in card or "procedural compliance" in card
    assert "Issue spotting" not in card and "issue spotting" not in card
    assert '<figure id="capability-chart"><svg' in card


async def test_two_students_as_opposing_counsel_each_get_the_scorecard_of_their_own_seat():
    trial = await make_trial({"plaintiff_lawyer": "student", "defendant_lawyer": "rival"})
    plaintiff, defendant = await connect(trial, "student"), await connect(trial, "rival")
    await asyncio.gather(play(plaintiff, {"plaintiff_lawyer"}), play(defendant, {"defendant_lawyer"}))
    for communicator in (plaintiff, defendant):
        await communicator.disconnect()
    assert await stored_scorecards(trial) == {"plaintiff_lawyer": "student", "defendant_lawyer": "rival"}

    rivals = await page(f"/trials/{trial.pk}/scorecard/", username="rival")
    assert "Counsel for the defendant" in rivals and "(you)" in rivals
    assert await status_of(f"/trials/{trial.pk}/scorecard/?seat=plaintiff_lawyer", "rival") == 404


@database_sync_to_async
def status_of(path: str, username: str) -> int:
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client.get(path, HTTP_HOST="127.0.0.1").status_code
