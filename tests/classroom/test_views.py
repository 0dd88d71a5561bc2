"""The classroom pages as an instructor and a student use them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from classroom.assignments import assignment_create
from classroom.models import Attempt, Course
from legalsim.roles import Ability, Role, can
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import

pytestmark = pytest.mark.django_db
CASE = "en-civil-traffic-accident"


@pytest.fixture
def prof(client):
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    client.force_login(person("prof", Role.INSTRUCTOR))
    response = client.post(reverse("classroom:courses"), {"title": "Civil procedure", "slug": "civ", "language": "en"})
    assert response.status_code == 302 and response["Location"] == reverse("classroom:course", args=["civ"])
    return Course.objects.get(slug="civ")


def text(response) -> str:
    return response.content.decode()


def test_an_instructor_lists_only_the_courses_they_teach(client, prof):
    assert "Civil procedure" in text(client.get(reverse("classroom:courses")))
    client.force_login(person("other-prof", Role.INSTRUCTOR))
    assert "Civil procedure" not in text(client.get(reverse("classroom:courses")))
    assert client.get(reverse("classroom:course", args=["civ"])).status_code == 404
    taken = client.post(reverse("classroom:courses"), {"title": "Again", "slug": "civ"})
    assert taken.status_code == 400 and "exists already" in text(taken)


def test_a_roster_with_bad_rows_shows_every_row_and_enrols_nobody(client, prof):
    roster = SimpleUploadedFile("week1.csv", b"username,email,full_name\nann,ann@example.org,Ann\nb b,x@y.z,B\nc,,C\n")
    page = client.post(reverse("classroom:course_roster", args=["civ"]), {"roster": roster})
    assert page.status_code == 400
    assert "week1.csv:3: username: &#x27;b b&#x27;: letters, digits and @ . + - _ only" in text(page)
    assert "week1.csv:4: email: a new account needs an email address" in text(page)
    assert not prof.enrolments.exists()


def test_a_roster_enrols_everyone_and_shows_the_new_accounts_links(
    client, prof, tasks_in_process, django_capture_on_commit_callbacks
):
    person("ann", Role.STUDENT)
    roster = SimpleUploadedFile(
        "r.csv", b"username,email,full_name\nann,ann@example.org,Ann\ncy,cy@example.org,Cy Young\n"
    )
    with django_capture_on_commit_callbacks(execute=True):
        sent = client.post(reverse("classroom:course_roster", args=["civ"]), {"roster": roster})
    job = prof.roster_jobs.get()
    assert sent.status_code == 302 and sent["Location"] == reverse("classroom:roster_job", args=["civ", job.pk])
    page = text(client.get(sent["Location"]))
    assert "Enrolled 2 from r.csv; 1 new account(s)." in page
    [link] = re.findall(r"<td>cy</td><td><code>(http://testserver/accounts/reset/[^<]+)</code>", page)
    assert sorted(prof.enrolments.values_list("user__username", flat=True)) == ["ann", "cy"]
    assert not get_user_model().objects.get(username="cy").has_usable_password()
    client.logout()
    assert client.get(link.removeprefix("http://testserver"), follow=True).status_code == 200


def test_a_student_joins_with_the_code_and_starts_then_continues_the_assignment(client, prof):
    client.post(
        reverse("classroom:assignment_create", args=["civ"]),
        {"case": CASE, "seats": ["plaintiff_lawyer"], "stages": "LC", "due_at": "2030-01-01T12:00", "attempts": "1"},
    )
    [assignment] = prof.assignments.all()
    assert assignment.stages == ["LC"] and assignment.due_at.year == 2030
    ann = person("ann", Role.STUDENT)
    client.force_login(ann)
    assert "No assignment yet" in text(client.get(reverse("classroom:my_assignments")))
    wrong = client.post(reverse("classroom:my_courses"), {"code": "NOPE1234"})
    assert wrong.status_code == 400 and "no course has this invite code" in text(wrong)
    joined = client.post(reverse("classroom:my_courses"), {"code": prof.invite_code}, follow=True)
    assert "You joined civ" in text(joined) and "Civil procedure" in text(joined)
    listing = text(client.get(reverse("classroom:my_assignments")))
    assert 'data-status="not started"' in listing and ">Start</button>" in listing
    started = client.post(reverse("classroom:assignment_start", args=[assignment.pk]))
    trial = Trial.objects.get()
    assert started["Location"] == reverse("trials:trial_room", args=[trial.pk])
    assert client.get(started["Location"]).status_code == 200
    listing = text(client.get(reverse("classroom:my_assignments")))
    assert 'data-status="in progress"' in listing and f'href="/trials/{trial.pk}/">Continue</a>' in listing
    client.force_login(person("prof"))
    assert client.get(reverse("trials:trial_transcript", args=[trial.pk])).status_code == 200, "the course's trial"
    course_page = text(client.get(reverse("classroom:course", args=["civ"])))
    assert "<td>ann</td><td>in progress</td>" in course_page
    assert Attempt.objects.get().student == ann


def test_an_assignment_form_with_a_bad_seat_says_so_and_assigns_nothing(client, prof):
    page = client.post(reverse("classroom:assignment_create", args=["civ"]), {"case": CASE, "seats": ["prosecutor"]})
    assert page.status_code == 400 and "prosecutor cannot be played in a civil case" in text(page)
    assert not prof.assignments.exists()


def test_a_student_of_another_course_cannot_start_its_assignment(client, prof):
    client.post(reverse("classroom:assignment_create", args=["civ"]), {"case": CASE, "seats": ["judge"]})
    client.force_login(person("mallory", Role.STUDENT))
    assignment = prof.assignments.get()
    assert client.post(reverse("classroom:assignment_start", args=[assignment.pk])).status_code == 404
    assert not Trial.objects.exists()


def test_co_instructors_and_a_new_invite_code(client, prof):
    person("second", Role.INSTRUCTOR)
    page = text(
        client.post(reverse("classroom:course_instructor_add", args=["civ"]), {"username": "second"}, follow=True)
    )
    assert "second teaches this course too." in page
    old = prof.invite_code
    client.post(reverse("classroom:course_invite_code", args=["civ"]))
    prof.refresh_from_db()
    assert prof.invite_code != old
    client.force_login(person("second"))
    assert client.get(reverse("classroom:course", args=["civ"])).status_code == 200


def test_an_instructor_pairs_the_class_on_the_course_page_and_both_students_meet_in_one_room(client, prof):
    for name in ("ann", "bob"):
        person(name, Role.STUDENT)
    client.post(reverse("classroom:course_enrol", args=["civ"]), {"usernames": "ann bob"})
    assignment = assignment_create(
        course=prof, case=Case.objects.get(pk=CASE), seats=["plaintiff_lawyer", "defendant_lawyer"], paired=True
    )
    course_page = text(client.get(reverse("classroom:course", args=["civ"])))
    assert "Nobody is paired yet" in course_page
    paired = client.post(reverse("classroom:assignment_pairs", args=["civ", assignment.pk]), follow=True)
    assert "1 new pair(s)" in text(paired) and "ann v. bob" in text(paired)
    refused = client.post(
        reverse("classroom:assignment_pairs", args=["civ", assignment.pk]), {"first": "ann", "second": "bob"}
    )
    assert refused.status_code == 400 and "already paired: ann, bob" in text(refused)

    rooms = []
    for name in ("ann", "bob"):
        client.force_login(person(name))
        started = client.post(reverse("classroom:assignment_start", args=[assignment.pk]))
        rooms.append(started["Location"])
    assert rooms[0] == rooms[1], "the pair meet in one trial"


def test_enrolling_a_rater_or_an_instructor_is_refused_naming_their_role_unless_confirmed(client, prof):
    """Issue #31, item 14: they silently became students."""
    person("rita", Role.RATER)
    person("ivan", Role.INSTRUCTOR)
    person("ann", Role.STUDENT)
    enrol = reverse("classroom:course_enrol", args=["civ"])
    refused = client.post(enrol, {"usernames": "ann rita ivan"})
    assert refused.status_code == 400
    assert "rita is a rater; ivan is an instructor, not a student; nobody was enrolled" in text(refused)
    assert "enrol as student anyway" in text(refused)
    assert not prof.enrolments.exists() and not can(person("rita"), Ability.PLAY)

    roster = SimpleUploadedFile("r.csv", b"username,email,full_name\nann,,\nrita,,\n")
    page = client.post(reverse("classroom:course_roster", args=["civ"]), {"roster": roster})
    assert page.status_code == 400 and "r.csv:3: username: &#x27;rita&#x27; is a rater, not a student" in text(page)
    assert not prof.enrolments.exists()

    confirmed = client.post(enrol, {"usernames": "ann rita ivan", "as_student_anyway": "on"}, follow=True)
    assert "Enrolled 3." in text(confirmed)
    assert can(person("rita"), Ability.PLAY)


def test_e_mail_addresses_on_the_class_view_are_for_the_course_instructors_only(client, prof):
    """Issue #31, item 14: everyone who could open the class view read every address."""
    ann = person("ann", Role.STUDENT)
    ann.email = "ann@uni.example"
    ann.save(update_fields=["email"])
    client.post(reverse("classroom:course_enrol", args=["civ"]), {"usernames": "ann"})
    assignment = assignment_create(course=prof, case=Case.objects.get(pk=CASE), seats=["plaintiff_lawyer"])
    pages = (
        reverse("classroom:class_view", args=["civ", assignment.pk]),
        reverse("classroom:course", args=["civ"]),
    )
    for url in pages:
        assert "ann@uni.example" in text(client.get(url)), url
    admin = person("root", Role.ADMIN)
    client.force_login(admin)
    for url in pages:
        page = text(client.get(url))
        assert "ann" in page and "ann@uni.example" not in page, url
    client.force_login(ann)
    assert client.get(pages[0]).status_code == 403
