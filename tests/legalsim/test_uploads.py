"""Request bodies over LEGALSIM_MAX_UPLOAD_MB are refused before any view stores anything."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.legalsim.test_settings import setting_values
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


@pytest.fixture
def student(client, settings):
    settings.LEGALSIM_MAX_UPLOAD_BYTES = 1024 * 1024
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    client.force_login(person("student", Role.STUDENT))
    return client


def test_an_upload_over_the_limit_is_refused_with_its_size_and_nothing_is_stored(student):
    big = SimpleUploadedFile("case.json", b"x" * (3 * 1024 * 1024 // 2), content_type="application/json")
    response = student.post(reverse("trials:trial_play", args=[CASE]), {"seats": "plaintiff_lawyer", "file": big})
    assert response.status_code == 413
    assert response.content.decode() == "This upload is 1.5 MB; the limit is 1 MB."
    assert not Trial.objects.exists()


def test_a_form_under_the_limit_goes_through(student):
    response = student.post(reverse("trials:trial_play", args=[CASE]), {"seats": "plaintiff_lawyer", "stage": "FIT"})
    assert response.status_code == 302
    assert Trial.objects.filter(case=Case.objects.get()).count() == 1


def test_the_limit_is_set_in_megabytes_from_the_environment():
    assert setting_values({}, "LEGALSIM_MAX_UPLOAD_BYTES") == [20 * 1024 * 1024]
    assert setting_values({"LEGALSIM_MAX_UPLOAD_MB": "5"}, "LEGALSIM_MAX_UPLOAD_BYTES") == [5 * 1024 * 1024]
