"""The room's composer in a real browser: long words wrap on a phone, a statement too long
for the court stays in the box with the reason beside it, and the complaint's editor names
its sections as a person would and refuses an empty filing."""

from __future__ import annotations

import pytest
from channels.testing import ChannelsLiveServerTestCase
from django.conf import settings

from legalsim.roles import Role
from tests.browser import CHROMIUM, PHONE, LiveRoomServer, WithChromium, page_logged_in, trial_started
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Trial
from trials.services import cases_import

CASE = "en-civil-traffic-accident"
LIMIT = 300
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

MY_TURN = "() => document.getElementById('composer-text')?.disabled === false || !!document.querySelector('#document-editor:not([hidden])')"
SIDEWAYS = "() => document.documentElement.scrollWidth"


class ComposerInTheBrowser(WithChromium, LiveRoomServer, ChannelsLiveServerTestCase):
    host = "127.0.0.1"
    serve_static = True

    @classmethod
    def setUpClass(cls) -> None:
        cls.limit_before = settings.LEGALSIM_MAX_SAY_CHARS
        settings.LEGALSIM_MAX_SAY_CHARS = LIMIT  # the forked server reads it too
        super().setUpClass()

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        settings.LEGALSIM_MAX_SAY_CHARS = cls.limit_before

    def setUp(self) -> None:
        cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
        person("student", Role.STUDENT, password="a-demo-password-1")
        self.page = page_logged_in(self.browser, self.live_server_url, "student", "a-demo-password-1")

    def tearDown(self) -> None:
        self.page.close()

    def phone(self, *, touch: bool = False):
        """A phone-sized page signed in as the student (no touch: as a desktop's emulation)."""
        context = self.browser.new_context(viewport=PHONE, has_touch=touch, is_mobile=touch)
        context.add_cookies(self.page.context.cookies())
        page = context.new_page()
        page.set_default_timeout(60_000)
        return page

    def test_a_long_url_and_a_long_token_wrap_and_speak_stays_on_a_phone_screen(self) -> None:
        page = self.phone()
        trial_started(page, self.live_server_url, CASE, "plaintiff_lawyer", "FIT")
        page.wait_for_function(MY_TURN)
        said = "See https://example.org/" + "a" * 250 + " and the token " + "Z" * (LIMIT - 290)
        page.fill("#composer-text", said)
        page.click("#composer-send")
        page.wait_for_selector(f"li.turn.human:has-text('{said[:30]}')")
        page.reload()
        page.wait_for_selector("#connection:has-text('live')")
        page.wait_for_function(MY_TURN)
        assert page.evaluate(SIDEWAYS) <= PHONE["width"], "the page never scrolls sideways"
        speak = page.locator("#composer-send").bounding_box()
        assert speak["x"] >= 0 and speak["x"] + speak["width"] <= PHONE["width"], "Speak is on the screen"
        page.click("#composer-send", trial=True)
        assert page.is_hidden(".composer-hint"), "a phone-sized screen is not told about Ctrl+Enter"
        page.context.close()

    def test_a_statement_over_the_limit_stays_in_the_box_and_the_reason_is_beside_it(self) -> None:
        page = self.page
        trial_started(page, self.live_server_url, CASE, "plaintiff_lawyer", "FIT")
        page.wait_for_function(MY_TURN)
        too_long = "The defendant failed to yield. " * 12  # 372 characters, trimmed 371
        page.fill("#composer-text", too_long)
        assert page.is_visible("#composer-count.over"), "the count warns before anything is sent"
        assert "371 of 300 characters" in page.inner_text("#composer-count")
        page.click("#composer-send")
        note = page.locator("#composer-note")
        assert note.is_visible() and "371 characters long and the limit is 300" in note.inner_text()
        assert page.input_value("#composer-text") == too_long, "nothing typed is lost"
        assert page.inner_text("#connection") == "live", "the connection's badge says only that"
        page.fill("#composer-text", "The defendant failed to yield.")
        assert note.is_hidden(), "the note goes once the statement fits"
        page.click("#composer-send")
        page.wait_for_selector("li.turn.human:has-text('The defendant failed to yield.')")
        assert page.input_value("#composer-text") == "", "the box empties once the court recorded it"

    def test_a_refusal_by_the_server_keeps_the_text_and_is_said_beside_the_box(self) -> None:
        page = self.page

        trial_started(page, self.live_server_url, CASE, "plaintiff_lawyer", "FIT")
        page.wait_for_function(MY_TURN)
        # A client that does not count (an old page, another program): the server refuses.
        page.evaluate("document.getElementById('composer').dataset.sayLimit = '0'")
        too_long = "x" * (LIMIT + 1)
        page.fill("#composer-text", too_long)
        page.click("#composer-send")
        page.wait_for_selector("#composer-note:has-text('The court could not take this')")
        assert page.input_value("#composer-text") == too_long
        assert page.is_enabled("#composer-send"), "it can be shortened and sent again"
        assert page.inner_text("#connection") == "live"

    def test_the_complaint_editor_names_its_sections_and_refuses_an_empty_filing(self) -> None:
        page = self.page
        trial_started(page, self.live_server_url, CASE, "plaintiff_lawyer", "CD")
        assert page.is_hidden("#object"), "no objection outside a hearing"
        while True:
            page.wait_for_function(MY_TURN)
            if page.is_visible("#document-editor"):
                break
            placeholder = page.get_attribute("#composer-text", "placeholder")
            assert "court" not in placeholder, f"an interview is not a hearing: {placeholder!r}"
            page.fill("#composer-text", "Tell me what happened at the crossing.")
            count = page.locator("li.turn.human").count()
            page.click("#composer-send")
            page.wait_for_function(f"() => document.querySelectorAll('li.turn.human').length > {count}")
        labels = page.locator("#document-sections label").all_inner_texts()
        assert [label.strip() for label in labels][:3] == ["Parties", "Claims", "Facts and reasons"]
        page.click("#composer-send")
        assert "Write at least one section" in page.inner_text("#composer-note")
        page.fill("#document-sections textarea[data-section=parties]", "Plaintiff: Liu Fang. Defendant: Huang Jun.")
        page.fill("#document-sections textarea[data-section=court]", "Chaoyang District People's Court")
        page.click("#composer-send")
        page.wait_for_selector("#banner-stage:has-text('The trial has ended')")
        assert page.is_hidden("#connection"), "an ended trial is not 'live'"
        complaint = Trial.objects.get().artifacts.get(kind="complaint").text
        assert "\n\nParties\nPlaintiff: Liu Fang." in complaint and "\n\nCourt addressed\n" in complaint
        page.reload()
        assert page.is_hidden("#connection")
