"""A course from start to finish in a real browser (Debian's chromium through Playwright),
against daphne, as its people meet it:

- the instructor creates a course, uploads a roster (one new student gets a set-password
  link), writes a case from scratch, fixes the field the validators flag, play-tests it,
  publishes it and assigns it, paired, with a due date, and pairs the class;
- the two students each see the assignment, start it and meet in one room as opposing
  counsel, and play the hearing to its end;
- the instructor selects a passage of a student's turn with the mouse and comments on it,
  grades, and exports the gradebook, whose rows read back as expected; the student sees the
  notice;
- the instructor releases the grades; the student sees the notice and reads the grade with
  its feedback on the assignment's page, reached from My assignments;
- a student of another course gets a 404 for every page, API call and socket of that trial.
"""

from __future__ import annotations

import csv
import shutil
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import pytest
from channels.testing import ChannelsLiveServerTestCase
from django.utils import timezone

from classroom.models import Attempt
from classroom.services import course_create, course_enrol
from legalsim.roles import Role
from tests.browser import CHROMIUM, LiveRoomServer, WithChromium, page_logged_in, screenshot
from tests.trials.caselibrary.test_authoring import FORM
from tests.users import person
from trials.models import Case, Trial

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")
PASSWORD = "a-demo-password-1"
PLAY_S = 240


class ACourseInTheBrowser(WithChromium, LiveRoomServer, ChannelsLiveServerTestCase):
    host = "127.0.0.1"
    serve_static = True

    def test_a_course_from_its_roster_to_the_exported_gradebook(self) -> None:
        person("ines", Role.INSTRUCTOR, password=PASSWORD)
        person("sam", Role.STUDENT, password=PASSWORD)
        teacher = self.login("ines")
        self.course_create(teacher)
        tia_link = self.roster_upload(teacher, Path(self.scratch()) / "roster.csv")
        self.case_author(teacher)
        self.assign_paired(teacher)

        self.password_set(tia_link, "tia")
        students = {name: self.login(name) for name in ("sam", "tia")}
        for name, page in students.items():
            page.click("nav >> text=My assignments")
            assert "Wang v. Zhao (loan)" in page.text_content("main")
            if name == "sam":
                assert "not started" in page.text_content("main")
                page.click("button:has-text('Start')")
            else:
                assert "in progress" in page.text_content("main"), "her partner started their trial"
                page.click("a:has-text('Continue')")
            page.wait_for_url("**/trials/*/")
            screenshot(page, f"room-{name}", phone=True)
        trial = Trial.objects.get()
        assert {seat.user.username for seat in trial.seats.exclude(user=None)} == {"sam", "tia"}
        said = self.play_to_the_end(students)
        assert said["sam"] and said["tia"], "both students spoke as counsel"
        submitted = Attempt.objects.exclude(submitted_at=None)
        assert sorted(submitted.values_list("student__username", flat=True)) == ["sam", "tia"]

        self.comment_on_a_passage(teacher, trial, said["sam"][0])
        self.grade_and_export(teacher, trial)
        students["sam"].goto(f"{self.live_server_url}/assignments/")
        assert students["sam"].text_content("#feedback-unread") == "1", "the comment's notice"
        self.grades_release(teacher)
        self.grade_read(students["sam"])

        self.outsider_finds_nothing(trial)
        for page in (teacher, *students.values()):
            page.close()

    # The instructor's part

    def course_create(self, page) -> None:
        page.click("nav a[href='/teaching/courses/']")
        page.fill("input[name=title]", "Civil Procedure")
        page.fill("input[name=slug]", "civpro")
        page.fill("input[name=term]", "2026 autumn")
        page.click("text=Create the course")
        page.wait_for_url("**/teaching/courses/civpro/")

    def roster_upload(self, page, roster: Path) -> str:
        """Enrol sam (who has an account) and tia (who gets one); tia's set-password link."""
        roster.write_text("username,email,full_name\nsam,sam@example.org,Sam Li\ntia,tia@example.org,Tia Wu\n")
        page.set_input_files("input[name=roster]", str(roster))
        page.click("form:has(input[name=roster]) button[type=submit]")
        assert "Enrolled 2 from roster.csv; 1 new account(s)." in page.text_content("main")
        screenshot(page, "course-roster", phone=True)
        link = page.text_content("tr:has-text('tia') code")
        assert link and link.startswith(f"{self.live_server_url}/accounts/"), link
        return link

    def case_author(self, page) -> None:
        page.click("nav >> text=Authoring")
        page.click("text=Write a new case")
        page.select_option("select[name=language]", "en")
        for name, value in FORM.items():
            if name not in ("language", "procedure"):
                page.fill(f"[name='{name}']", value.replace("plaintiff | person | Wang", "plaintif | person | Wang"))
        assert page.is_hidden("fieldset[data-procedure=criminal]"), "only the civil sections show"
        page.click("button[value=playtest]")
        error = page.text_content("#field-parties .field-errors")
        assert "line 1: side: must be one of plaintiff, defendant, got 'plaintif'" in error
        assert page.is_hidden("#playtest"), "an invalid case is not play-tested"
        page.fill("[name=parties]", FORM["parties"])
        page.click("button[value=playtest]")
        page.wait_for_selector("#playtest")
        assert "to the end" in page.text_content("#playtest")
        assert page.locator("#playtest li.turn").count() > 20
        assert not Case.objects.exists() and not Trial.objects.exists(), "a play-test stores nothing"
        page.click("button[value=publish]")
        assert "is in the case library" in page.text_content("main")

    def assign_paired(self, page) -> None:
        page.goto(f"{self.live_server_url}/teaching/courses/civpro/")
        form = page.locator("form:has(select[name=case])")
        form.locator("select[name=case]").select_option("authored-loan")
        form.locator("input[name=seats][value=plaintiff_lawyer]").check()
        form.locator("input[name=seats][value=defendant_lawyer]").check()
        form.get_by_label("First-instance trial").check()
        due = (timezone.localtime() + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
        form.locator("input[name=due_at]").fill(due)
        form.locator("input[name=paired]").check()
        form.locator("button[type=submit]").click()
        page.wait_for_selector("#assignments details")
        page.click("#assignments details summary")
        page.click("button:has-text('Pair everyone not yet paired')")
        assert "sam" in page.text_content("#assignments") and "tia" in page.text_content("#assignments")

    def comment_on_a_passage(self, page, trial: Trial, words: str) -> None:
        """Drag the mouse over sam's first statement in the transcript: the selected words
        become the comment's passage."""
        page.goto(f"{self.live_server_url}/trials/{trial.pk}/transcript/")
        statement = page.locator(f".turn:has-text('{words}') .turn-text")
        statement.scroll_into_view_if_needed()
        box = statement.bounding_box()
        page.mouse.move(box["x"] + 1, box["y"] + 4)
        page.mouse.down()
        page.mouse.move(box["x"] + min(box["width"], 160), box["y"] + 4, steps=8)
        page.mouse.up()
        form = page.locator(f".turn:has-text('{words}') + .turn-comments details.comment-form")
        assert form.get_attribute("open") is not None, "selecting words opens the turn's comment form"
        passage = form.locator("textarea[name=excerpt]").input_value()
        assert passage and passage in words
        form.locator("textarea[name=text]").fill("State the amount owed before the interest.")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("aside.comment:has-text('State the amount owed')")
        screenshot(page, "transcript-comment", phone=True)
        assert passage in page.text_content("aside.comment blockquote")

    def grade_and_export(self, page, trial: Trial) -> None:
        page.goto(f"{self.live_server_url}/teaching/courses/civpro/gradebook/")
        cell = page.locator("tr[data-student=sam] td.grade-cell")
        cell.locator("input[name=grade]").fill("8.5")
        cell.locator("textarea[name=feedback]").fill("Clear claims; argue the interest rate.")
        cell.locator("button:has-text('Save')").click()
        page.wait_for_selector("tr[data-student=sam] td.grade-cell .muted:has-text('saved')")
        screenshot(page, "gradebook", phone=True)
        with page.expect_download() as download:
            page.click("a[href$='gradebook.csv']")
        rows = {row["student"]: row for row in csv.DictReader(open(download.value.path(), encoding="utf-8-sig"))}
        assert set(rows) == {"sam", "tia"}
        for row in rows.values():
            assert (row["trial_id"], row["status"], row["assignment"]) == (
                str(trial.pk),
                "submitted",
                "Wang v. Zhao (loan)",
            )
            assert row["submitted_at"] and row["overall"]
        assert (rows["sam"]["instructor_grade"], rows["sam"]["feedback"]) == (
            "8.5",
            "Clear claims; argue the interest rate.",
        )
        assert rows["tia"]["instructor_grade"] == ""

    def grades_release(self, page) -> None:
        page.goto(f"{self.live_server_url}/teaching/courses/civpro/gradebook/")
        assert "not released: the student does not see it" in page.text_content("tr[data-student=sam]")
        page.click("th button:has-text('Release the saved grades')")
        page.wait_for_selector("tr[data-student=sam] .released:has-text('not seen yet')")

    # The students' part

    def grade_read(self, page) -> None:
        """The released grade is announced beside Feedback, shown on My assignments and read
        with its feedback on the assignment's page."""
        page.goto(f"{self.live_server_url}/assignments/")
        assert page.text_content("#feedback-unread") == "2", "the comment and the grade"
        grade = page.locator("tr.assignment td.grade")
        assert "8.5" in grade.text_content() and grade.locator(".badge").count() == 1
        grade.locator("a").click()
        page.wait_for_url("**/assignments/*/#grade")
        assert page.text_content("#grade-value") == "8.5"
        assert page.text_content("#grade-feedback") == "Clear claims; argue the interest rate."
        screenshot(page, "assignment-grade-read", phone=True)
        page.reload()
        assert page.text_content("#feedback-unread") == "1", "the grade is read; the comment still waits"

    def password_set(self, link: str, username: str) -> None:
        page = self.browser.new_page()
        page.goto(link)
        screenshot(page, "password-set", phone=True)
        page.fill("input[name=new_password1]", PASSWORD)
        page.fill("input[name=new_password2]", PASSWORD)
        page.click("button[type=submit]")
        assert "Your password has been set" in page.text_content("main")
        page.close()

    def play_to_the_end(self, students: dict) -> dict[str, list[str]]:
        """Each student answers whenever their composer opens, until both rooms say the
        trial has ended; what each said."""
        said: dict[str, list[str]] = {name: [] for name in students}
        deadline = time.monotonic() + PLAY_S
        ended = "#banner-stage:has-text('The trial has ended')"
        while not all(page.locator(ended).count() for page in students.values()):
            assert time.monotonic() < deadline, f"the trial did not end in {PLAY_S} s: {said}"
            for name, page in students.items():
                if page.locator("#composer-send:enabled").count():
                    words = f"{name.title()}, statement {len(said[name]) + 1}: the IOU shows 50,000 yuan"
                    page.fill("#composer-text", words)
                    page.click("#composer-send")
                    page.wait_for_selector(f"li.turn.human:has-text('{words}')")
                    said[name].append(words)
            time.sleep(0.2)
        return said

    # Another course's student

    def outsider_finds_nothing(self, trial: Trial) -> None:
        outsider = person("xia", Role.STUDENT, password=PASSWORD)
        other = course_create(slug="crim", title="Criminal Law", instructor=person("olga", Role.INSTRUCTOR))
        course_enrol(course=other, usernames=[outsider.username])
        page = self.login("xia")
        for path in (
            f"/trials/{trial.pk}/",
            f"/trials/{trial.pk}/transcript/",
            f"/trials/{trial.pk}/scorecard/",
            f"/api/trials/{trial.pk}/",
            f"/api/trials/{trial.pk}/transcript/",
        ):
            assert page.request.get(f"{self.live_server_url}{path}").status == 404, path
        listed = page.request.get(f"{self.live_server_url}/api/trials/").json()
        assert trial.pk not in [item["id"] for item in listed["results"]]
        page.goto(f"{self.live_server_url}/assignments/")
        closed = page.evaluate(
            """(url) => new Promise((done) => {
                const socket = new WebSocket(url);
                socket.onclose = (event) => done(event.code);
            })""",
            f"{self.live_server_url.replace('http', 'ws')}/ws/trials/{trial.pk}/",
        )
        assert closed == 4404
        page.close()

    # Helpers

    def login(self, username: str):
        return page_logged_in(self.browser, self.live_server_url, username, PASSWORD)

    def scratch(self) -> str:
        directory = tempfile.mkdtemp(prefix="legalsim-course-")
        self.addCleanup(shutil.rmtree, directory, True)
        return directory
