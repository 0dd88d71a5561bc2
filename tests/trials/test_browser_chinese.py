"""The trial room in Chinese, in a real browser: a student switches the interface to 简体中文
with the header's switch, plays a Chinese case's first-instance trial as counsel for the
plaintiff (原告代理人) and reads the banner, the buttons, the debrief and the scorecard in
Chinese, with no English word of the interface left."""

from __future__ import annotations

import re

import pytest
from channels.testing import ChannelsLiveServerTestCase

from legalsim.roles import Role
from tests.browser import CHROMIUM, LiveRoomServer, WithChromium, page_logged_in, screenshot
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Trial
from trials.services import cases_import

CASE = "zh-civil-private-lending"
ENDED = "庭审已结束"
LATIN = re.compile(r"[A-Za-z]")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")


def chinese_only(text: str, where: str) -> str:
    """``text`` (the text of ``where``), asserted to hold Chinese and no Latin letter."""
    assert text.strip(), f"{where} is empty"
    assert not LATIN.search(text), f"{where} has English in it: {text!r}"
    return text


class ChineseRoomInTheBrowser(WithChromium, LiveRoomServer, ChannelsLiveServerTestCase):
    host = "127.0.0.1"
    serve_static = True

    def setUp(self) -> None:
        cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
        person("student", Role.STUDENT, password="a-demo-password-1")
        self.page = page_logged_in(self.browser, self.live_server_url, "student", "a-demo-password-1")

    def tearDown(self) -> None:
        self.page.close()

    def test_a_student_switches_to_chinese_and_plays_counsel_for_the_plaintiff_to_the_scorecard(self) -> None:
        page = self.page
        page.wait_for_url("**/cases/")
        page.click("#language-switch button[value=zh-hans]")
        page.wait_for_selector("html[lang=zh-hans]")
        page.goto(f"{self.live_server_url}/cases/{CASE}/")
        assert chinese_only(page.inner_text("#play h2"), "the case page's heading") == "演练本案"
        page.locator("input[name=seats]:checked").uncheck()
        page.check("input[value=plaintiff_lawyer]")
        assert "原告代理人" in page.inner_text("#play fieldset")
        page.select_option("select[name=stage]", "FIT")
        chinese_only(page.inner_text("#play button[type=submit]"), "the start button")
        page.click("#play button[type=submit]")
        page.wait_for_selector("#connection:has-text('已连接')")
        assert page.get_attribute("html", "lang") == "zh-hans"
        assert page.get_attribute("#transcript", "lang") == "zh", "the turns are read as the case's language"
        chinese_only(page.inner_text("#object"), "the objection button")

        turns = 0
        while not page.locator(f"#banner-stage:has-text('{ENDED}')").count():
            page.wait_for_function(
                "(ended) => document.getElementById('composer-text')?.disabled === false"
                " || document.getElementById('banner-stage').textContent.includes(ended)",
                arg=ENDED,
            )
            if page.locator(f"#banner-stage:has-text('{ENDED}')").count():
                break
            chinese_only(page.inner_text("#banner-stage"), "the banner's stage")
            chinese_only(page.inner_text("#banner-turn"), "the banner's line")
            chinese_only(page.inner_text("#composer-label"), "the composer's label")
            turns += 1
            said = f"被告借款到期未还，应当承担还款责任（{turns}）"
            if page.locator("#composer-decision:visible").count():
                decision = page.locator("#composer-decision button:visible").first
                chinese_only(decision.inner_text(), "the decision's button")
                page.fill("#composer-text", said)
                decision.click()
            else:
                chinese_only(page.inner_text("#composer-send"), "the composer's button")
                if page.locator("#document-editor").is_visible():
                    fields = page.locator("#document-sections textarea")
                    for index in range(fields.count()):
                        fields.nth(index).fill(f"{said}§{index + 1}")
                else:
                    page.fill("#composer-text", said)
                if turns == 1:
                    screenshot(page, "room-chinese-turn", phone=True)
                page.click("#composer-send")
            page.wait_for_selector(f"li.turn.human:has-text('{said}')")
        assert turns, "counsel was awaited in the hearing"

        page.wait_for_selector("#debrief")
        chinese_only(page.inner_text("#banner-stage"), "the banner at the end")
        assert chinese_only(page.inner_text("#debrief-title"), "the debrief's title") == ENDED
        for heading in page.locator("#debrief h3").all():
            chinese_only(heading.inner_text(), "a heading of the debrief")
        chinese_only(page.inner_text("#debrief .debrief-next"), "the debrief's links")
        screenshot(page, "room-chinese-ended", phone=True)

        trial = Trial.objects.get()
        page.click("#debrief-scorecard")
        page.wait_for_url(f"**/trials/{trial.pk}/scorecard/")
        assert page.get_attribute("html", "lang") == "zh-hans"
        card = page.inner_text("main")
        assert "评分表" in card and "满分 10 分" in card and "各项得分均为 10 分制" in card
        for header in page.locator("#capabilities th").all():
            chinese_only(header.inner_text(), "a column of the capabilities")
        for row in page.locator("#capabilities tbody tr td:first-child").all():
            chinese_only(row.inner_text(), "a capability's name")
        for heading in page.locator("main h2").all():
            chinese_only(re.sub(r"[\d.–]|MILE", "", heading.inner_text()), "a heading of the scorecard")
        chinese_only(page.get_attribute("#capability-chart svg", "aria-label"), "the chart's label")
        screenshot(page, "scorecard-chinese", phone=True)
