"""A rater rates a trajectory in Chinese in a real browser (Debian's chromium through
Playwright; issue #18): the header's language switch turns the interface, the rubric, its
anchors and the questionnaire's own messages Chinese, the trajectory keeps its language, and
the submission works as in English."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from annotation.models import Assignment, Rating, Study
from annotation.rubric import RUBRIC_DIR
from annotation.services import rubric_import
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.browser import CHROMIUM, WithChromium, page_logged_in
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
CHINESE = re.compile(r"[\u4e00-\u9fff]")


class QuestionnaireInChinese(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        rubric_import(path=RUBRIC_DIR / "legalworld16.json")  # a transactional test's flush removes it
        cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
        trajectory = trial_simulate(case=Case.objects.get(), backend="scripted").trajectory
        study = Study.objects.create(
            name="中文评分", rubric_id="legalworld16", trajectory_ids=[trajectory.id], raters_per_trajectory=1
        )
        study.raters.set([person("rater", Role.RATER, password="a-rater-password-1")])
        study_plan(study=study)
        self.assignment = Assignment.objects.get()
        self.page = page_logged_in(self.browser, self.live_server_url, "rater", "a-rater-password-1")

    def tearDown(self) -> None:
        self.page.close()

    def test_a_rater_switches_to_chinese_and_rates_an_english_trajectory(self) -> None:
        page = self.page
        page.goto(f"{self.live_server_url}/rate/{self.assignment.pk}/")
        assert page.get_attribute("html", "lang") == "en"
        page.click('#language-switch button[value="zh-hans"]')
        page.wait_for_selector('html[lang="zh-hans"]')
        page.wait_for_load_state()
        assert page.url.endswith(f"/rate/{self.assignment.pk}/")

        # the interface, the rubric and its anchors in Chinese
        questionnaire = page.inner_text("#questionnaire")
        for text in (
            "阶段真实性",
            "角色一致性",
            "法律咨询（LC）",
            "程序合规性",
            "流程连贯性",
            "立场真实性",
            "角色区分度",
        ):
            assert text in questionnaire, text
        assert "Procedural compliance" not in questionnaire and "Stage authenticity" not in questionnaire
        assert page.inner_text("#questionnaire button[type=submit]") == "提交（不可更改）"
        assert page.get_attribute("textarea >> nth=0", "placeholder") == "理由"
        assert page.inner_text(".anchors >> nth=0 >> .anchors-title") == "评分锚点"  # shown, not folded
        assert "程序完整或基本完整，推进自然，角色轮转清晰。" in page.inner_text(".anchors >> nth=0")
        assert "评分问卷" in page.inner_text("main")

        # the trajectory stays in English, marked as such
        page.wait_for_selector("#stage-panel .turn")
        assert page.get_attribute(".trajectory", "lang") == "en"
        assert not CHINESE.search(page.inner_text("#stage-panel .turn >> nth=0 >> .text"))

        # the questionnaire's script shows the page's (Chinese) strings
        page.fill('input[type="number"] >> nth=0', "9")
        page.evaluate("document.getElementById('answers').dispatchEvent(new Event('change', {bubbles: true}))")
        page.wait_for_selector("#autosave:has-text('草稿已保存')")

        items = self.assignment.study.rubric.definition.item_ids
        for index, item in enumerate(items):
            page.fill(f'input[name="score__{item}"]', str(index % 11))
            page.fill(f'textarea[name="reason__{item}"]', f"第 {index} 项的理由")
        page.once("dialog", lambda dialog: dialog.accept())  # submission is final: the page asks once
        page.click("#questionnaire button[type=submit]")
        page.wait_for_selector("text=已提交，谢谢！")
        assert page.get_attribute("html", "lang") == "zh-hans"

        ratings = {rating.item: rating for rating in Rating.objects.filter(rater="rater")}
        assert {item: (ratings[item].score, ratings[item].reason) for item in items} == {
            item: (index % 11, f"第 {index} 项的理由") for index, item in enumerate(items)
        }

    def test_an_incomplete_submission_is_explained_in_chinese(self) -> None:
        page = self.page
        page.goto(f"{self.live_server_url}/rate/{self.assignment.pk}/")
        page.click('#language-switch button[value="zh-hans"]')
        page.wait_for_selector('html[lang="zh-hans"]')
        page.wait_for_load_state()
        page.evaluate("document.getElementById('questionnaire').noValidate = true")
        page.fill('input[type="number"] >> nth=0', "12")
        page.click("#questionnaire button[type=submit]")
        page.wait_for_selector("text=部分答案缺失或无效，请查看下方标出的评分项。")
        assert "请填写 0 到 10 之间的整数" in page.inner_text(".item.invalid >> nth=0")
        assert not Rating.objects.exists()
