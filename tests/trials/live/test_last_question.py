"""A student interviewing the client asks as many follow-up questions as they need, up to the
procedure's six, and closes the interview with a "last question" (issue #44 item 2)."""

from __future__ import annotations

import pytest

from court.procedures.civil import FOLLOW_UPS
from tests.trials.test_room import (
    connect,
    make_trial,
    stop_drivers,  # noqa: F401  (autouse: no driver outlives a test)
)

pytestmark = pytest.mark.django_db(transaction=True)
CASE = "zh-civil-private-lending"


async def acts_asked(communicator, *, last_on: int | None, until: str) -> list[str]:
    """The acts the lawyer's seat is asked for, up to the first ``until``; each follow-up
    question is answered, the ``last_on``-th (counting from 1) ticked as the last."""
    asked, questions = [], 0
    while True:
        frame = await communicator.receive_json_from(timeout=20)
        if frame["type"] != "await" or frame["seat"] != "plaintiff_lawyer":
            continue
        asked.append(frame["act"])
        if frame["act"] == until:
            return asked
        questions += frame["act"] == "ask_follow_up"
        message = {
            "type": "say",
            "text": f"Question {len(asked)}: when was the loan due?",
            "client_id": str(frame["seq"]),
        }
        await communicator.send_json_to({**message, "last": questions == last_on})


async def test_the_lawyer_asks_every_follow_up_the_procedure_allows_when_none_is_the_last():
    trial = await make_trial({"plaintiff_lawyer": "alice"}, stages=["LC"], case_id=CASE)
    alice = await connect(trial, "alice")
    asked = await acts_asked(alice, last_on=None, until="answer_question")
    await alice.disconnect()
    assert asked.count("ask_follow_up") == FOLLOW_UPS


async def test_a_last_question_closes_the_interview_after_its_answer():
    trial = await make_trial({"plaintiff_lawyer": "alice"}, stages=["LC"], case_id=CASE)
    alice = await connect(trial, "alice")
    asked = await acts_asked(alice, last_on=2, until="answer_question")
    await alice.disconnect()
    assert asked == ["ask_follow_up", "ask_follow_up", "answer_question"]


async def test_last_must_be_true_or_false():
    trial = await make_trial({"plaintiff_lawyer": "alice"}, stages=["LC"], case_id=CASE)
    alice = await connect(trial, "alice")
    while (frame := await alice.receive_json_from(timeout=20))["type"] != "await":
        continue
    await alice.send_json_to({"type": "say", "text": "Anything else?", "client_id": "x", "last": "yes"})
    while (frame := await alice.receive_json_from(timeout=20))["type"] != "error":
        continue
    await alice.disconnect()
    assert frame["code"] == "bad_message" and "last" in frame["message"]
