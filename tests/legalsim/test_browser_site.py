"""Site-wide pieces in a real browser (Debian's chromium through Playwright): the header on a
desk and a phone, wide tables on a phone, the error pages, the favicon and the dates that
``classroom/local-time.js`` writes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles.testing import StaticLiveServerTestCase
from django.utils import translation
from django.utils.formats import date_format

from legalsim.roles import Role
from tests.browser import CHROMIUM, PHONE, WithChromium
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.services import cases_import

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"
DESK = {"width": 1280, "height": 800}
LOCAL_TIME = Path(settings.BASE_DIR) / "static" / "classroom" / "local-time.js"


class SiteInTheBrowser(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        cases_import(
            paths=[DEMO_CASES / "en-civil-traffic-accident.json", DEMO_CASES / "en-criminal-telecom-fraud.json"]
        )
        person("ines", Role.INSTRUCTOR, password=PASSWORD)
        person("ada", Role.ADMIN, password=PASSWORD)
        person("sam", Role.STUDENT, password=PASSWORD)

    def page_for(self, username: str | None, *, viewport: dict, phone: bool = False):
        context = self.browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
        self.addCleanup(context.close)
        page = context.new_page()
        page.set_default_timeout(30_000)
        if username:
            page.goto(f"{self.live_server_url}/accounts/login/")
            page.fill("#id_username", username)
            page.fill("#id_password", PASSWORD)
            page.click("main button[type=submit]")
            page.wait_for_load_state()
        return page

    def header_height(self, page) -> float:
        return page.locator("header.topbar").bounding_box()["height"]

    def test_admin_header_is_one_row_on_a_desk_with_every_link_in_view(self) -> None:
        page = self.page_for("ada", viewport=DESK)
        assert self.header_height(page) < 60, "one row, not two"
        for link in page.locator(".site-nav > a").all():
            box = link.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= DESK["width"], link.text_content()
        page.click(".nav-group summary")
        assert page.locator(".nav-group-links a", has_text="My courses").is_visible()

    def test_instructor_has_one_courses_link_per_meaning(self) -> None:
        page = self.page_for("ines", viewport=DESK)
        visible = [link.text_content() for link in page.locator(".site-nav a:visible").all()]
        assert "Teaching" in visible and "Courses" not in visible and "My courses" not in visible
        assert page.get_by_role("link", name="Teaching").get_attribute("href") == "/teaching/courses/"

    def test_phone_header_stays_compact_for_instructors_and_admins(self) -> None:
        for username in ("ines", "ada"):
            page = self.page_for(username, viewport=PHONE, phone=True)
            assert self.header_height(page) < 110, f"{username}: the header leaves the phone to the page"
            for link in page.locator(".site-nav a:visible").all():
                box = link.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], f"{link.text_content()} off-screen"
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    def test_wide_table_scrolls_on_a_phone_with_a_shadow_cue(self) -> None:
        page = self.page_for("sam", viewport=PHONE, phone=True)
        page.goto(f"{self.live_server_url}/cases/")
        table = page.locator("main table").first
        box = table.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"], "the table stays on the screen"
        style = table.evaluate(
            "t => ({overflow: getComputedStyle(t).overflowX, image: getComputedStyle(t).backgroundImage})"
        )
        assert style["overflow"] == "auto" and "radial-gradient" in style["image"]

    def test_error_pages_fit_a_phone_and_lead_home(self) -> None:
        page = self.page_for("sam", viewport=PHONE, phone=True)
        response = page.goto(f"{self.live_server_url}/trials/99999/")
        assert response.status == 404
        assert page.evaluate("window.innerWidth") == PHONE["width"], "the viewport meta: not 980 px"
        assert page.locator("h1").text_content() == "Page not found"
        assert page.locator(".site-nav").is_visible()
        page.click("#error-home")
        assert page.url.rstrip("/") != f"{self.live_server_url}/trials/99999"

    def test_favicon_is_served(self) -> None:
        page = self.page_for(None, viewport=DESK)
        page.goto(f"{self.live_server_url}/accounts/login/")
        href = page.locator("link[rel=icon]").get_attribute("href")
        response = page.request.get(f"{self.live_server_url}{href}")
        assert response.status == 200 and b"<svg" in response.body()

    def test_local_times_read_like_the_servers(self) -> None:
        """local-time.js in a reader's zone of UTC writes what Django writes for UTC."""
        moments = [datetime(2026, 11, 27, h, m, tzinfo=UTC) for h, m in ((21, 27), (9, 0), (0, 0), (12, 0), (12, 5))]
        for language in ("en", "zh-hans"):
            context = self.browser.new_context(timezone_id="UTC")
            self.addCleanup(context.close)
            page = context.new_page()
            times = "".join(f'<p><time datetime="{when.isoformat()}" data-local>?</time></p>' for when in moments)
            page.set_content(f'<html lang="{language}"><body>{times}</body></html>')
            page.add_script_tag(path=str(LOCAL_TIME))
            shown = page.locator("time").all_text_contents()
            with translation.override(language):
                expected = [f"{date_format(when, 'DATETIME_FORMAT')} UTC" for when in moments]
            assert shown == expected, language
