"""Case authoring in a real browser (Debian's chromium through Playwright), as an instructor:
write a case from scratch, fix the field the validators flag, play-test, publish, and
assign it to a course, paired, with a due date."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase
from django.utils import timezone

from classroom.models import Assignment
from classroom.services import course_create, course_enrol
from legalsim.roles import Role
from tests.browser import CHROMIUM, WithChromium, page_logged_in
from tests.trials.test_authoring import FORM
from tests.users import person
from trials.models import Case, Trial

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"


class AuthoringInTheBrowser(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def test_an_instructor_writes_fixes_play_tests_publishes_and_assigns_a_case(self) -> None:
        teacher = person("ines", Role.INSTRUCTOR, password=PASSWORD)
        course = course_create(slug="civpro", title="Civil Procedure", instructor=teacher)
        course_enrol(course=course, usernames=[person(name, Role.STUDENT).username for name in ("sam", "tia")])
        page = page_logged_in(self.browser, self.live_server_url, "ines", PASSWORD)
        page.click("nav >> text=Authoring")
        page.click("text=Write a new case")
        page.select_option("select[name=language]", "en")
        for name, value in FORM.items():
            if name not in ("language", "procedure"):
                page.fill(f"[name='{name}']", value.replace("plaintiff | person | Wang", "plaintif | person | Wang"))
        assert page.is_hidden("fieldset[data-procedure=criminal]"), "only the civil sections show"
        page.click("button[value=playtest]")
        error = page.text_content("#field-parties .field-errors")
        assert "line 1: side: must be one of plaintiff, defendant, got 'plaintif'" in error
        assert page.is_hidden("#playtest"), "an invalid case is not play-tested"
        page.fill("[name=parties]", FORM["parties"])
        page.click("button[value=playtest]")
        page.wait_for_selector("#playtest")
        assert "to the end" in page.text_content("#playtest")
        assert page.locator("#playtest li.turn").count() > 20
        assert not Case.objects.exists() and not Trial.objects.exists()
        page.click("button[value=publish]")
        assert "is in the case library" in page.text_content("main")
        page.goto(f"{self.live_server_url}/teaching/courses/civpro/")
        form = page.locator("form:has(select[name=case])")
        form.locator("select[name=case]").select_option("authored-loan")
        form.locator("input[name=seats][value=plaintiff_lawyer]").check()
        form.locator("input[name=seats][value=defendant_lawyer]").check()
        form.locator("input[name=stages]").fill("FIT")
        due = (timezone.localtime() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
        form.locator("input[name=due_at]").fill(due)
        form.locator("input[name=paired]").check()
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#assignments details")
        assignment = Assignment.objects.get()
        assert assignment.case_id == "authored-loan" and assignment.paired and assignment.due_at is not None
        page.close()
