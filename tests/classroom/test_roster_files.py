"""A roster as an Excel workbook (issue #44 item 15): an .xlsx is read (its first sheet, the
CSV's columns) instead of being refused as "a NUL byte ... UTF-16?", and its bad rows are
named by sheet, row and field, as a CSV's are by line and field."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from openpyxl import Workbook

from classroom.models import Course
from classroom.rosters import roster_check

pytestmark = pytest.mark.django_db


def workbook(rows: list[list[object]], sheet: str = "Students") -> bytes:
    """A real .xlsx written by openpyxl: ``rows`` on the first sheet, a decoy sheet after it."""
    book = Workbook()
    book.active.title = sheet
    for row in rows:
        book.active.append(row)
    book.create_sheet("Notes").append(["username", "email", "full_name"])
    book["Notes"].append(["decoy", "not an email", "Never Enrolled"])
    saved = io.BytesIO()
    book.save(saved)
    return saved.getvalue()


def upload(client: Client, name: str, data: bytes):
    roster = SimpleUploadedFile(name, data)
    return client.post(reverse("classroom:course_roster", args=["civ"]), {"roster": roster})


def test_an_xlsx_roster_enrols_the_rows_of_its_first_sheet(
    prof_client, tasks_in_process, django_capture_on_commit_callbacks
):
    rows = [
        ["username", "email", "full_name"],
        ["ann", "ann@example.org", "Ann Lee"],
        [],
        [20240117, "num@example.org", " Numeric Id "],
    ]
    with django_capture_on_commit_callbacks(execute=True):
        sent = upload(prof_client, "week1.xlsx", workbook(rows))
    course = Course.objects.get(slug="civ")
    assert sent.status_code == 302, sent.content.decode()[:500]
    assert sorted(course.enrolments.values_list("user__username", "user__email")) == [
        ("20240117", "num@example.org"),
        ("ann", "ann@example.org"),
    ]
    assert course.enrolments.get(user__username="20240117").user.get_full_name() == "Numeric Id"
    assert "Enrolled 2 from week1.xlsx" in prof_client.get(sent["Location"]).content.decode()


def test_an_xlsx_roster_with_bad_rows_names_sheet_row_and_field_and_enrols_nobody(prof_client):
    rows = [
        ["full_name", "username", "email"],
        ["Ann", "ann", "ann@example.org"],
        ["B", "b b", "b@example.org"],
        ["Cy", "cy", "not-an-email"],
    ]
    page = upload(prof_client, "week1.xlsx", workbook(rows, sheet="Class A")).content.decode()
    assert "week1.xlsx [Class A]:3: username: &#x27;b b&#x27;: letters, digits and @ . + - _ only" in page
    assert "week1.xlsx [Class A]:4: email: &#x27;not-an-email&#x27; is not an email address" in page
    assert "NUL byte" not in page
    assert not Course.objects.get(slug="civ").enrolments.exists()


def test_an_xlsx_roster_without_a_column_names_the_header(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_bytes(workbook([["username", "mail", "full_name"], ["ann", "ann@example.org", "Ann"]]))
    [problem] = roster_check(path=path, label="r.xlsx").problems
    assert str(problem) == "r.xlsx [Students]:1: header: missing column(s): email"


def test_an_xlsx_roster_over_the_cap_names_the_first_row_past_it(tmp_path, settings):
    settings.LEGALSIM_ROSTER_MAX_ROWS = 2
    path = tmp_path / "roster.csv"
    path.write_bytes(workbook([["username", "email", "full_name"]] + [[f"s{i}", f"s{i}@x.org", ""] for i in range(3)]))
    [problem] = roster_check(path=path, label="r.xlsx").problems
    assert str(problem).startswith("r.xlsx [Students]:4: file: has more than 2 rows")


def test_a_workbook_that_is_not_one_or_is_an_old_xls_says_so(tmp_path):
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    path = tmp_path / "roster.csv"
    path.write_bytes(broken.getvalue())
    [problem] = roster_check(path=path, label="r.xlsx").problems
    assert str(problem).startswith("r.xlsx:1: file: cannot be read as an Excel workbook (.xlsx)")
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 64)
    [problem] = roster_check(path=path, label="r.xls").problems
    assert str(problem) == "r.xls:1: file: is an old Excel workbook (.xls); save it as .xlsx or as CSV (UTF-8)"
