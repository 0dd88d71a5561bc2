"""The gradebook as an instructor uses it: a row per student, a cell per assignment with the
attempt the course chooses (latest or best), its scorecard overall, status and lateness; the
grade and feedback saved inline; the CSV and XLSX downloads and the ``gradebook`` command."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from openpyxl import load_workbook

from classroom.assignments import assignment_create, assignment_start
from classroom.gradebook import GRADEBOOK_COLUMNS, gradebook_build
from classroom.models import Attempt, Course, Grade
from classroom.selectors import Status
from classroom.services import course_create, course_enrol
from legalsim.roles import Role
from scoring.capabilities import CAPABILITIES
from scoring.models import TrialScore
from scoring.scorers import RuleBasedScorer
from scoring.services import trial_score
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_continue

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


def played(attempt: Attempt) -> Attempt:
    """The attempt's trial played to its end by scripted agents (the student's seat too)."""
    trial_continue(trial=attempt.trial)
    attempt.refresh_from_db()
    assert attempt.submitted_at is not None
    return attempt


@pytest.fixture
def course() -> Course:
    """ann finished, bob is playing, cid has not started, dan submitted two hours late."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    course = course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    students = {name: person(name, Role.STUDENT) for name in ("ann", "bob", "cid", "dan")}
    course_enrol(course=course, usernames=list(students))
    now = timezone.now()
    assignment = assignment_create(
        course=course,
        case=Case.objects.get(pk=CASE),
        seats=["plaintiff_lawyer"],
        stages=["LC"],
        opens_at=now - timedelta(days=3),
        due_at=now + timedelta(days=1),
        attempts=2,
        title="Consultation",
    )
    played(assignment_start(assignment=assignment, student=students["ann"]))
    assignment_start(assignment=assignment, student=students["bob"])
    late = played(assignment_start(assignment=assignment, student=students["dan"]))
    Attempt.objects.filter(pk=late.pk).update(submitted_at=assignment.due_at + timedelta(hours=2))
    return course


def cells(course: Course) -> dict[str, object]:
    return {cell.student.username: cell for cell in gradebook_build(course=course).cells}


def test_each_student_gets_a_cell_with_status_lateness_and_the_scorecard_overall(course):
    book = cells(course)
    assert {name: cell.status for name, cell in book.items()} == {
        "ann": Status.SUBMITTED,
        "bob": Status.IN_PROGRESS,
        "cid": Status.NOT_STARTED,
        "dan": Status.LATE,
    }
    assert book["ann"].overall is not None and 0 <= book["ann"].overall <= 1
    assert book["bob"].overall is None and book["cid"].attempt is None and book["cid"].overall is None
    assert book["dan"].lateness == "2 h 0 min" and book["ann"].lateness == ""
    assert not TrialScore.objects.filter(
        trial=book["ann"].attempt.trial
    ).exists()  # reading the gradebook stores nothing


def test_the_course_chooses_the_latest_or_the_best_attempt(client, course):
    ann = person("ann")
    assignment = course.assignments.get()
    second = played(assignment_start(assignment=assignment, student=ann))
    first = Attempt.objects.get(student=ann, number=1)
    for attempt in (first, second):
        trial_score(trial=attempt.trial, scorer=RuleBasedScorer(), seat="plaintiff_lawyer")
    TrialScore.objects.filter(trial=first.trial).update(overall=0.9)
    TrialScore.objects.filter(trial=second.trial).update(overall=0.1)
    assert cells(course)["ann"].attempt == second
    client.force_login(person("prof"))
    response = client.post(reverse("classroom:gradebook_attempt", args=["civ"]), {"attempt": "best"})
    assert response.status_code == 302
    course.refresh_from_db()
    best = cells(course)["ann"]
    assert best.attempt == first and best.overall == 0.9
    page = client.get(reverse("classroom:gradebook", args=["civ"])).content.decode()
    assert ">9.0<" in page and reverse("trials:trial_transcript", args=[first.trial_id]) in page
    assert client.post(reverse("classroom:gradebook_attempt", args=["civ"]), {"attempt": "worst"}).status_code == 400


def test_the_page_shows_every_student_and_links_each_attempt_to_its_transcript(client, course):
    client.force_login(person("prof"))
    page = client.get(reverse("classroom:gradebook", args=["civ"])).content.decode()
    for name in ("ann", "bob", "cid", "dan"):
        assert f'data-student="{name}"' in page
    for attempt in Attempt.objects.all():
        assert reverse("trials:trial_transcript", args=[attempt.trial_id]) in page
    for status in ("not started", "in progress", "submitted", "late"):
        assert f'data-status="{status}"' in page
    assert "2 h 0 min late" in page


def test_a_grade_and_feedback_are_saved_inline_and_a_bad_grade_is_refused(client, course):
    client.force_login(person("prof"))
    assignment, ann = course.assignments.get(), person("ann")
    url = reverse("classroom:grade_save", args=["civ", assignment.pk, ann.pk])
    cell = client.post(url, {"grade": "87.5", "feedback": "Good <b>work</b>"}, headers={"HX-Request": "true"})
    html = cell.content.decode()
    assert cell.status_code == 200 and html.lstrip().startswith(f'<td class="grade-cell" id="cell-{assignment.pk}-')
    assert 'value="87.5"' in html and "Good &lt;b&gt;work&lt;/b&gt;" in html and "<b>work" not in html
    grade = Grade.objects.get(assignment=assignment, student=ann)
    assert float(grade.grade) == 87.5 and grade.feedback == "Good <b>work</b>" and grade.graded_by.username == "prof"
    refused = client.post(url, {"grade": "101", "feedback": "x"}, headers={"HX-Request": "true"})
    assert "a number from 0 to 100" in refused.content.decode() and 'value="101"' in refused.content.decode()
    assert float(Grade.objects.get(pk=grade.pk).grade) == 87.5
    assert client.post(url, {"grade": "abc"}).status_code == 400
    blank = client.post(url, {"grade": "", "feedback": "see me"})
    assert blank.status_code == 302 and blank["Location"].endswith(f"#cell-{assignment.pk}-{ann.pk}")
    grade.refresh_from_db()
    assert grade.grade is None and grade.feedback == "see me"


def _grade(course: Course, name: str, grade, feedback: str) -> None:
    Grade.objects.create(assignment=course.assignments.get(), student=person(name), grade=grade, feedback=feedback)


def test_the_csv_and_xlsx_downloads_hold_the_rows_with_formulas_as_text(client, course):
    _grade(course, "ann", 90, "=1+1")
    client.force_login(person("prof"))
    response = client.get(reverse("classroom:gradebook_download", args=["civ", "csv"]))
    assert response["Content-Disposition"] == 'attachment; filename="gradebook-civ.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == list(GRADEBOOK_COLUMNS) and GRADEBOOK_COLUMNS[10:] == CAPABILITIES
    by_name = {row["student"]: row for row in rows}
    ann = Attempt.objects.get(student__username="ann")
    assert by_name["ann"]["trial_id"] == str(ann.trial_id) and by_name["ann"]["status"] == "submitted"
    assert by_name["ann"]["submitted_at"] == ann.submitted_at.isoformat()
    assert by_name["ann"]["instructor_grade"] == "90" and by_name["ann"]["feedback"] == "'=1+1"
    assert float(by_name["ann"]["overall"]) == pytest.approx(cells(course)["ann"].overall, abs=1e-4)
    assert by_name["cid"]["trial_id"] == "" and by_name["cid"]["status"] == "not started"
    assert by_name["dan"]["status"] == "late" and by_name["bob"]["overall"] == ""

    workbook = load_workbook(
        io.BytesIO(client.get(reverse("classroom:gradebook_download", args=["civ", "xlsx"])).content)
    )
    sheet = workbook.active
    header, *values = list(sheet.iter_rows(values_only=True))
    assert list(header) == list(GRADEBOOK_COLUMNS)
    xlsx = {row[0]: dict(zip(header, row, strict=True)) for row in values}
    assert xlsx["ann"]["feedback"] == "'=1+1" and sheet.cell(row=2, column=10).data_type == "s"
    assert xlsx["ann"]["instructor_grade"] == 90 and xlsx["ann"]["trial_id"] == ann.trial_id
    assert xlsx["cid"]["overall"] is None and xlsx["dan"]["status"] == "late"
    assert client.get(reverse("classroom:gradebook_download", args=["civ", "pdf"])).status_code == 404


def test_the_gradebook_command_writes_csv_and_xlsx_and_refuses_bad_input(course, tmp_path):
    _grade(course, "dan", None, "+cmd")
    out = StringIO()
    call_command("gradebook", "civ", "--out", str(tmp_path / "book.csv"), stdout=out)
    assert "4 student(s) x 1 assignment(s)" in out.getvalue()
    rows = list(csv.DictReader((tmp_path / "book.csv").open(encoding="utf-8")))
    assert [row["student"] for row in rows] == ["ann", "bob", "cid", "dan"]
    assert rows[3]["feedback"] == "'+cmd" and rows[3]["instructor_grade"] == ""
    call_command("gradebook", "civ", "--out", str(tmp_path / "book.xlsx"), stdout=StringIO())
    sheet = load_workbook(tmp_path / "book.xlsx").active
    assert [row[0] for row in sheet.iter_rows(values_only=True)] == ["student", "ann", "bob", "cid", "dan"]
    with pytest.raises(CommandError, match="no course 'nope'"):
        call_command("gradebook", "nope", "--out", str(tmp_path / "x.csv"))
    with pytest.raises(CommandError, match=r"\.csv or \.xlsx"):
        call_command("gradebook", "civ", "--out", str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.csv").exists() and not (tmp_path / "x.pdf").exists()


@pytest.mark.parametrize("who", ["ann", "other-prof", "stranger"])
def test_only_the_course_instructors_reach_the_gradebook(client, course, who):
    if who == "other-prof":
        course_create(slug="crim", title="Criminal", instructor=person(who, Role.INSTRUCTOR))
    user = person(who, Role.STUDENT if who != "other-prof" else Role.INSTRUCTOR)
    client.force_login(user)
    assignment, ann = course.assignments.get(), person("ann")
    urls = [
        ("get", reverse("classroom:gradebook", args=["civ"])),
        ("get", reverse("classroom:gradebook_download", args=["civ", "csv"])),
        ("post", reverse("classroom:gradebook_attempt", args=["civ"])),
        ("post", reverse("classroom:grade_save", args=["civ", assignment.pk, ann.pk])),
    ]
    expected = 404 if who == "other-prof" else 403
    assert [getattr(client, method)(url, {"grade": "1"}).status_code for method, url in urls] == [expected] * 4
    assert not Grade.objects.exists()


def test_a_grade_for_someone_not_enrolled_or_another_course_is_a_404(client, course):
    client.force_login(person("prof"))
    other = course_create(slug="crim", title="Criminal", instructor=person("prof"))
    stranger = person("eve", Role.STUDENT)
    course_enrol(course=other, usernames=["eve"])
    assignment = course.assignments.get()
    assert client.post(reverse("classroom:grade_save", args=["civ", assignment.pk, stranger.pk])).status_code == 404
    assert client.post(reverse("classroom:grade_save", args=["crim", assignment.pk, stranger.pk])).status_code == 404


def test_the_class_view_plots_the_scores_ranks_the_points_missed_and_names_who_has_not_started(client, course):
    assignment = course.assignments.get()
    finished = [cell for cell in cells(course).values() if cell.overall is not None]
    missed_by: dict[str, set[str]] = {}
    for cell in finished:
        for item in cell.score.result["items"]:
            for point in item["missing"]:
                missed_by.setdefault(point, set()).add(cell.student.username)
    assert missed_by, "the demo case's consultation leaves reference points unraised"
    client.force_login(course.instructors.get())
    page = client.get(reverse("classroom:class_view", args=[course.slug, assignment.pk])).content.decode()
    distribution = page[page.index('id="distribution"') : page.index('id="missed"')]
    assert f"{len(finished)} of 4 students finished" in distribution
    bars = [int(count) for count in re.findall(r"<title>[0-9.]+-[0-9.]+: (\d+)</title>", distribution)]
    assert len(bars) == 10 and sum(bars) == len(finished), "a bar per tenth, every finished student in one"
    missed = page[page.index('id="missed"') : page.index('id="not-started"')]
    most = max(missed_by.values(), key=len)
    top = next(point for point, names in missed_by.items() if names == most)
    assert escape(top) in missed and f"{len(most)} of {len(finished)}" in missed
    not_started = page[page.index('id="not-started"') :]
    assert "cid" in not_started and "bob" not in not_started and "ann" not in not_started


def test_the_class_view_of_an_assignment_nobody_finished_says_so(client, course):
    other = course.assignments.create(
        case_id=CASE, title="Later", seats=["plaintiff_lawyer"], stages=["LC"], opens_at=timezone.now()
    )
    client.force_login(course.instructors.get())
    page = client.get(reverse("classroom:class_view", args=[course.slug, other.pk])).content.decode()
    assert "No finished attempt yet" in page and "<svg" not in page
    for name in ("ann", "bob", "cid", "dan"):
        assert name in page[page.index('id="not-started"') :]


def test_a_refused_attempt_choice_is_named_once_and_cut_short(client, course):
    client.force_login(person("prof"))
    url = reverse("classroom:gradebook_attempt", args=["civ"])
    response = client.post(url, {"attempt": "MARKER"})
    assert response.status_code == 400
    assert response.content.decode().count("MARKER") == 1, "the error is the page's, not every cell's"
    huge = client.post(url, {"attempt": "Z" * 300_000})
    assert huge.status_code == 400 and len(huge.content) < 100_000
    assert "Z" * 40 + "…" in huge.content.decode()


@pytest.mark.parametrize("student", ["abc", "1e3", "-1", "999999"])
def test_a_release_or_extension_for_a_student_id_that_is_no_enrolled_student_is_refused_not_a_500(
    client, course, student: str
):
    client.force_login(person("prof"))
    assignment = course.assignments.get()
    release = client.post(reverse("classroom:grades_release", args=["civ", assignment.pk]), {"student": student})
    assert release.status_code == 404
    extension = client.post(
        reverse("classroom:assignment_extension", args=["civ", assignment.pk]),
        {"student": student, "due_at": "2030-01-01T10:00"},
    )
    assert extension.status_code == 400 and "choose an enrolled student" in extension.content.decode()
    assert not Grade.objects.exists()
