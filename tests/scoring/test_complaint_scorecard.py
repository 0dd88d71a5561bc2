"""The complaint a student drafts at CD is scored field by field on the scorecard (MASER B.2):
numbers only, so the reference complaint's text never reaches the page from the complaint's
table, before the trial ends or after (the scorecard's existing reveal of what was not raised
is the only place the reference shows, once the trial is over)."""

from __future__ import annotations

import copy
import html
import itertools
import re

import pytest
from channels.db import database_sync_to_async

from tests.conftest import CIVIL_CASE
from tests.scoring.test_scorecard import page
from tests.trials.test_room import connect, make_trial, play, stop_drivers  # noqa: F401 (fixture)
from trials.models import Trial

pytestmark = pytest.mark.django_db(transaction=True)
CANARY = "CANARY-COMPLAINT-4471 the IOU was signed at the Lotus teahouse"
COMPLAINT = {
    "parties": "Plaintiff: Zhang Wei, lender\nDefendant: Li Na, borrower",
    "claims": "1. Repay the RMB 50,000 principal\n2. Pay interest at the LPR from 1 March 2023",
    "facts_and_reasons": "On 1 March 2022 the plaintiff lent RMB 50,000 to the defendant.",
    "court": "To the District People's Court",
}
SAYS = itertools.count()
"""Every say's client id is new (a repeated id is taken for a resend and dropped)."""


def seed_with_canary() -> dict:
    seed = copy.deepcopy(CIVIL_CASE)
    seed["first_instance"]["facts_and_reasons"] += f" {CANARY}."
    return seed


def complaint_section(card: str) -> str:
    match = re.search(r'<section id="complaint-scores">(.*?)</section>', card, re.DOTALL)
    assert match, "the scorecard has the complaint's fields"
    return match.group(1)


async def draft_then_wait_for_the_hearing(communicator) -> dict:
    """Play the student's CD (the complaint from the sectioned editor); the first await of the
    hearing, unanswered."""
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        if frame["type"] != "await" or frame["seat"] != "plaintiff_lawyer":
            continue
        if frame["stage"] != "CD":
            return frame
        if "document" in frame:
            await communicator.send_json_to({"type": "say", "text": "", "sections": COMPLAINT, "client_id": "doc"})
        else:
            await communicator.send_json_to({"type": "say", "text": "Noted.", "client_id": f"c{next(SAYS)}"})


async def finish(communicator, pending: dict | None = None) -> None:
    """Answer the student's awaits (``pending`` first) until the trial ends."""
    frame = pending or await communicator.receive_json_from(timeout=10)
    while frame["type"] != "end":
        if frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer":
            text = f"As counsel in {frame['phase']}: the loan of RMB 50,000 is unpaid."
            say = {"type": "say", "text": text, "client_id": f"c{next(SAYS)}", "decision": "decline"}
            await communicator.send_json_to(say)
        frame = await communicator.receive_json_from(timeout=10)


async def test_the_drafted_complaint_is_scored_per_field_and_the_reference_never_shown_early():
    trial = await make_trial({"plaintiff_lawyer": "student"}, stages=("CD", "FIT"), seed=seed_with_canary())
    communicator = await connect(trial, "student")
    hearing = await draft_then_wait_for_the_hearing(communicator)

    running = await page(f"/trials/{trial.pk}/scorecard/")
    rows = re.findall(r"<tr><td>([^<]+)</td><td>([\d.–]+)</td></tr>", html.unescape(complaint_section(running)))
    assert [name for name, _ in rows] == [
        "Plaintiff's particulars",
        "Defendant's particulars",
        "Facts",
        "Reasons",
        "Claims",
        "Evidence",
        "Standardability",
        "Professionalism",
    ]
    values = dict(rows)
    assert values["Claims"] == "10.0" and values["Evidence"] == "0.0", "the claims pleaded, no evidence listed"
    assert CANARY not in running

    await finish(communicator, hearing)
    await communicator.disconnect()
    trial = await database_sync_to_async(Trial.objects.get)(pk=trial.pk)
    assert trial.status == Trial.Status.FINISHED
    card = await page(f"/trials/{trial.pk}/scorecard/")
    assert CANARY not in complaint_section(card)


async def test_a_complaint_drafted_by_an_agent_before_the_student_joined_is_not_the_students():
    trial = await make_trial({"plaintiff_lawyer": "student"}, stages=("FIT",), seed=seed_with_canary())
    communicator = await connect(trial, "student")
    await play(communicator, {"plaintiff_lawyer"})
    await communicator.disconnect()
    card = await page(f"/trials/{trial.pk}/scorecard/")
    assert "Drafting the complaint: played by an agent" in card
    assert 'id="complaint-scores"' not in card
