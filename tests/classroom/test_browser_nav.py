"""The site's navigation on a phone (390 px), in a real browser: every link, Feedback and
its unread badge included, is on the screen, not scrolled off the side of a nav with no cue
(issue 44 item 6)."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from legalsim.roles import Role
from tests.browser import CHROMIUM, PHONE, WithChromium, page_logged_in, screenshot
from tests.users import person

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"
OFF_SCREEN = """() => [...document.querySelectorAll('.site-nav a, .site-nav summary')]
  .filter((link) => { const box = link.getBoundingClientRect(); return box.right > innerWidth || box.left < 0; })
  .map((link) => link.textContent.trim())"""


class NavigationOnAPhone(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def signed_in(self, username: str, role: Role, language: str):
        person(username, role, password=PASSWORD)
        context = self.browser.new_context(viewport=PHONE, locale=language)
        self.addCleanup(context.close)
        return page_logged_in(context, self.live_server_url, username, PASSWORD, timeout_ms=30_000)

    def test_every_link_of_the_nav_is_on_a_phones_screen(self) -> None:
        for username, role, language in (
            ("sam", Role.STUDENT, "en-GB"),
            ("li", Role.STUDENT, "zh-CN"),
            ("ines", Role.INSTRUCTOR, "en-GB"),
        ):
            page = self.signed_in(username, role, language)
            assert page.evaluate(OFF_SCREEN) == [], username
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], username
            screenshot(page, f"nav-{username}-phone")
