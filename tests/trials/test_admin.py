"""Cases and trials in the admin site, for admins: listed, searchable, read-only where the
engine and the case-file validators own the data."""

from __future__ import annotations

import pytest
from django.urls import reverse

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


def test_an_admin_finds_a_trial_and_reads_its_seats_and_state_without_editing_them(client):
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    trial = trial_simulate(case=Case.objects.get(pk=CASE), until="LC")
    client.force_login(person("root", Role.ADMIN))
    listed = client.get(reverse("admin:trials_trial_changelist"), {"q": CASE}).content.decode()
    assert f"/admin/trials/trial/{trial.pk}/change/" in listed
    page = client.get(reverse("admin:trials_trial_change", args=[trial.pk])).content.decode()
    assert "plaintiff_lawyer" in page, "the seats are shown inline"
    assert 'name="state"' not in page and 'name="status"' in page, "the state is read-only; the status may be fixed"
    case_page = client.get(reverse("admin:trials_case_change", args=[CASE])).content.decode()
    assert "Liu Fang v. Huang Jun" in case_page and 'name="seed"' not in case_page
