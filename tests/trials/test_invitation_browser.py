"""The room's invitation form in chromium: a refusal shows where the link would, and the
link fits a phone's width."""

from __future__ import annotations

import pytest
from channels.testing import ChannelsLiveServerTestCase

from legalsim.roles import Role
from tests.browser import CHROMIUM, PHONE, LiveRoomServer, WithChromium, page_logged_in
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_create

CASE = "en-civil-traffic-accident"
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")


class TestInvitationForm(WithChromium, LiveRoomServer, ChannelsLiveServerTestCase):
    host = "127.0.0.1"
    serve_static = True
    tokens_per_s = 5

    def test_a_student_on_a_phone_sees_why_no_link_and_then_a_link_that_fits(self) -> None:
        cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
        student = person("student", Role.STUDENT, password="a-demo-password-1")
        person("classmate", Role.STUDENT)
        trial = trial_create(live=True, case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": student})
        page = page_logged_in(self.browser, self.live_server_url, "student", "a-demo-password-1")
        page.set_viewport_size(PHONE)
        page.goto(f"{self.live_server_url}/trials/{trial.pk}/")
        width = page.evaluate("document.documentElement.scrollWidth")
        page.fill("input[name=username]", "nobody")
        page.click("text=Make an invitation link")
        assert "No invitation was made:" in page.inner_text("#invitation-error"), "the refusal shows"
        page.fill("input[name=username]", "classmate")
        page.select_option("select[name=seat]", "plaintiff_client")
        page.click("text=Make an invitation link")
        label = page.inner_text("#invitation-link label")
        assert "the seat Plaintiff (the client)" in label and "plaintiff_client" not in label
        assert f"/trials/{trial.pk}/invitations/" in page.input_value("#invitation-url")
        assert page.evaluate("document.documentElement.scrollWidth") <= max(width, PHONE["width"]), "no wider"
        assert (
            page.locator("#invitation-url").bounding_box()["x"]
            + page.locator("#invitation-url").bounding_box()["width"]
            <= PHONE["width"]
        )
        page.close()
