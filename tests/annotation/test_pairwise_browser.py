"""Pairwise rating in a real browser (issue 32, item 11), as the instructor and the rater
meet it (Debian's chromium through Playwright):

- the instructor sets up a pairwise study with simcourt30 (a criminal trial's stages) for two
  civil trajectories: the rubric is refused beside its field and nothing is created; with two
  criminal trajectories of one case the study is created;
- the rater reads trajectories A and B side by side at 1366 px, each beside the other from the
  top of the page, not 2,000 px apart; at 390 px as two tabs, A or B, one at a time, in the
  same place.
"""

from __future__ import annotations

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from annotation.models import Assignment, Study
from annotation.rubric import RUBRIC_DIR
from annotation.services import rubric_import
from legalsim.roles import Role
from tests.browser import CHROMIUM, PHONE, WithChromium, page_logged_in, screenshot
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"
DESKTOP = {"width": 1366, "height": 768}


class APairIsReadSideBySideOrInTabs(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        for name in ("legalworld16", "simcourt30"):
            rubric_import(path=RUBRIC_DIR / f"{name}.json")  # a transactional test's flush removes them
        cases_import(
            paths=[DEMO_CASES / "en-criminal-telecom-fraud.json", DEMO_CASES / "en-civil-traffic-accident.json"]
        )
        criminal = Case.objects.get(pk="en-criminal-telecom-fraud")
        civil = Case.objects.get(pk="en-civil-traffic-accident")
        self.criminal = [trial_simulate(case=criminal, backend="scripted").trajectory.id for _ in range(2)]
        self.civil = [trial_simulate(case=civil, backend="scripted", until="FIT").trajectory.id for _ in range(2)]
        person("ines", Role.INSTRUCTOR, password=PASSWORD)
        person("ann", Role.RATER, password=PASSWORD)

    def page_as(self, username: str, viewport: dict):
        page = page_logged_in(self.browser, self.live_server_url, username, PASSWORD)
        page.set_viewport_size(viewport)
        return page

    def test_a_rubric_for_other_stages_is_refused_and_a_pair_reads_side_by_side_or_in_tabs(self) -> None:
        page = self.page_as("ines", DESKTOP)
        page.goto(f"{self.live_server_url}/rate/studies/new/")
        page.fill("#id_name", "Which trial reads better")
        page.select_option("#id_rubric", "simcourt30")
        page.check("input[name=mode][value=pairwise]")
        for trajectory_id in self.civil:
            page.check(f"input[name=trajectories][value='{trajectory_id}']")
        page.check("input[name=raters][value=ann]")
        page.fill("#id_k", "1")
        page.click("button[value=create]")
        page.wait_for_selector("#form-problems")
        problem = page.text_content("#rubric-errors")
        assert "the rubric simcourt30 rates the stages investigation, evidence, debate" in problem, problem
        assert "2 trajectories chosen played none of them" in problem
        assert page.get_attribute("#id_rubric", "aria-invalid") == "true"
        rubric_box, error_box = page.locator("#id_rubric").bounding_box(), page.locator("#rubric-errors").bounding_box()
        assert 0 <= error_box["y"] - (rubric_box["y"] + rubric_box["height"]) < 60, "the problem is beside the field"
        assert not Study.objects.exists() and not Assignment.objects.exists(), "nothing created"
        screenshot(page, "pairwise-rubric-refused", phone=True)

        for trajectory_id in self.civil:
            page.uncheck(f"input[name=trajectories][value='{trajectory_id}']")
        for trajectory_id in self.criminal:
            page.check(f"input[name=trajectories][value='{trajectory_id}']")
        page.click("button[value=create]")
        page.wait_for_url("**/rate/studies/*/")
        assignment = Assignment.objects.get(study__name="Which trial reads better")
        page.close()

        page = self.page_as("ann", DESKTOP)
        page.goto(f"{self.live_server_url}/rate/{assignment.pk}/")
        page.wait_for_selector("#stage-panelA .turn, #stage-panelA .prose, #stage-panelA p")
        page.wait_for_selector("#stage-panelB .turn, #stage-panelB .prose, #stage-panelB p")
        a, b = page.locator("#pair-panel-A").bounding_box(), page.locator("#pair-panel-B").bounding_box()
        assert abs(a["y"] - b["y"]) < 2, f"A and B start at one height on a desktop: {a}, {b}"
        assert b["x"] >= a["x"] + a["width"], "B beside A"
        assert a["width"] > 380 and b["x"] + b["width"] <= DESKTOP["width"], "both readable, on the screen"
        assert not page.locator(".pair-tabs").is_visible(), "no tabs where both fit"
        questionnaire = page.locator("#questionnaire").bounding_box()
        assert questionnaire["x"] >= b["x"] + b["width"], "the questionnaire beside the pair"
        screenshot(page, "pairwise-desktop")

        page.set_viewport_size(PHONE)
        tabs = page.locator(".pair-tabs")
        assert tabs.is_visible()
        tab_a, tab_b = page.locator("#pair-tab-A"), page.locator("#pair-tab-B")
        assert tab_a.get_attribute("aria-selected") == "true" and tab_b.get_attribute("aria-selected") == "false"
        assert page.locator("#pair-panel-A").is_visible() and not page.locator("#pair-panel-B").is_visible()
        assert tab_b.bounding_box()["height"] >= 44, "a tab a thumb can hit"
        top_a = page.locator("#pair-panel-A").bounding_box()["y"]
        screenshot(page, "pairwise-phone-a")
        tab_b.click()
        assert tab_b.get_attribute("aria-selected") == "true"
        assert page.locator("#pair-panel-B").is_visible() and not page.locator("#pair-panel-A").is_visible()
        assert abs(page.locator("#pair-panel-B").bounding_box()["y"] - top_a) < 2, "B where A was"
        page.wait_for_selector("#stage-panelB .turn, #stage-panelB .prose, #stage-panelB p")
        screenshot(page, "pairwise-phone-b")
        tab_b.press("ArrowLeft")
        assert tab_a.get_attribute("aria-selected") == "true" and page.locator("#pair-panel-A").is_visible()
        page.close()
