"""The API keeps a paired assignment's opponent brief as the case page does (issue #31, "Also"):
a paired student reads and plays only the seat their pair gives them."""

from __future__ import annotations

import json

import pytest

from tests.trials.test_views import paired, plant  # noqa: F401  (the fixture, and what it plants)
from tests.users import person
from trials.models import Trial

pytestmark = pytest.mark.django_db


def test_a_paired_student_reads_no_opponent_brief_through_the_api(client, paired):  # noqa: F811
    case, defendant_only = paired
    client.force_login(person("ann"))
    brief = client.get(f"/api/cases/{case.pk}/", {"seat": "defendant_lawyer"}).json()["brief"]
    assert brief is None
    own = client.get(f"/api/cases/{case.pk}/", {"seat": "plaintiff_lawyer"}).json()["brief"]
    assert own is not None and not any(canary in json.dumps(own) for canary in defendant_only.values())
    client.force_login(person("bob"))
    theirs = client.get(f"/api/cases/{case.pk}/", {"seat": "defendant_lawyer"}).json()["brief"]
    assert all(canary in json.dumps(theirs, ensure_ascii=False) for canary in defendant_only.values())


def test_a_paired_student_cannot_start_a_trial_in_the_opponents_seat_through_the_api(client, paired):  # noqa: F811
    case, _ = paired
    client.force_login(person("ann"))
    response = client.post(
        "/api/trials/", {"case": case.pk, "seats": ["defendant_lawyer"]}, content_type="application/json"
    )
    assert response.status_code == 400 and "defendant_lawyer" in response.json()["seats"][0]
    assert not Trial.objects.exists()
