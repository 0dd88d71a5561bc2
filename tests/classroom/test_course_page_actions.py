"""What an instructor notices after acting on a course page: an action that worked sends the
browser back to the page (Post/Redirect/Get), so a reload repeats nothing and the success
shows once; a refused enrolment keeps what was typed beside its error. Also the lines that
name an assignment, and the language a new course starts in."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import language_set
from classroom.assignments import assignment_create
from classroom.models import Course, Pair
from classroom.services import course_create, course_enrol
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"
CASE_TITLE = "Liu Fang v. Huang Jun (motor vehicle accident)"


@pytest.fixture
def course(client) -> Course:
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    prof = person("prof", Role.INSTRUCTOR)
    client.force_login(prof)
    return course_create(slug="civ", title="Civil procedure", instructor=prof, language="en")


def course_url(anchor: str = "") -> str:
    return reverse("classroom:course", args=["civ"]) + anchor


def shown_messages(response) -> list[str]:
    """The texts of the site's message list (base.html's ``#messages``)."""
    found = re.search(r'<ul class="messages" id="messages"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    return re.findall(r"<li[^>]*>(.*?)</li>", found.group(1)) if found else []


def test_a_successful_enrolment_redirects_to_the_roster_and_says_so_once(client, course):
    person("ann", Role.STUDENT), person("bob", Role.STUDENT)
    response = client.post(reverse("classroom:course_enrol", args=["civ"]), {"usernames": "ann bob"})
    assert response.status_code == 302 and response["Location"] == course_url("#roster")
    page = client.get(response["Location"])
    assert shown_messages(page) == ["Enrolled 2."]
    assert shown_messages(client.get(course_url())) == [], "a reload shows the message no more"
    assert course.enrolments.count() == 2


def test_a_refused_enrolment_keeps_the_usernames_typed_and_shows_why(client, course):
    person("ann", Role.STUDENT)
    response = client.post(
        reverse("classroom:course_enrol", args=["civ"]), {"usernames": "ann nosuchkid", "as_student_anyway": "on"}
    )
    body = response.content.decode()
    assert response.status_code == 400
    assert "no such user(s): nosuchkid; nobody was enrolled" in body
    field = re.search(r'<input name="usernames"[^>]*>', body).group(0)
    assert 'value="ann nosuchkid"' in field and 'aria-invalid="true"' in field
    assert re.search(r'<input type="checkbox" name="as_student_anyway" checked>', body), "the tick is kept too"
    assert not course.enrolments.exists()


def test_a_case_assigned_redirects_to_its_line_and_a_reload_assigns_nothing_more(client, course):
    response = client.post(
        reverse("classroom:assignment_create", args=["civ"]),
        {"case": CASE, "seats": ["plaintiff_lawyer"], "title": "Liability hearing", "attempts": "1"},
    )
    assignment = course.assignments.get()
    assert response.status_code == 302 and response["Location"] == course_url(f"#assignment-{assignment.pk}")
    assert shown_messages(client.get(response["Location"])) == ["Assigned Liability hearing."]
    assert course.assignments.count() == 1


def test_a_refused_assignment_stays_on_the_form_with_its_error(client, course):
    response = client.post(reverse("classroom:assignment_create", args=["civ"]), {"case": CASE, "title": "Hearing"})
    assert response.status_code == 400 and "choose the seat(s) students play" in response.content.decode()
    assert not course.assignments.exists()


@pytest.mark.parametrize(
    ("route", "data", "anchor", "message"),
    [
        ("classroom:course_invite_code", {}, "#invite", "A new invite code; the old one no longer works."),
        ("classroom:course_instructor_add", {"username": "second"}, "#instructors", "second teaches this course too."),
    ],
)
def test_the_course_settings_redirect_after_they_change(client, course, route, data, anchor, message):
    person("second", Role.INSTRUCTOR)
    response = client.post(reverse(route, args=["civ"]), data)
    assert response.status_code == 302 and response["Location"] == course_url(anchor)
    assert shown_messages(client.get(response["Location"])) == [message]


def test_pairing_and_an_extension_redirect_to_the_assignment(client, course):
    person("ann", Role.STUDENT), person("bob", Role.STUDENT)
    course_enrol(course=course, usernames=["ann", "bob"])
    assignment = assignment_create(
        course=course,
        case=Case.objects.get(pk=CASE),
        seats=["plaintiff_lawyer", "defendant_lawyer"],
        paired=True,
        due_at=timezone.now() + timedelta(days=2),
    )
    paired = client.post(reverse("classroom:assignment_pairs", args=["civ", assignment.pk]))
    assert paired.status_code == 302 and paired["Location"] == course_url(f"#assignment-{assignment.pk}")
    assert Pair.objects.filter(assignment=assignment).count() == 1
    assert shown_messages(client.get(paired["Location"])) == [f"1 new pair(s) on {CASE_TITLE}."]
    later = (timezone.localtime() + timedelta(days=5)).strftime("%Y-%m-%dT%H:%M")
    ann = person("ann")
    extended = client.post(
        reverse("classroom:assignment_extension", args=["civ", assignment.pk]), {"student": ann.pk, "due_at": later}
    )
    assert extended.status_code == 302 and extended["Location"] == course_url(f"#assignment-{assignment.pk}")
    [extension_message] = shown_messages(client.get(extended["Location"]))
    assert extension_message.startswith(f"ann may submit {CASE_TITLE} until")


def test_an_assignment_titled_as_its_case_names_it_once(client, course):
    untitled = assignment_create(course=course, case=Case.objects.get(pk=CASE), seats=["judge"])
    titled = assignment_create(course=course, case=Case.objects.get(pk=CASE), seats=["judge"], title="Presiding")
    body = client.get(course_url()).content.decode()
    summaries = dict(re.findall(r'<details id="assignment-(\d+)">\s*<summary>(.*?)</summary>', body, re.S))
    assert summaries[str(untitled.pk)].count("Liu Fang v. Huang Jun") == 1
    assert "<strong>Presiding</strong> · Liu Fang v. Huang Jun" in summaries[str(titled.pk)]
    for assignment, times in ((untitled, 1), (titled, 1)):
        page = client.get(reverse("classroom:class_view", args=["civ", assignment.pk])).content.decode()
        assert page.split("<h1>", 1)[1].split("<table", 1)[0].count("Liu Fang v. Huang Jun") == times


@pytest.mark.parametrize(("language", "selected"), [("en", "English"), ("zh-hans", "中文")])
def test_a_new_course_starts_in_the_instructors_language(client, language, selected):
    prof = person("prof", Role.INSTRUCTOR)
    language_set(user=prof, language=language)
    client.force_login(prof)
    body = client.get(reverse("classroom:courses")).content.decode()
    assert re.findall(r'<option value="\w+" lang="\w+" selected>([^<]+)</option>', body) == [selected]
    client.post(reverse("classroom:courses"), {"title": "Clinic", "slug": "clinic"})
    assert Course.objects.get(slug="clinic").get_language_display() == selected
