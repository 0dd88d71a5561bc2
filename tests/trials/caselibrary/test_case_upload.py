"""Uploading case files on the authoring page: a file that reuses the id of a library case
names the case and what uses it, and replaces it only when "replace" is ticked."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from classroom.assignments import assignment_create
from classroom.services import course_create
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_create

pytestmark = pytest.mark.django_db

CASE = "en-civil-traffic-accident"


@pytest.fixture
def admin(client):
    user = person("ada", Role.ADMIN)
    client.force_login(user)
    return user


@pytest.fixture
def used_case(admin) -> Case:
    """The demo traffic case with two trials and a course assignment."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    case = Case.objects.get(pk=CASE)
    for _ in range(2):
        trial_create(case=case, backend="scripted")
    course = course_create(slug="clinic", title="Clinic", instructor=admin)
    assignment_create(course=course, case=case, seats=["plaintiff_lawyer"], stages=["LC"])
    return case


def upload(name: str, title: str, other_id: str = "") -> SimpleUploadedFile:
    """The demo traffic case under a new title, and a second case ``other_id`` when given."""
    record = json.loads((DEMO_CASES / f"{CASE}.json").read_text())
    records = [{**record, "title": title}] + ([{**record, "id": other_id}] if other_id else [])
    return SimpleUploadedFile(name, "\n".join(json.dumps(item) for item in records).encode())


def test_an_upload_reusing_a_library_id_names_the_case_and_its_uses_and_stores_nothing(client, used_case):
    response = client.post(
        reverse("trials:case_upload"), {"files": [upload("again.jsonl", "Renamed", other_id="brand-new")]}
    )
    assert response.status_code == 409
    page = response.content.decode()
    assert "Nothing imported: these cases are already in the library" in page
    assert f"<strong>{CASE}</strong> (again.jsonl): used by 2 trials, 1 course assignment" in page
    assert "imported en-civil" not in page
    assert Case.objects.get(pk=CASE).title == used_case.title, "the library case is unchanged"
    assert not Case.objects.filter(pk="brand-new").exists(), "nothing of the upload is stored"


def test_ticking_replace_replaces_the_case_and_says_so(client, used_case):
    response = client.post(reverse("trials:case_upload"), {"files": [upload("again.json", "Renamed")], "replace": "on"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Replaced in the library:" in page
    assert f"imported {CASE}" in page
    assert Case.objects.get(pk=CASE).title == "Renamed"


def test_a_new_case_is_imported_without_asking(client, admin):
    response = client.post(reverse("trials:case_upload"), {"files": [upload("first.json", "First")]})
    assert response.status_code == 200
    assert "import-in-library" not in response.content.decode()
    assert Case.objects.get(pk=CASE).title == "First"
