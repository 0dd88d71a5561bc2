"""The questionnaire in a real browser (Debian's chromium through Playwright): the stage
being read is the highlighted tab, and submitting, which is final, asks once before it goes
(cancelled, nothing is submitted)."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase

from annotation.models import Assignment, Study, Trajectory
from annotation.rubric import RUBRIC_DIR
from annotation.services import rubric_import
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.browser import CHROMIUM, WithChromium, page_logged_in
from tests.users import person

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
STAGES = ("LC", "CD", "FIT", "AD-Det", "AR", "SIT")
SELECTED = "rgb(29, 78, 216)"
"""The accent colour (``--accent``)."""


def turn(seq: int, text: str) -> dict:
    return {"seq": seq, "phase": "opening", "role": "lawyer", "side": "plaintiff", "speaker": "Counsel", "text": text}


class Questionnaire(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        rubric_import(path=RUBRIC_DIR / "legalworld16.json")  # a transactional test's flush removes it
        stages = [{"stage": stage, "turns": [turn(1, f"Said in {stage}.")], "artifacts": []} for stage in STAGES]
        Trajectory.objects.create(
            id="lease", case_id="case-1", procedure="civil", language="en", title="A lease", stages=stages
        )
        study = Study.objects.create(
            name="tabs", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=["lease"]
        )
        study.raters.set([person("rater", Role.RATER, password="a-rater-password-1")])
        study_plan(study=study)
        self.assignment = Assignment.objects.get()
        self.page = page_logged_in(self.browser, self.live_server_url, "rater", "a-rater-password-1")
        self.page.goto(f"{self.live_server_url}/rate/{self.assignment.pk}/")

    def tearDown(self) -> None:
        self.page.close()

    def background(self, tab: str) -> str:
        return self.page.eval_on_selector(tab, "tab => getComputedStyle(tab).backgroundColor")

    def test_the_stage_being_read_is_the_highlighted_tab(self) -> None:
        page = self.page
        page.wait_for_selector("#stage-panel :text('Said in LC.')")
        tabs = '.trajectory [role="tab"]'
        assert self.background(f"{tabs} >> nth=0") == SELECTED
        page.click(f"{tabs} >> nth=2")
        page.wait_for_selector("#stage-panel :text('Said in FIT.')")
        assert self.background(f"{tabs} >> nth=2") == SELECTED
        assert self.background(f"{tabs} >> nth=0") != SELECTED

    def test_submitting_asks_once_and_a_cancelled_submission_submits_nothing(self) -> None:
        page = self.page
        assert "can no longer change" in page.inner_text("#submit-final-note")
        for item in self.assignment.study.rubric.definition.item_ids:
            page.fill(f"input[name='score__{item}']", "7")
            page.fill(f"textarea[name='reason__{item}']", "As the transcript shows.")
        asked: list[str] = []

        def answer(dialog, accept: bool) -> None:
            asked.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        page.once("dialog", lambda dialog: answer(dialog, accept=False))
        page.click("#questionnaire button[type=submit]")
        assert asked == ["Submit your answers? Once submitted, they can no longer change."]
        assert Assignment.objects.get().status != Assignment.Status.SUBMITTED

        page.once("dialog", lambda dialog: answer(dialog, accept=True))
        page.click("#questionnaire button[type=submit]")
        page.wait_for_selector("text=Submitted. Thank you.")
        assert len(asked) == 2 and Assignment.objects.get().status == Assignment.Status.SUBMITTED
