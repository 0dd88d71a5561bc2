"""Classroom pages in a real browser (Debian's chromium through Playwright) that need no
trial played live: attempts are played to their end by scripted agents before the browser
opens the pages, at a desk's width (1366 px) and a phone's (390 px)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase
from django.utils import timezone

from classroom.assignments import assignment_create, assignment_start
from classroom.models import Assignment, Attempt
from classroom.services import course_create, course_enrol
from legalsim.roles import Role
from scoring.scorers import RuleBasedScorer
from scoring.selectors import player_seat
from scoring.services import trial_score
from tests.browser import CHROMIUM, PHONE, WithChromium, screenshot
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_continue

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"
CIVIL = "en-civil-traffic-accident"
CRIMINAL = "en-criminal-telecom-fraud"
DESK = {"width": 1366, "height": 900}


class ClassroomPagesInTheBrowser(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        cases_import(paths=[DEMO_CASES / f"{CIVIL}.json", DEMO_CASES / f"{CRIMINAL}.json"])
        self.prof = person("ines", Role.INSTRUCTOR, password=PASSWORD)
        self.sam = person("sam", Role.STUDENT, password=PASSWORD)
        self.course = course_create(slug="civpro", title="Civil Procedure", instructor=self.prof)
        course_enrol(course=self.course, usernames=["sam"])

    # Helpers

    def page_for(self, username: str, *, timezone_id: str | None = None, width: dict | None = None):
        context = self.browser.new_context(viewport=width or DESK, timezone_id=timezone_id)
        self.addCleanup(context.close)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{self.live_server_url}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        return page

    def finished_attempt(self, **kwargs) -> Attempt:
        """An attempt played to its end and scored, away from this thread's event loop
        (Playwright's, in which the engine's broadcasts could not run)."""
        with ThreadPoolExecutor(max_workers=1) as pool:
            return pool.submit(self._finished_attempt, **kwargs).result()

    def _finished_attempt(self, *, title: str = "Consultation", stages: tuple[str, ...] = ("LC",)) -> Attempt:
        assignment = assignment_create(
            course=self.course,
            case=Case.objects.get(pk=CIVIL),
            seats=["plaintiff_lawyer"],
            stages=list(stages),
            opens_at=timezone.now() - timedelta(days=1),
            due_at=timezone.now() + timedelta(days=6),
            title=title,
        )
        attempt = assignment_start(assignment=assignment, student=self.sam)
        trial_continue(trial=attempt.trial)
        attempt.refresh_from_db()
        trial_score(trial=attempt.trial, scorer=RuleBasedScorer(), seat=player_seat(attempt.trial, self.sam))
        return attempt

    def no_sideways_scroll(self, page, what: str) -> None:
        """Nothing sticks out of the page: it scrolls down, never sideways (a wide table
        scrolls inside its own box)."""
        widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], f"{what}: the page is {widths[0]} px wide in a {widths[1]} px window"

    def nothing_cut_off(self, page, selector: str, what: str) -> None:
        """Every column of the tables in ``selector`` shows without scrolling their box."""
        hidden = page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
                .filter((box) => box.scrollWidth > box.clientWidth + 1)
                .map((box) => `${box.scrollWidth} px in ${box.clientWidth} px`)""",
            selector,
        )
        assert not hidden, f"{what}: a table sticks out of its box ({hidden})"

    # Item 12: My scorecards

    def test_my_scorecards_fit_a_desk_and_a_phone(self) -> None:
        self.finished_attempt(title="Consultation")
        self.finished_attempt(title="Complaint", stages=("CD",))
        page = self.page_for("sam")
        page.goto(f"{self.live_server_url}/scorecards/")
        assert page.locator(".scorecard-case tbody tr").count() >= 2
        for width, name in ((DESK, "scorecards"), (PHONE, "scorecards-phone")):
            page.set_viewport_size(width)
            self.no_sideways_scroll(page, f"My scorecards at {width['width']} px")
            self.nothing_cut_off(page, ".scorecard-case .table-scroll", f"My scorecards at {width['width']} px")
            screenshot(page, name)

    # Item 5: grades and feedback reach the student

    def test_the_instructor_grades_and_releases_and_the_student_reads_grade_and_feedback(self) -> None:
        attempt = self.finished_attempt(title="Consultation")
        teacher = self.page_for("ines")
        teacher.goto(f"{self.live_server_url}/teaching/courses/civpro/gradebook/")
        cell = teacher.locator("tr[data-student=sam] td.grade-cell")
        cell.locator("input[name=grade]").fill("85")
        cell.locator("textarea[name=feedback]").fill("Ask about the medical bills before the liability.")
        cell.locator("button:has-text('Save')").click()
        teacher.wait_for_selector(
            "tr[data-student=sam] td.grade-cell :text('not released: the student does not see it')"
        )

        student = self.page_for("sam")
        student.goto(f"{self.live_server_url}/assignments/")
        assert student.locator("#feedback-unread").count() == 0, "nothing is announced before the release"
        assert "85" not in student.text_content(f"#assignment-{attempt.assignment_id} td.grade")
        student.goto(f"{self.live_server_url}/assignments/{attempt.assignment_id}/")
        assert "Not released yet" in student.text_content("#grade")

        teacher.click("th button:has-text('Release the saved grades')")
        teacher.wait_for_selector("tr[data-student=sam] .released:has-text('not seen yet')")
        screenshot(teacher, "gradebook-released", phone=True)

        student.goto(f"{self.live_server_url}/assignments/")
        assert student.text_content("#feedback-unread") == "1", "the release is announced as a comment is"
        row = student.locator(f"#assignment-{attempt.assignment_id}")
        assert "85" in row.locator("td.grade").text_content() and row.locator("td.grade .badge").count() == 1
        screenshot(student, "my-assignments-graded", phone=True)
        row.locator("td.grade a").click()
        student.wait_for_url(f"**/assignments/{attempt.assignment_id}/#grade")
        assert student.text_content("#grade-value") == "85"
        assert student.text_content("#grade-feedback") == "Ask about the medical bills before the liability."
        screenshot(student, "my-assignment-grade", phone=True)
        student.reload()
        assert student.locator("#feedback-unread").count() == 0, "read: the notice goes"
        teacher.reload()
        assert teacher.locator("tr[data-student=sam] .released:has-text('the student has seen it')").count() == 1

    # Item 10: the assignment form, its errors, time zones, Watch

    def test_the_assignment_form_offers_the_cases_stages_by_name_and_keeps_what_was_typed(self) -> None:
        page = self.page_for("ines")
        page.goto(f"{self.live_server_url}/teaching/courses/civpro/")
        form = page.locator("#assignment-form")
        form.locator("select[name=case]").select_option(CIVIL)
        for fieldset in form.locator("fieldset[data-procedure=criminal]").all():
            assert fieldset.is_hidden(), "only the civil case's seats and stages show"
        assert not form.get_by_label("Public prosecutor").is_visible()
        form.get_by_label("First-instance trial").check()
        form.get_by_label("Second-instance trial").check()
        form.locator("input[name=title]").fill("Liability hearing")
        form.locator("input[name=attempts]").fill("2")
        form.locator("button[type=submit]").click()  # no seat ticked

        error = page.locator("#error-seats")
        assert "choose the seat(s) students play" in error.text_content()
        seats_box = page.locator("fieldset.seats[data-procedure=civil]").bounding_box()
        error_box = error.bounding_box()
        assert 0 <= error_box["y"] - (seats_box["y"] + seats_box["height"]) < 40, "the error is beside the seats"
        assert page.locator("input[name=title]").input_value() == "Liability hearing", "what was typed is kept"
        assert page.locator("input[name=attempts]").input_value() == "2"
        assert page.get_by_label("First-instance trial").is_checked()
        assert page.get_by_label("Second-instance trial").is_checked()
        screenshot(page, "assignment-form-error", phone=True)

        page.get_by_label("Counsel for the plaintiff").check()
        page.locator("#assignment-form button[type=submit]").click()
        assert "Assigned Liability hearing." in page.text_content("#messages")
        assignment = Assignment.objects.get()
        assert (assignment.stages, assignment.seats, assignment.attempts_allowed) == (
            ["FIT", "SIT"],
            ["plaintiff_lawyer"],
            2,
        )

    def test_a_student_reads_the_due_date_in_her_own_time_zone(self) -> None:
        due = timezone.now().replace(microsecond=0) + timedelta(days=3)
        due = due.replace(hour=15, minute=30, second=0)  # 15:30 UTC is 23:30 in Shanghai
        assignment_create(
            course=self.course, case=Case.objects.get(pk=CIVIL), seats=["judge"], due_at=due, title="Presiding"
        )
        page = self.page_for("sam", timezone_id="Asia/Shanghai")
        page.goto(f"{self.live_server_url}/assignments/")
        shown = page.text_content("td.due time")
        assert "11:30" in shown and "p.m." in shown and "GMT+8" in shown, shown
        assert "3:30" in page.get_attribute("td.due time", "title") and "UTC" in page.get_attribute(
            "td.due time", "title"
        ), "the server's time, its zone named, on hover"
        screenshot(page, "my-assignments-time-zone", phone=True)

    def test_the_instructor_watches_an_attempt_in_progress_with_one_click(self) -> None:
        assignment = assignment_create(
            course=self.course, case=Case.objects.get(pk=CIVIL), seats=["plaintiff_lawyer"], title="Live"
        )
        attempt = assignment_start(assignment=assignment, student=self.sam)
        page = self.page_for("ines")
        page.goto(f"{self.live_server_url}/teaching/courses/civpro/")
        page.click(f"#assignment-{assignment.pk} summary")
        screenshot(page, "course-assignment", phone=True)
        page.click(f"#assignment-{assignment.pk} a:has-text('Delete…')")
        assert "Its 1 attempt by 1 student leaves the gradebook" in page.text_content("#confirm")
        screenshot(page, "assignment-delete-confirm", phone=True)
        page.click("#confirm a:has-text('Cancel')")
        page.click(f"#assignment-{assignment.pk} summary")
        page.click(f"#assignment-{assignment.pk} tr[data-student=sam] a.watch")
        page.wait_for_url(f"**/trials/{attempt.trial_id}/")
        page.goto(f"{self.live_server_url}/teaching/courses/civpro/gradebook/")
        assert page.get_attribute("tr[data-student=sam] a.watch", "href") == f"/trials/{attempt.trial_id}/"
