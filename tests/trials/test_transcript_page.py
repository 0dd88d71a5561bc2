"""The printable transcript stands alone (no base template): it names the site's icon itself,
or every browser asks for /favicon.ico and gets a 404 (issue 44 item 6)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_create

pytestmark = pytest.mark.django_db


def test_the_printable_transcript_links_the_icon_the_site_ships(client):
    cases_import(paths=[DEMO_CASES / "en-civil-commercial-lease.json"])
    student = person("student", Role.STUDENT)
    trial = trial_create(live=True, case=Case.objects.get(pk="en-civil-commercial-lease"), humans={"judge": student})
    client.force_login(student)
    page = client.get(reverse("trials:trial_transcript", args=[trial.pk])).content.decode()
    icon = re.search(r'<link rel="icon" href="/static/([^"]+)"', page)
    assert icon and finders.find(icon.group(1)), "a link to a file under static/"
