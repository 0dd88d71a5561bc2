"""The classroom commands on a fresh database (README, "Commands"): what they
store, and that bad input stores nothing, says why and exits non-zero."""

from __future__ import annotations

from datetime import UTC, datetime
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from classroom.models import Assignment, Course, Enrolment
from legalsim.roles import Ability, Role, can
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.services import cases_import

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _run_failing(*args: str, match: str | None = None) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match=match):
        call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def course() -> Course:
    person("prof")
    run("course_create", "civ-101", "--title", "Civil procedure", "--instructor", "prof")
    return Course.objects.get(slug="civ-101")


def test_course_create_makes_the_user_its_instructor(course):
    prof = get_user_model().objects.get(username="prof")
    assert list(course.instructors.all()) == [prof]
    assert course.title == "Civil procedure"
    assert can(prof, Ability.TEACH)
    assert len(course.invite_code) == 8


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["civ-101", "--title", "Again", "--instructor", "prof"], "exists already"),
        (["new", "--title", "T", "--instructor", "nobody"], "no user 'nobody'"),
        (["not a slug", "--title", "T", "--instructor", "prof"], "slug"),
        (["blank", "--title", "  ", "--instructor", "prof"], "title"),
    ],
)
def test_course_create_refuses_bad_input_and_stores_nothing(course, args, message):
    with pytest.raises(CommandError, match=message):
        run("course_create", *args)
    assert Course.objects.count() == 1


def test_course_enrol_by_username_makes_them_students(course):
    for name in ("ann", "bob"):
        person(name)
    out, _ = run("course_enrol", "civ-101", "ann", "bob")
    assert "enrolled 2" in out
    assert sorted(course.enrolments.values_list("user__username", flat=True)) == ["ann", "bob"]
    assert can(get_user_model().objects.get(username="ann"), Ability.PLAY)
    out, _ = run("course_enrol", "civ-101", "ann")
    assert "1 already enrolled" in out


def test_course_enrol_with_an_unknown_username_enrols_nobody(course):
    person("ann")
    with pytest.raises(CommandError, match=r"no such user.*ghost"):
        run("course_enrol", "civ-101", "ann", "ghost")
    assert not Enrolment.objects.exists()


def test_a_roster_creates_accounts_whose_link_sets_a_password(course, tmp_path):
    person("ann", Role.STUDENT)
    roster = tmp_path / "roster.csv"
    roster.write_text("username,email,full_name\nann,ann@example.org,Ann A\ncarl,carl@example.org,Carl Chen\n")
    out, _ = run("course_enrol", "civ-101", "--csv", str(roster))
    assert "enrolled 2" in out
    carl = get_user_model().objects.get(username="carl")
    assert (carl.email, carl.first_name, carl.last_name) == ("carl@example.org", "Carl", "Chen")
    assert not carl.has_usable_password()
    link = next(line.split(" at ")[1] for line in out.splitlines() if line.startswith("new account carl"))
    assert "ann" not in [line.split()[2] for line in out.splitlines() if line.startswith("new account")]
    client = Client()
    form = client.get(link, follow=True)
    assert form.status_code == 200
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "Tr1al-by-jury", "new_password2": "Tr1al-by-jury"})
    assert done.status_code == 302
    assert client.login(username="carl", password="Tr1al-by-jury")


def test_a_roster_with_bad_rows_stores_nothing_and_names_every_bad_row(course, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "username,email,full_name\n"
        "dora,dora@example.org,Dora D\n"
        "bad name,x@example.org,Bad\n"
        "eve,not-an-email,Eve\n"
        "dora,dora2@example.org,Dora again\n"
        "frank,,Frank\n"
    )
    _, err = _run_failing("course_enrol", "civ-101", "--csv", str(roster), match="4 problem")
    assert err.splitlines() == [
        f"{roster}:3: username: 'bad name': letters, digits and @ . + - _ only",
        f"{roster}:4: email: 'not-an-email' is not an email address",
        f"{roster}:5: username: 'dora' is on line 2 already",
        f"{roster}:6: email: a new account needs an email address",
    ]
    assert not Enrolment.objects.exists()
    assert not get_user_model().objects.filter(username="dora").exists()


def test_a_roster_without_the_columns_is_refused_at_its_header(course, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("user,mail\nann,a@example.org\n")
    _, err = _run_failing("course_enrol", "civ-101", "--csv", str(roster))
    assert err.strip() == f"{roster}:1: header: missing column(s): username, email, full_name"


def test_course_enrol_needs_usernames_or_a_roster_and_a_known_course(course, tmp_path):
    with pytest.raises(CommandError, match="one of the two"):
        run("course_enrol", "civ-101")
    with pytest.raises(CommandError, match="no course 'nope'"):
        run("course_enrol", "nope", "ann")
    with pytest.raises(CommandError, match="no such file"):
        run("course_enrol", "civ-101", "--csv", str(tmp_path / "missing.csv"))


@pytest.fixture
def cases():
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])


def test_assignment_create_stores_seats_stages_due_and_attempts(course, cases):
    out, _ = run(
        "assignment_create", "civ-101", "--case", CASE, "--seats", "plaintiff_lawyer",
        "--stages", "FIT", "--due", "2030-06-01T23:59+08:00", "--attempts", "2",
    )  # fmt: skip
    assignment = Assignment.objects.get()
    assert (assignment.seats, assignment.stages, assignment.attempts_allowed, assignment.paired) == (
        ["plaintiff_lawyer"],
        ["FIT"],
        2,
        False,
    )
    assert assignment.due_at == datetime(2030, 6, 1, 15, 59, tzinfo=UTC)
    assert assignment.title == assignment.case.title
    assert f"assignment {assignment.pk} in civ-101" in out


def test_a_paired_assignment_names_two_opposing_seats(course, cases):
    run("assignment_create", "civ-101", "--case", CASE, "--seats", "plaintiff_lawyer,defendant_lawyer", "--paired")
    assert Assignment.objects.get().paired
    with pytest.raises(CommandError, match="opposite sides"):
        run("assignment_create", "civ-101", "--case", CASE, "--seats", "plaintiff_lawyer,plaintiff_client", "--paired")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--case", "no-such-case", "--seats", "judge"], "no case 'no-such-case'"),
        (["--case", CASE, "--seats", "prosecutor"], "prosecutor cannot be played in a civil case"),
        (["--case", CASE, "--seats", "stenographer"], "cannot be played"),
        (["--case", CASE, "--seats", "judge", "--stages", "FIT,XYZ"], "stages: a civil case has no stage XYZ"),
        (["--case", CASE, "--seats", "judge", "--stages", "SIT,FIT"], "in the procedure's order"),
        (["--case", CASE, "--seats", "judge", "--due", "next friday"], "--due: 'next friday' is not an ISO date"),
        (["--case", CASE, "--seats", "judge", "--due", "2030-06-01T23:59"], "due: give a time zone"),
        (["--case", CASE, "--seats", "judge", "--due", "2001-01-01T00:00Z"], "due date comes after"),
        (["--case", CASE, "--seats", "judge", "--attempts", "0"], "attempts: at least 1"),
    ],
)
def test_assignment_create_refuses_bad_input_and_stores_nothing(course, cases, args, message):
    with pytest.raises(CommandError, match=message):
        run("assignment_create", "civ-101", *args)
    assert not Assignment.objects.exists()


def test_assignment_create_for_a_course_that_does_not_exist(cases):
    with pytest.raises(CommandError, match="no course 'ghost'"):
        run("assignment_create", "ghost", "--case", CASE, "--seats", "judge")


def test_a_rater_named_by_the_command_is_enrolled_only_as_student_anyway(course, tmp_path):
    """Issue #31, item 14: a rater became a student without anyone being told."""
    person("rita", Role.RATER)
    with pytest.raises(CommandError, match="rita is a rater, not a student; nobody was enrolled"):
        run("course_enrol", "civ-101", "rita")
    roster = tmp_path / "roster.csv"
    roster.write_text("username,email,full_name\nrita,,\n")
    _, err = _run_failing("course_enrol", "civ-101", "--csv", str(roster), match="1 problem")
    assert err.strip() == f"{roster}:2: username: 'rita' is a rater, not a student: tick “enrol as student anyway”"
    assert not Enrolment.objects.exists()
    out, _ = run("course_enrol", "civ-101", "--csv", str(roster), "--as-student-anyway")
    assert "civ-101: enrolled 1" in out and can(get_user_model().objects.get(username="rita"), Ability.PLAY)
