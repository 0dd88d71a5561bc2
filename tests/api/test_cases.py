"""Cases over the API: search, detail without evaluation-only fields, import by upload."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.cases import case_stored
from tests.conftest import CIVIL_CASE
from tests.court.engine.test_visibility import plant
from trials.models import Case

pytestmark = pytest.mark.django_db


def test_a_student_searches_the_library_by_title_and_procedure(student, demo_case):
    case_stored(CIVIL_CASE)
    everything = student.get("/api/cases/").json()
    assert {case["id"] for case in everything["results"]} == {demo_case, CIVIL_CASE["id"]}
    found = student.get("/api/cases/", {"q": "lending"}).json()["results"]
    assert [case["id"] for case in found] == [CIVIL_CASE["id"]]
    assert student.get("/api/cases/", {"procedure": "criminal"}).json()["results"] == []


def test_a_student_never_receives_evaluation_only_fields_an_instructor_does(student, instructor):
    seed, planted = plant(CIVIL_CASE)
    case_stored(seed)
    hidden = [canary for label, canary in planted.items() if label.startswith("eval:")]
    shown = student.get(f"/api/cases/{seed['id']}/")
    assert shown.status_code == 200
    assert not [canary for canary in hidden if canary in shown.content.decode()]
    full = instructor.get(f"/api/cases/{seed['id']}/").content.decode()
    assert all(canary in full for canary in hidden)


def test_a_student_reads_the_public_case_and_the_brief_of_one_seat_as_the_case_page_shows(student):
    """Hardening #10: the API follows the case page's rule, not the whole seed minus the
    evaluation-only fields (which showed both sides' bottom lines)."""
    seed, planted = plant(CIVIL_CASE)
    case_stored(seed)
    public = student.get(f"/api/cases/{seed['id']}/").json()
    assert public["brief"] is None and [party["name"] for party in public["seed"]["parties"]] == ["Zhang Wei", "Li Na"]
    assert not [label for label, canary in planted.items() if canary in json.dumps(public)]
    brief = student.get(f"/api/cases/{seed['id']}/", {"seat": "defendant_lawyer"}).json()["brief"]
    shown = {label for label, canary in planted.items() if canary in json.dumps(brief)}
    assert shown == {"facts:defendant", "evidence:defendant", "bottom_line:defendant"}


def test_an_unknown_case_is_404(student):
    assert student.get("/api/cases/no-such-case/").status_code == 404


def upload(name: str, content: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content.encode(), content_type="application/json")


def test_an_instructor_imports_an_uploaded_case_file(instructor):
    response = instructor.post(
        "/api/cases/import/", {"files": [upload("library.json", json.dumps([CIVIL_CASE], indent=2))]}
    )
    assert response.status_code == 201, response.content
    assert response.json() == {
        "imported": [CIVIL_CASE["id"]],
        "problems": [],
        "rejected_files": [],
        "files": [{"file": "library.json", "status": "stored", "imported": [CIVIL_CASE["id"]], "problems": []}],
    }
    assert Case.objects.get(pk=CIVIL_CASE["id"]).source_file == "library.json"


def test_a_file_with_a_bad_record_is_rejected_whole_with_file_line_field_problems(instructor):
    bad = {**CIVIL_CASE, "id": "second", "procedure": "maritime"}
    del bad["title"]
    content = json.dumps([{**CIVIL_CASE, "id": "first"}, bad], indent=2)
    good = upload("good.jsonl", json.dumps({**CIVIL_CASE, "id": "fine"}) + "\n")
    response = instructor.post("/api/cases/import/", {"files": [upload("cases.json", content), good]})
    assert response.status_code == 400
    body = response.json()
    problems = body["problems"]
    procedure_line = content.splitlines().index(next(line for line in content.splitlines() if "maritime" in line)) + 1
    assert f"cases.json:{procedure_line}: procedure: must be one of civil, criminal, got 'maritime'" in problems
    assert any(problem.startswith("cases.json:") and ": title: is required" in problem for problem in problems)
    assert body["rejected_files"] == ["cases.json"]
    assert body["imported"] == ["fine"], "other files are atomic on their own"
    assert not Case.objects.filter(pk__in=["first", "second"]).exists()


def test_invalid_json_is_reported_with_its_line(instructor):
    response = instructor.post("/api/cases/import/", {"files": [upload("broken.json", '{\n  "id": "x",\n  oops\n}')]})
    assert response.status_code == 400
    assert response.json()["problems"][0].startswith("broken.json:3: json: invalid JSON")
    assert not Case.objects.exists()


def test_students_may_not_import_cases(student):
    response = student.post("/api/cases/import/", {"files": [upload("c.json", json.dumps(CIVIL_CASE))]})
    assert response.status_code == 403
    assert not Case.objects.exists()


def deep_upload() -> SimpleUploadedFile:
    return upload("deep.json", '[\n{"id": "deep",\n "x": ' + "[" * 1000 + "]" * 1000 + "}\n]")


def good_upload() -> SimpleUploadedFile:
    return upload("good.json", json.dumps({**CIVIL_CASE, "id": "good"}))


@pytest.mark.parametrize("deep_first", [True, False])
def test_an_upload_nested_1000_deep_gets_its_own_verdict_and_the_good_file_is_stored(instructor, deep_first):
    files = [deep_upload(), good_upload()] if deep_first else [good_upload(), deep_upload()]
    response = instructor.post("/api/cases/import/", {"files": files})
    assert response.status_code == 400, response.content
    verdicts = {
        "deep.json": {
            "file": "deep.json",
            "status": "refused",
            "imported": [],
            "problems": ["deep.json:3: json: nested deeper than 64 levels"],
        },
        "good.json": {"file": "good.json", "status": "stored", "imported": ["good"], "problems": []},
    }
    body = response.json()
    assert body["files"] == [verdicts[upload.name] for upload in files], "one verdict per file, in upload order"
    assert body["imported"] == ["good"] and body["rejected_files"] == ["deep.json"]
    assert body["problems"] == ["deep.json:3: json: nested deeper than 64 levels"]
    assert list(Case.objects.values_list("pk", flat=True)) == ["good"], "exactly what the answer says was stored"


def test_files_with_one_name_are_told_apart_by_their_place(instructor):
    response = instructor.post(
        "/api/cases/import/",
        {"files": [upload("cases.json", "[" * 1000), upload("cases.json", json.dumps({**CIVIL_CASE, "id": "b"}))]},
    )
    assert [(file["file"], file["status"]) for file in response.json()["files"]] == [
        ("cases.json", "refused"),
        ("cases.json", "stored"),
    ]


def test_a_file_name_too_long_for_the_file_system_is_still_read(instructor):
    name = "案" * 200 + ".jsonl"  # 600 bytes: no file system takes it as a name
    response = instructor.post("/api/cases/import/", {"files": [upload(name, json.dumps(CIVIL_CASE) + "\n")]})
    assert response.status_code == 201, response.content
    assert response.json()["files"][0]["status"] == "stored"
    assert Case.objects.get(pk=CIVIL_CASE["id"]).source_file == name


def test_an_upload_that_is_not_utf8_is_refused_with_its_line(instructor):
    content = json.dumps({**CIVIL_CASE, "title": "Café"}, ensure_ascii=False, indent=2).encode("latin-1")
    response = instructor.post(
        "/api/cases/import/", {"files": [SimpleUploadedFile("latin.json", content, content_type="application/json")]}
    )
    assert response.status_code == 400
    assert response.json()["problems"] == [
        "latin.json:4: file: is not UTF-8 text: byte 0xe9 cannot be decoded; save it as UTF-8 (column 16)"
    ]
