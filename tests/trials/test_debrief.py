"""The debrief a participant reads when the trial is over: what their trial decided beside
what the real court decided, revealed only then, and only for a trial that decided the case."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.debrief import debrief_for
from trials.models import Case, Trial
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.django_db


def simulated(case_id: str, **options) -> Trial:
    cases_import(paths=[DEMO_CASES / f"{case_id}.json"])
    return trial_simulate(case=Case.objects.get(pk=case_id), backend="scripted", **options)


def test_a_civil_trial_ends_on_its_judgment_beside_the_real_ones():
    trial = simulated("en-civil-traffic-accident")
    debrief = debrief_for(trial.engine_state)
    seed = trial.case.seed
    assert debrief.title == "Civil judgment (second instance)"
    assert debrief.orders.startswith("1. ") and "Parties" not in debrief.orders, "the orders, not the whole document"
    assert debrief.orders.splitlines()[0] in debrief.document
    real = dict(debrief.real)
    assert real["First-instance judgment"] == seed["first_instance"]["disposition"]
    assert real["Second-instance judgment"] == seed["second_instance"]["final_disposition"]


def test_a_criminal_trial_ends_on_its_verdict_beside_the_real_sentence():
    trial = simulated("zh-criminal-dangerous-driving")
    debrief = debrief_for(trial.engine_state)
    sentence = trial.case.seed["sentence"]
    assert debrief.title and "判决" in debrief.title
    assert f"{sentence['imprisonment_months']}个月" in dict(debrief.real)["判决"]


def test_a_trial_that_decided_nothing_reveals_nothing():
    trial = simulated("en-civil-traffic-accident", until="LC")
    debrief = debrief_for(trial.engine_state)
    assert debrief.title == "" and debrief.real == []


def test_the_room_shows_the_debrief_only_once_the_trial_is_over(client):
    student = person("student", Role.STUDENT)
    finished = simulated("en-criminal-telecom-fraud")
    finished.seats.filter(seat="attorney").update(user=student)
    Trial.objects.filter(pk=finished.pk).update(live=True)
    running = prepared_trial(case=finished.case, humans={"attorney": student}, stages=["debate"])
    client.force_login(student)
    real_sentence = escape("32 months' imprisonment")
    over = client.get(reverse("trials:trial_room", args=[finished.pk])).content.decode()
    assert 'id="debrief"' in over and real_sentence in over
    assert reverse("scoring:trial_scorecard", args=[finished.pk]) in over.split('id="debrief"', 1)[1]
    assert 'id="composer"' not in over and "back to an agent" not in over, "nothing left to do in the room"
    under_way = client.get(reverse("trials:trial_room", args=[running.pk])).content.decode()
    assert 'id="debrief"' not in under_way and real_sentence not in under_way
