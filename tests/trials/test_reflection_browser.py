"""An instructor reviews the reflective skill notes in chromium (issue #19 item 6): reads the
notes of a cause, corrects one and narrows its stages, then compares trials with and without
notes in Table 4 of the model profile page, on a desktop and on a phone.

The notes and the scored trials are stored directly (the loopback-model tests in
``test_reflection.py`` cover how they come to be); the trials' overalls are set so the table
has known figures to check."""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.contrib.staticfiles.testing import StaticLiveServerTestCase
from django.core.management import call_command

from legalsim.roles import Role
from tests.browser import PHONE, WithChromium, page_logged_in, screenshot
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import SkillNote, Trial
from trials.reflection import note_value
from trials.services import cases_import

CASE = "zh-civil-private-lending"


class SkillNotesInTheBrowser(WithChromium, StaticLiveServerTestCase):
    def setUp(self) -> None:
        cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
        for _ in range(2):
            call_command("simulate", CASE, "--backend", "scripted", "--until", "FIT", "--json")
        base, with_notes = Trial.objects.order_by("pk")
        self.note = SkillNote.objects.create(
            cause_of_action=base.case.cause_of_action,
            language="zh",
            role="lawyer",
            stages=["CD", "FIT"],
            trigger="被告主张已部分还款而原告的银行流水未显示该笔款项",
            principle="在法庭辩论前申请法院调取银行流水，而不是就金额反复争辩",
            expected_output="一份书面调查取证申请，写明账户和期间",
            source_trial=base,
            source_case=CASE,
            model="scripted",
        )
        with_notes.skill_notes = [note_value(self.note).as_dict()]
        with_notes.save(update_fields=["skill_notes"])
        with tempfile.TemporaryDirectory() as folder:
            call_command("score_trials", "--all", "--out", str(Path(folder) / "scores.json"))
        base.scores.update(overall=0.61)
        with_notes.scores.update(overall=0.67)
        self.instructor = person("ines", Role.INSTRUCTOR, password="pw-ines-2026")

    def test_an_instructor_corrects_a_note_and_compares_trials_with_and_without_notes(self) -> None:
        page = page_logged_in(self.browser, self.live_server_url, "ines", "pw-ines-2026")
        page.goto(f"{self.live_server_url}/scoring/notes/")
        note = page.locator(f"#note-{self.note.pk}")
        assert "在法庭辩论前申请法院调取银行流水" in note.inner_text()
        screenshot(page, "skill-notes", phone=True)

        note.get_by_role("link", name="Edit").click()
        page.fill("#id_principle", "开庭前书面申请法院调取银行流水")
        page.uncheck("input[name=stages][value=CD]")
        screenshot(page, "skill-note-edit", phone=True)
        page.click("main form.card button[type=submit]")
        page.wait_for_load_state()
        assert page.url.endswith("/scoring/notes/")
        self.note.refresh_from_db()
        assert (self.note.principle, self.note.stages) == ("开庭前书面申请法院调取银行流水", ["FIT"])
        assert "开庭前书面申请法院调取银行流水" in page.locator(f"#note-{self.note.pk}").inner_text()

        page.goto(f"{self.live_server_url}/scoring/models/")
        row = page.locator("#table4 tbody tr").first
        cells = [cell.strip() for cell in row.locator("td").all_inner_texts()]
        assert cells[3:6] == ["6.1", "6.7", "+0.6"], "base, with notes and the difference out of 10"
        assert cells[6] == "+0.6" and cells[7] == "–", "the only case is the one reflected on: no held-out case"
        screenshot(page, "model-profile-table4")
        page.set_viewport_size(PHONE)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"the page is {width} px wide on a phone"
        screenshot(page, "model-profile-table4-phone")
