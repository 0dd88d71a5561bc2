"""The questionnaire in a real browser (Debian's chromium through Playwright): a rater fills
all sixteen items with the keyboard alone, and a tab left open after submission says why it
saves nothing."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from annotation.models import Assignment, Rating, Study
from annotation.rubric import RUBRIC_DIR
from annotation.services import rubric_import
from annotation.studies import SUBMITTED_IS_FINAL, assignment_submit, study_plan
from legalsim.roles import Role
from tests.browser import CHROMIUM, WithChromium, page_logged_in
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")


class QuestionnaireByKeyboard(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        rubric_import(path=RUBRIC_DIR / "legalworld16.json")  # a transactional test's flush removes it
        cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
        trajectory = trial_simulate(case=Case.objects.get(), backend="scripted").trajectory
        study = Study.objects.create(name="keys", rubric_id="legalworld16", trajectory_ids=[trajectory.id])
        study.raters.set([person("rater", Role.RATER, password="a-rater-password-1")])
        study.raters_per_trajectory = 1
        study.save()
        study_plan(study=study)
        self.assignment = Assignment.objects.get()
        self.page = page_logged_in(self.browser, self.live_server_url, "rater", "a-rater-password-1")

    def tearDown(self) -> None:
        self.page.close()

    def test_a_rater_fills_and_submits_the_questionnaire_with_the_keyboard_alone(self) -> None:
        page = self.page
        page.goto(f"{self.live_server_url}/rate/{self.assignment.pk}/")
        page.wait_for_selector("#stage-panel .turn")
        first_stage = page.inner_text("#stage-panel")
        page.keyboard.press("Alt+ArrowRight")
        page.wait_for_function(f"() => document.querySelector('#stage-panel').innerText !== {first_stage!r}")
        assert page.get_attribute('[role="tab"]:nth-child(2)', "aria-selected") == "true"

        page.focus('input[type="number"]')
        items = self.assignment.study.rubric.definition.item_ids
        for index, item in enumerate(items):
            page.keyboard.type(str(index % 11))
            page.keyboard.press("Enter")
            page.keyboard.type(f"reason {index} for {item}")
            if index == 1:
                page.keyboard.press("Control+s")
                page.wait_for_selector("#autosave:has-text('Draft saved')")
                assert set(Assignment.objects.get().draft) >= set(items[:2])
            page.keyboard.press("Control+Enter")
        assert page.evaluate("document.activeElement.type") == "submit"
        page.once("dialog", lambda dialog: dialog.accept())  # submission is final: the page asks once
        page.keyboard.press("Enter")
        page.wait_for_selector("text=Submitted. Thank you.")

        ratings = {rating.item: rating for rating in Rating.objects.filter(rater="rater")}
        assert {item: (ratings[item].score, ratings[item].reason) for item in items} == {
            item: (index % 11, f"reason {index} for {item}") for index, item in enumerate(items)
        }
        assert all(rating.active_seconds > 0 for rating in ratings.values())

    def test_a_tab_left_open_after_submission_says_why_its_autosave_is_refused(self) -> None:
        page = self.page
        page.goto(f"{self.live_server_url}/rate/{self.assignment.pk}/")
        items = self.assignment.study.rubric.definition.item_ids
        answers = {item: {"score": "5", "reason": "from the other tab"} for item in items}
        assert not assignment_submit(
            assignment_id=self.assignment.pk, rater=self.assignment.rater, answers=answers
        ).problems

        page.fill('input[type="number"]', "2")
        page.keyboard.press("Control+s")
        page.wait_for_selector(f"#autosave:has-text({SUBMITTED_IS_FINAL!r})")
        assert {rating.score for rating in Rating.objects.filter(rater="rater")} == {5}
