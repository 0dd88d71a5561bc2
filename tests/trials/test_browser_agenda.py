"""The interview checklist in the browser (issue #33): a student plays the lawyer of a
consultation whose client withholds a detail; the checklist ticks as the student asks, the
detail appears once asked, and the debrief lists what was never asked."""

from __future__ import annotations

import pytest
from channels.testing import ChannelsLiveServerTestCase

from court.agenda import AGENDA
from legalsim.roles import Role
from tests.agents.test_withheld_client import CANARY, maser_case
from tests.browser import CHROMIUM, LiveRoomServer, WithChromium, page_logged_in, screenshot, trial_started
from tests.cases import case_stored
from tests.users import person

QUESTION = "请问您的住址和联系电话？钱是怎么交给对方的，有没有转账？"


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
class AnInterviewWithAChecklist(WithChromium, LiveRoomServer, ChannelsLiveServerTestCase):
    host = "127.0.0.1"
    serve_static = True

    def setUp(self) -> None:
        self.case = case_stored(maser_case())
        person("student", Role.STUDENT, password="a-demo-password-1")
        self.page = page_logged_in(self.browser, self.live_server_url, "student", "a-demo-password-1")

    def tearDown(self) -> None:
        self.page.close()

    def test_the_checklist_ticks_as_the_student_asks_and_the_debrief_lists_what_was_never_asked(self) -> None:
        page = self.page
        trial_started(page, self.live_server_url, self.case.pk, "plaintiff_lawyer", "LC")
        assert page.locator("#agenda li.open").count() == len(AGENDA), "nothing asked yet"
        assert CANARY not in page.content(), "the detail stays with the client"
        page.wait_for_selector("#composer-text:enabled")
        page.fill("#composer-text", QUESTION)
        page.click("#composer-send")
        page.wait_for_selector(f"li.turn:has-text('{CANARY}')")
        page.wait_for_selector("#agenda .agenda-found li")
        asked = page.locator("#agenda li.asked").all_inner_texts()
        assert any("委托人的基本情况" in item for item in asked) and any("证据" in item for item in asked), asked
        screenshot(page, "room-interview-checklist", phone=True)
        self.play_on(page)
        page.wait_for_selector("#debrief-interview")
        never = page.inner_text("#debrief-interview .interview-never")
        assert "争议焦点" in never and "委托人的基本情况" not in never
        assert "you drew it out" in page.inner_text("#debrief-interview")
        screenshot(page, "room-interview-debrief", phone=True)

    def play_on(self, page) -> None:
        """Say "asdf" at every turn left (the consultation record's sections too) to the end."""
        while not page.locator("#banner-stage:has-text('The trial has ended')").count():
            page.wait_for_function(
                "() => document.getElementById('composer-text')?.disabled === false"
                " || document.getElementById('banner-stage').textContent.includes('ended')"
            )
            if page.locator("#banner-stage:has-text('The trial has ended')").count():
                break
            turns = page.locator("li.turn.human").count()
            if page.locator("#document-editor").is_visible():
                fields = page.locator("#document-sections textarea")
                for index in range(fields.count()):
                    fields.nth(index).fill("asdf")
            else:
                page.fill("#composer-text", "asdf")
            page.click("#composer-send")
            page.wait_for_function(f"() => document.querySelectorAll('li.turn.human').length > {turns}")

    def test_a_ticked_last_question_ends_the_interview_after_its_answer(self) -> None:
        page = self.page
        trial_started(page, self.live_server_url, self.case.pk, "plaintiff_lawyer", "LC")
        page.wait_for_selector("#composer-text:enabled")
        assert page.locator("#composer-last").is_visible(), "the lawyer's question turn offers the box"
        page.fill("#composer-text", QUESTION)
        page.check("#composer-last-box")
        screenshot(page, "room-last-question", phone=True)
        page.click("#composer-send")
        page.wait_for_selector(f"li.turn:has-text('{CANARY}')")
        page.wait_for_selector("#composer-text:enabled")
        assert not page.locator("#composer-last").is_visible(), "no second question: the interview moved on"
        assert page.locator("li.turn.human").count() == 1
