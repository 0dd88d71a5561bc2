"""A rating study from its set-up to its report in a real browser (Debian's chromium through
Playwright), as its people meet it (issue #21, "Done when"):

- the instructor sets up the study in the form: a mistyped trajectory id is refused beside
  its field and nothing is created; corrected, the study is created and planned. She gives
  it a training trajectory and a gold one with ``study_gold``;
- each rater first rates the training trajectory and reads the feedback beside the
  reference, then works through the queue: a gold trajectory that looks like any other, and
  a trajectory that ended after the first-instance trial, whose appeal and second-instance
  items are N/A;
- the instructor resolves the one item the raters disagree on, reads the report (N/A left out
  of every figure and counted; raw and adjudicated figures side by side) and exports the
  ratings and the report.
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from functools import partial
from pathlib import Path

import pytest
from django.contrib.staticfiles.testing import StaticLiveServerTestCase
from django.core.management import call_command
from django.test import override_settings

from annotation.models import Adjudication, Assignment, Rating, Study
from annotation.rubric import RUBRIC_DIR
from annotation.services import rubric_import
from legalsim.roles import Role
from tests.annotation.quality_world import APPEAL_ITEMS, items, judge_ratings, reference_rows, references_csv
from tests.browser import CHROMIUM, WithChromium, page_logged_in, screenshot
from tests.celery_mode import celery_eager
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"
DESKTOP = {"width": 1366, "height": 768}
RATERS = ("ann", "bo")
TRAINING_SCORE, GOLD_SCORE, USUAL_SCORE, JUDGE_SCORE = 6, 5, 5, 5
DISPUTED = "FIT.procedural_compliance"
DISPUTED_SCORES = {"ann": 9, "bo": 1}
"""On the complete trajectory, the raters part on one item (by more than the threshold of 3)."""
BO_TRAINING_MISSES = ("LC.procedural_compliance", "judge.stance_authenticity")
"""bo scores these training items 3 points above the reference."""
RESOLVED = 6


class AStudyFromItsSetUpToItsReport(WithChromium, StaticLiveServerTestCase):
    host = "127.0.0.1"

    def setUp(self) -> None:
        self.scratch = Path(self.enterContext(tempfile.TemporaryDirectory()))
        self.enterContext(override_settings(MEDIA_ROOT=self.scratch / "media"))
        self.enterContext(celery_eager(True))
        rubric_import(path=RUBRIC_DIR / "legalworld16.json")  # a transactional test's flush removes it
        cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
        case = Case.objects.get()
        self.complete, self.first_instance, self.training, self.gold = (
            trial_simulate(case=case, backend="scripted", until=until).trajectory
            for until in (None, "FIT", None, "FIT")
        )
        assert self.first_instance.stage_ids == ["LC", "CD", "FIT"], "the trial stopped after the first instance"
        person("ines", Role.INSTRUCTOR, password=PASSWORD)
        person("sam", Role.STUDENT, password=PASSWORD)
        for rater in RATERS:
            person(rater, Role.RATER, password=PASSWORD)

    def test_a_study_is_set_up_rated_adjudicated_reported_and_exported(self) -> None:
        teacher = self.login("ines")
        study = self.study_set_up(teacher)
        self.references_give(study)
        judge_ratings(self.scratch, [self.complete.id], JUDGE_SCORE)
        judge_ratings(self.scratch, [self.first_instance.id], JUDGE_SCORE, skip=APPEAL_ITEMS)
        for rater in RATERS:
            page = self.login(rater)
            self.training_round(page, rater)
            self.queue_work_through(page, rater)
            page.close()
        self.adjudicate(teacher, study)
        self.report_read(teacher, study)
        self.ratings_export(teacher, study)
        self.report_export(teacher, study)
        teacher.close()

    def login(self, username: str):
        page = page_logged_in(self.browser, self.live_server_url, username, PASSWORD)
        page.set_viewport_size(DESKTOP)
        return page

    # The instructor sets the study up

    def study_set_up(self, page) -> Study:
        page.goto(f"{self.live_server_url}/rate/studies/new/")
        assert page.locator("input[name=raters][value=sam]").count() == 0, "a student is no rater"
        page.fill("#id_name", "Traffic pilot")
        page.check(f"input[name=trajectories][value='{self.complete.id}']")
        mistyped = self.first_instance.id.replace(".trial", ".trail")
        page.fill("#id_typed_ids", mistyped)
        for rater in RATERS:
            page.check(f"input[name=raters][value={rater}]")
        page.fill("#id_instructions", "Read every stage before you score it.")
        page.click("button[value=create]")
        page.wait_for_selector("#form-problems")
        assert page.text_content("#typed-errors") == f"line 1: no trajectory '{mistyped}' is stored here"
        assert page.get_attribute("#id_typed_ids", "aria-invalid") == "true"
        assert not Study.objects.exists()
        assert page.is_checked(f"input[name=trajectories][value='{self.complete.id}']"), "what was ticked stays"
        assert all(page.is_checked(f"input[name=raters][value={rater}]") for rater in RATERS)
        screenshot(page, "study-setup-error", phone=True)

        page.fill("#id_typed_ids", self.first_instance.id)
        page.click("button[value=create]")
        page.wait_for_url("**/rate/studies/*/")
        assert "Study Traffic pilot created, 4 assignments planned." in page.text_content("main")
        study = Study.objects.get()
        assert study.trajectory_ids == [self.complete.id, self.first_instance.id]
        return study

    def references_give(self, study: Study) -> None:
        """The documented way: ``study_gold`` with a reference file."""
        rows = reference_rows(self.training.id, "training", lambda item: TRAINING_SCORE)
        rows += reference_rows(self.gold.id, "gold", lambda item: GOLD_SCORE, skip=APPEAL_ITEMS)
        call_command("study_gold", study.name, "--file", str(references_csv(self.scratch, rows)))

    # The raters

    def training_round(self, page, rater: str) -> None:
        page.goto(f"{self.live_server_url}/rate/")
        assert page.locator("main a:text-is('Rate')").count() == 1, "only the training trajectory can be rated"
        assert page.locator("text=After the training round").count() == 3
        page.click("main a:text-is('Rate')")
        page.wait_for_url("**/rate/*/")
        assignment = self.assignment_of(page)
        assert assignment.kind == Assignment.Kind.TRAINING and assignment.trajectory_id == self.training.id

        def score_of(item: str) -> int:
            missed = rater == "bo" and item in BO_TRAINING_MISSES
            return TRAINING_SCORE + 3 if missed else TRAINING_SCORE

        self.answer_and_submit(page, rater, score_of)
        page.wait_for_url("**/feedback/")
        assert page.locator("text=Submitted. Thank you.").count() == 1, "the message is said once"
        n_items = len(items())
        within = n_items - (len(BO_TRAINING_MISSES) if rater == "bo" else 0)
        assert f"within ±1 point of the reference on {within} of {n_items} items" in page.text_content("main")
        for item in items():
            feedback = page.text_content(f"[id='feedback-{item}']")
            assert f"Why the reference gives this score: reference reason for {item}" in feedback
            assert ("3 points above the reference" in feedback) == (rater == "bo" and item in BO_TRAINING_MISSES)
        if rater == "bo":
            screenshot(page, "training-feedback", phone=True)
        page.click("text=Training done: back to your queue")
        page.wait_for_url("**/rate/")

    def queue_work_through(self, page, rater: str) -> None:
        """Every questionnaire of the queue, from its top; the gold one is not told apart."""
        rated = []
        while page.locator("main a:text-is('Rate')").count():
            assert "gold" not in page.text_content("main").lower()
            page.click("main a:text-is('Rate') >> nth=0")
            page.wait_for_url("**/rate/*/")
            page.wait_for_selector("#stage-panel .turn")
            assignment = self.assignment_of(page)
            rated.append((assignment.kind, assignment.trajectory_id))
            assert "gold" not in page.text_content("main").lower()
            shown_na = page.eval_on_selector_all(".item.not-applicable", "items => items.map(item => item.id)")
            lacks_appeal = assignment.trajectory_id in (self.first_instance.id, self.gold.id)
            assert shown_na == ([f"na-{item}" for item in APPEAL_ITEMS] if lacks_appeal else [])
            if lacks_appeal:
                notice = "This trajectory lacks some stages: 4 items are marked N/A and take no score."
                assert notice in page.text_content("main")
                assert page.text_content("#rating-progress").startswith(f"0 / {len(items()) - len(APPEAL_ITEMS)}")
            if rater == "ann" and assignment.trajectory_id == self.first_instance.id:
                screenshot(page, "questionnaire-na", phone=True)
            self.answer_and_submit(page, rater, partial(self.unit_score, rater, assignment))
            page.wait_for_selector("text=Submitted. Thank you.")
        assert sorted(rated) == sorted(
            [("gold", self.gold.id), ("study", self.complete.id), ("study", self.first_instance.id)]
        )

    def unit_score(self, rater: str, assignment: Assignment, item: str) -> int:
        if assignment.kind == Assignment.Kind.GOLD:
            return GOLD_SCORE
        disputed = (assignment.trajectory_id, item) == (self.complete.id, DISPUTED)
        return DISPUTED_SCORES[rater] if disputed else USUAL_SCORE

    def assignment_of(self, page) -> Assignment:
        return Assignment.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))

    def answer_and_submit(self, page, rater: str, score_of) -> None:
        """A score and a reason for every item shown (N/A ones have no field), then Submit."""
        shown = page.eval_on_selector_all("[data-item]", "items => items.map(item => item.dataset.item)")
        for item in shown:
            score = score_of(item)
            page.fill(f"input[name='score__{item}']", str(score))
            page.fill(f"textarea[name='reason__{item}']", f"{rater}: {score} for {item}, as the transcript shows.")
        page.once("dialog", lambda dialog: dialog.accept())  # submission is final: the page asks once
        page.click("#questionnaire button[type=submit]")

    # The instructor resolves, reads and exports

    def adjudicate(self, page, study: Study) -> None:
        page.goto(f"{self.live_server_url}/rate/studies/{study.pk}/")
        assert "1 of 1 disagreements to resolve." in page.text_content("#adjudication")
        calibration = page.locator("#calibration tbody tr")
        assert [calibration.nth(n).locator("td").nth(2).text_content() for n in range(2)] == ["1 / 1", "1 / 1"]
        page.click("text=Open the adjudication queue")
        page.click("main a:text-is('Adjudicate')")
        page.wait_for_url(f"**/adjudication/{DISPUTED}/{self.complete.id}")
        sides = page.locator(".side-by-side .card")
        assert [sides.nth(n).text_content().split()[:3] for n in range(2)] == [
            ["ann", "Score:", str(DISPUTED_SCORES["ann"])],
            ["bo", "Score:", str(DISPUTED_SCORES["bo"])],
        ]
        assert f"ann: {DISPUTED_SCORES['ann']} for {DISPUTED}" in sides.nth(0).text_content()
        screenshot(page, "adjudication-item", phone=True)
        page.fill("#adjudicated-score", str(RESOLVED))
        page.fill("#adjudicated-reason", "The hearing kept the order of the rules; one step was brief, not skipped.")
        page.click("text=Record the resolved score")
        page.wait_for_url("**/adjudication/")
        assert page.locator("text=Resolved score recorded.").count() == 1, "the message is said once"
        assert Adjudication.objects.get().score == RESOLVED

    def report_read(self, page, study: Study) -> None:
        """N/A in no figure and counted; the raw and the adjudicated figures side by side."""
        page.goto(f"{self.live_server_url}/rate/studies/{study.pk}/")
        page.click("text=Report against judge-m")
        page.wait_for_selector(".agreement")
        n_items, n_na_items = len(items()), len(APPEAL_ITEMS)
        raw_pairs = len(RATERS) * (n_items + n_items - n_na_items)
        overall = self.cells(page, ".agreement h2:text-is('Overall') + .table-scroll tr.overall")
        assert overall[-2:] == [str(raw_pairs), str(len(RATERS) * n_na_items)]
        item_row = ".agreement h2:text-is('Items') + .table-scroll tr:has(td[title='{}'])".format
        for item in APPEAL_ITEMS:  # pairs and N/A
            assert self.cells(page, item_row(item))[1:3] == [str(len(RATERS)), str(len(RATERS))]
        assert self.cells(page, item_row(DISPUTED))[1:3] == [str(2 * len(RATERS)), "0"]
        assert "NaN" not in page.text_content(".agreement")

        disputed_errors = sum(abs(score - JUDGE_SCORE) for score in DISPUTED_SCORES.values())
        variants = self.cells(
            page, "h2:text-is('Without flagged raters, and adjudicated') + p + .table-scroll tr.overall >> nth=-1"
        )
        assert variants[0] == "Overall" and len(variants) == 7, "no rater is flagged on gold: no column group for it"
        raw, adjudicated = variants[1:4], variants[4:7]
        within1 = raw_pairs - len(DISPUTED_SCORES)
        assert raw == [str(raw_pairs), f"{disputed_errors / raw_pairs:.2f}", f"{100 * within1 / raw_pairs:.2f}"]
        adjudicated_pairs = raw_pairs - len(RATERS) + 1
        resolved_error = abs(RESOLVED - JUDGE_SCORE)
        assert adjudicated == [str(adjudicated_pairs), f"{resolved_error / adjudicated_pairs:.2f}", "100.00"]
        resolved_row = self.cells(page, "h2:text-is('Adjudicated items') + .table-scroll tbody tr")
        assert resolved_row[0] == self.complete.id
        assert resolved_row[2:4] == [f"ann: {DISPUTED_SCORES['ann']} · bo: {DISPUTED_SCORES['bo']}", str(RESOLVED)]
        screenshot(page, "study-report", phone=True)

    def cells(self, page, row: str) -> list[str]:
        """The texts of a table row's cells, without their confidence intervals."""
        return page.locator(row).first.evaluate(
            "row => [...row.cells].map(cell => [...cell.childNodes].filter(n => !n.classList?.contains('ci'))"
            ".map(n => n.textContent).join('').trim())"
        )

    def ratings_export(self, page, study: Study) -> None:
        """The wide CSV: the raw scores, the resolved one beside them, NA for the absent stages."""
        rows = csv.DictReader(io.StringIO(self.export(page, study, "#ratings-layout", "wide")))
        by_unit = {(row["trajectory_id"], row["rater_id"]): row for row in rows}
        assert set(by_unit) == {(unit, rater) for unit in study.trajectory_ids for rater in RATERS}
        column = DISPUTED.replace(".", "_")
        for rater, score in DISPUTED_SCORES.items():
            row = by_unit[self.complete.id, rater]
            assert (row[column], row[f"{column}_adjudicated"]) == (str(score), str(RESOLVED))
            short = by_unit[self.first_instance.id, rater]
            assert [short[item.replace(".", "_")] for item in APPEAL_ITEMS] == ["NA"] * len(APPEAL_ITEMS)
        assert Rating.objects.filter(source="human", score__isnull=True).count() == len(RATERS) * len(APPEAL_ITEMS)

    def report_export(self, page, study: Study) -> None:
        report = json.loads(self.export(page, study, "#report-format", "json"))
        assert report["overall"]["n_na"] == len(RATERS) * len(APPEAL_ITEMS)
        assert report["adjudicated"]["overall"]["n_pairs"] == report["overall"]["n_pairs"] - 1
        assert [entry["adjudicated_score"] for entry in report["adjudications"]] == [RESOLVED]

    def export(self, page, study: Study, select: str, choice: str) -> str:
        """The file of an export started from the study's dashboard, downloaded from its job page."""
        page.goto(f"{self.live_server_url}/rate/studies/{study.pk}/")
        page.select_option(select, choice)
        page.click(f"form:has({select}) button[type=submit]")
        page.wait_for_url("**/rate/jobs/*/")
        link = page.locator("#job-progress a:has-text('Download')")
        link.wait_for()
        response = page.request.get(f"{self.live_server_url}{link.get_attribute('href')}")
        assert response.ok
        return response.text()
