"""An instructor's course forms in a real browser (Debian's chromium through Playwright): the
new course's short name is checked before it is sent, with a pattern chromium compiles (it
compiles ``pattern`` with the ``v`` flag), and enrolling lands back on the course page, where
a reload enrols nobody again."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from classroom.models import Course
from classroom.services import course_create
from legalsim.roles import Role
from tests.browser import CHROMIUM, WithChromium, page_logged_in
from tests.users import person

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"


class CourseFormsInTheBrowser(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        self.prof = person("ines", Role.INSTRUCTOR, password=PASSWORD)
        self.page = page_logged_in(self.browser, self.live_server_url, "ines", PASSWORD, timeout_ms=30_000)
        self.addCleanup(self.page.close)
        self.console: list[str] = []
        self.page.on("console", lambda message: self.console.append(message.text))

    def test_the_short_name_pattern_compiles_and_refuses_a_bad_slug_before_sending(self) -> None:
        page = self.page
        page.goto(f"{self.live_server_url}/teaching/courses/")
        slug = page.locator("input[name=slug]")
        page.fill("input[name=title]", "Civil Procedure Clinic")
        slug.fill("civil clinic!")
        assert slug.evaluate("input => input.validity.patternMismatch"), "the browser checks the pattern"
        page.click("main button[type=submit]")
        assert page.url == f"{self.live_server_url}/teaching/courses/", "nothing was sent"
        assert not Course.objects.exists()
        slug.fill("civil-clinic_2026")
        assert slug.evaluate("input => input.checkValidity()")
        page.click("main button[type=submit]")
        page.wait_for_url("**/teaching/courses/civil-clinic_2026/")
        assert not [text for text in self.console if "pattern" in text.lower()], self.console

    def test_enrolling_lands_on_the_course_page_and_a_reload_enrols_nobody_again(self) -> None:
        course = course_create(slug="civpro", title="Civil Procedure", instructor=self.prof, language="en")
        person("sam", Role.STUDENT)
        page = self.page
        page.goto(f"{self.live_server_url}/teaching/courses/civpro/")
        page.fill("input[name=usernames]", "sam ghost")
        page.click("#roster button:has-text('Enrol')")
        assert "no such user(s): ghost" in page.text_content("#problems")
        assert page.input_value("input[name=usernames]") == "sam ghost", "what was typed is kept"

        page.fill("input[name=usernames]", "sam")
        page.click("#roster button:has-text('Enrol')")
        page.wait_for_url("**/teaching/courses/civpro/#roster")
        assert page.text_content("#messages").strip() == "Enrolled 1."
        page.reload()
        assert page.locator("#messages").count() == 0, "a reload shows the page, not the enrolment again"
        assert course.enrolments.count() == 1
