"""The agreement among raters of a study without a model server, as the instructor reads it
in a real browser (issue 32, item 4): the study page gives alpha and the ICCs at once, the
report page per group, line and item with their intervals, at 1366 and 390 px."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from annotation.models import Assignment, Study
from annotation.rubric import RUBRIC_DIR
from annotation.services import rubric_import
from annotation.studies import assignment_submit, study_plan
from legalsim.roles import Role
from tests.browser import CHROMIUM, PHONE, WithChromium, page_logged_in, screenshot
from tests.users import person

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"
DESKTOP = {"width": 1366, "height": 768}


class TheRatersAgreementWithoutAJudge(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        rubric_import(path=RUBRIC_DIR / "legalworld16.json")
        study = Study.objects.create(
            name="No model server", rubric_id="legalworld16", raters_per_trajectory=2, trajectory_ids=["t1", "t2", "t3"]
        )
        study.raters.set([person(name, Role.RATER) for name in ("ann", "bo")])
        study_plan(study=study)
        items = study.rubric.definition.item_ids
        for assignment in Assignment.objects.filter(study=study).select_related("rater"):
            quality = {"t1": 3, "t2": 6, "t3": 9}[assignment.trajectory_id]
            offset = 1 if assignment.rater.username == "bo" else 0
            answers = {
                item: {"score": str(min(10, quality + (index + offset) % 2)), "reason": "read it"}
                for index, item in enumerate(items)
            }
            assert not assignment_submit(assignment_id=assignment.pk, rater=assignment.rater, answers=answers).problems
        self.study = study
        person("ines", Role.INSTRUCTOR, password=PASSWORD)

    def test_the_study_page_and_the_report_show_alpha_and_icc_without_a_judge(self) -> None:
        page = page_logged_in(self.browser, self.live_server_url, "ines", PASSWORD)
        page.set_viewport_size(DESKTOP)
        page.goto(f"{self.live_server_url}/rate/studies/{self.study.pk}/")
        summary = page.text_content("#raters-agreement")
        assert "α (interval)" in summary and "ICC(1,1)" in summary and "ICC(1,k)" in summary
        assert page.locator("button:has-text('Export')").first.is_enabled()
        screenshot(page, "agreement-no-judge-dashboard", phone=True)

        page.click("#raters-agreement a")
        page.wait_for_selector("#inter-rater")
        assert page.locator("h1").text_content() == "Agreement among raters"
        assert page.locator("table.raters").count() == 4, "two groups, the overall line, the items"
        assert page.locator("table.raters .ci:has-text('[')").count() > 10, "intervals beside the figures"
        assert page.locator("text=LLM avg.").count() == 0
        screenshot(page, "agreement-no-judge-report")
        page.set_viewport_size(PHONE)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page does not scroll sideways on a phone ({width} px)"
        screenshot(page, "agreement-no-judge-report-phone")
        page.close()
