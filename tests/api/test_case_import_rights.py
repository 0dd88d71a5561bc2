"""Replacing a library case over the API (issue #44 item 13): another course's assigned case
was replaced by any instructor's upload of its id (201), its course's pages showing the new
title and its students' next attempt failing. A replacement is asked for explicitly
(``replace=true``, else 409 naming the case and what uses it) and only its uploader or an
admin may make it (else 403); nothing of a refused upload is stored."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from classroom.assignments import assignment_create
from classroom.services import course_create
from legalsim.roles import Role
from tests.api.conftest import client_for
from tests.conftest import CIVIL_CASE
from tests.users import person
from trials.models import Case

pytestmark = pytest.mark.django_db
URL = "/api/cases/import/"
CASE_ID = CIVIL_CASE["id"]


def case_file(title: str, name: str = "case.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps({**CIVIL_CASE, "title": title}).encode(), "application/json")


@pytest.fixture
def author() -> APIClient:
    """An instructor who uploaded the case, which their course's assignment plays."""
    client = client_for("author", Role.INSTRUCTOR)
    assert client.post(URL, {"files": [case_file("The author's loan")]}).status_code == 201
    course = course_create(slug="loans", title="Loans", instructor=person("author"))
    assignment_create(course=course, case=Case.objects.get(pk=CASE_ID), seats=["plaintiff_lawyer"])
    return client


def title() -> str:
    return Case.objects.get(pk=CASE_ID).title


@pytest.mark.parametrize("asked", [{}, {"replace": "true"}], ids=["unasked", "replace=true"])
def test_another_instructor_cannot_replace_a_case_another_course_plays(author, asked):
    intruder = client_for("intruder", Role.INSTRUCTOR)
    response = intruder.post(URL, {"files": [case_file("Hijacked")], **asked})
    assert response.status_code == 403, response.content
    assert response.json()["in_library"] == [
        {"case": CASE_ID, "file": "case.json", "trials": 0, "assignments": 1, "yours": False}
    ]
    assert title() == "The author's loan"
    assert Case.objects.get(pk=CASE_ID).imported_by.get_username() == "author"


def test_an_upload_holding_a_case_not_yours_stores_none_of_its_files(author):
    intruder = client_for("intruder", Role.INSTRUCTOR)
    new = SimpleUploadedFile("new.json", json.dumps({**CIVIL_CASE, "id": "brand-new"}).encode(), "application/json")
    assert intruder.post(URL, {"files": [new, case_file("Hijacked")], "replace": "true"}).status_code == 403
    assert not Case.objects.filter(pk="brand-new").exists()


def test_the_author_is_asked_first_then_replaces_with_replace_true(author):
    held = author.post(URL, {"files": [case_file("Second edition")]})
    assert held.status_code == 409
    assert held.json()["in_library"] == [
        {"case": CASE_ID, "file": "case.json", "trials": 0, "assignments": 1, "yours": True}
    ]
    assert "replace=true" in held.json()["detail"]
    assert title() == "The author's loan"
    assert author.post(URL, {"files": [case_file("Second edition")], "replace": "true"}).status_code == 201
    assert title() == "Second edition"


def test_an_admin_replaces_any_case_when_asked(author):
    admin = client_for("root", Role.ADMIN)
    assert admin.post(URL, {"files": [case_file("Corrected")]}).status_code == 409
    assert admin.post(URL, {"files": [case_file("Corrected")], "replace": "true"}).status_code == 201
    assert title() == "Corrected"
    assert Case.objects.get(pk=CASE_ID).imported_by.get_username() == "author", "the case stays its author's"


def test_a_case_imported_from_the_command_line_is_replaced_by_an_admin_only(demo_case):
    instructor = client_for("teacher", Role.INSTRUCTOR)
    seed = {**Case.objects.get(pk=demo_case).seed, "title": "Rewritten"}
    upload = SimpleUploadedFile("demo.json", json.dumps(seed).encode(), "application/json")
    assert instructor.post(URL, {"files": [upload], "replace": "true"}).status_code == 403
    assert Case.objects.get(pk=demo_case).title != "Rewritten"


def test_a_new_case_is_recorded_as_its_uploaders(author):
    assert Case.objects.get(pk=CASE_ID).imported_by == person("author")


def test_the_authoring_page_refuses_to_replace_a_case_its_uploader_did_not_upload(author, client):
    client.force_login(person("intruder", Role.INSTRUCTOR))
    page = client.post(reverse("trials:case_upload"), {"files": [case_file("Hijacked")], "replace": "on"})
    assert page.status_code == 403
    assert 'id="import-not-yours"' in page.content.decode() and CASE_ID in page.content.decode()
    assert title() == "The author's loan"
