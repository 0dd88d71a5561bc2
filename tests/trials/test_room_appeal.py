"""Who appeals in the live room (issue #17): the first-instance judgment as the trial gave it
decides, over the websocket contract; a side's decision is an explicit choice with its words."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tests.conftest import DEMO_CASES
from tests.trials.test_room import connect, make_trial, stop_drivers  # noqa: F401 (stop_drivers: autouse)
from trials.models import Trial

pytestmark = pytest.mark.django_db(transaction=True)


async def follow(
    student: WebsocketCommunicator,
    seat: str,
    *,
    until,
    decision: str | None = None,
    lines: dict[str, str] | None = None,
) -> list[dict]:
    """Answer each await of ``seat`` once (with ``lines[act]`` when given; an appeal answer with
    ``decision``) and collect the frames until ``until(frame)``."""
    frames: list[dict] = []
    answered: set[int] = set()
    while True:
        frame = await student.receive_json_from(timeout=20)
        frames.append(frame)
        if until(frame):
            return frames
        if frame["type"] == "await" and frame["seat"] == seat and frame["seq"] not in answered:
            answered.add(frame["seq"])
            text = (lines or {}).get(frame["act"], f"Counsel on {frame['act']}.")
            say = {"type": "say", "text": text, "client_id": f"s{frame['seq']}"}
            if frame["act"] == "answer_appeal":
                say["decision"] = decision
            await student.send_json_to(say)


@database_sync_to_async
def state_of(trial: Trial):
    return Trial.objects.get(pk=trial.pk).engine_state


PROVED_DIVISION = {
    "state_claims": "请求依法分割被告名下证券账户内离婚时的资产480000元，原告分得60%即288000元。",
    "present_evidence": "原告出示：离婚协议书及离婚证；法院调取的证券账户对账单；被告工资卡向证券账户转账的银行流水。",
}


def division_won() -> dict:
    """The post-divorce case with the ex-husband producing nothing: his premarital RMB 200,000
    and the rest of his defence argued but unproved, the offline court grants the ex-wife's
    whole claim on the evidence her counsel produces (with his deposit slip it takes the
    200,000 off, as the rule says)."""
    case = json.loads((DEMO_CASES / "zh-civil-post-divorce-property.json").read_text(encoding="utf-8"))
    evidence = case["first_instance"]["evidence"]
    case["first_instance"]["evidence"] = [item for item in evidence if item["side"] != "defendant"]
    return case


async def test_counsel_whose_claims_were_all_granted_is_not_asked_and_answers_the_other_sides_appeal():
    """The real ex-wife appealed, but this trial granted her claim on the evidence her counsel
    produced: the ex-husband's agent counsel appeals and the student responds (the bug: they
    were told to draft an appeal)."""
    trial = await make_trial({"plaintiff_lawyer": "student"}, stages=("FIT", "AR"), seed=division_won())
    student = await connect(trial, "student")
    frames = await follow(
        student, "plaintiff_lawyer", lines=PROVED_DIVISION, until=lambda frame: frame["type"] == "end"
    )
    await student.disconnect()

    asked = [(frame["stage"], frame["act"]) for frame in frames if frame["type"] == "await"]
    assert not any(act == "answer_appeal" for _stage, act in asked)
    assert ("AR", "draft_appeal_response") in asked and not any(stage == "AD" for stage, _act in asked)
    assert {"type": "artifact", "kind": "appeal_determination", "title": "上诉审查决定"} in frames
    assert not any(f["type"] == "turn.end" and f["stage"] == "AD-Det" for f in frames), "the other side decides alone"
    state = await state_of(trial)
    decided = [(turn.seat, turn.author, turn.decision) for turn in state.turns if turn.stage == "AD-Det"]
    assert decided == [("defendant_lawyer", "agent", "appeal")] and state.appellant_side == "defendant"


async def test_counsel_who_lost_must_decide_with_words_and_declining_makes_the_judgment_final():
    trial = await make_trial({"defendant_lawyer": "student"}, stages=("FIT", "SIT"))
    student = await connect(trial, "student")
    frames = await follow(
        student, "defendant_lawyer", until=lambda frame: frame["type"] == "await" and frame["act"] == "answer_appeal"
    )
    assert frames[-1]["stage"] == "AD-Det" and frames[-1]["speaker"]
    await student.send_json_to({"type": "say", "text": "We let it rest.", "client_id": "undecided"})
    refused = await student.receive_json_from(timeout=10)
    while refused["type"] != "error":
        refused = await student.receive_json_from(timeout=10)
    assert refused["code"] == "bad_message" and "appeal or decline" in refused["message"]
    words = "My client accepts the judgment and will pay."
    await student.send_json_to({"type": "say", "text": words, "client_id": "decided", "decision": "decline"})
    rest = await follow(student, "defendant_lawyer", until=lambda frame: frame["type"] == "end")
    await student.disconnect()

    assert {"type": "artifact", "kind": "appeal_determination", "title": "Judgment final"} in rest
    assert not any(frame["type"] == "await" for frame in rest), "nothing more is asked"
    state = await state_of(trial)
    assert state.stage_history == ["LC", "DD", "FIT", "AD-Det"] and state.finished
    assert [(turn.text, turn.decision) for turn in state.turns if turn.stage == "AD-Det"] == [(words, "decline")]
    assert "has become final" in state.artifacts[-1].text


async def test_counsel_who_lost_and_appeals_drafts_the_appeal():
    trial = await make_trial({"defendant_lawyer": "student"}, stages=("FIT", "SIT"))
    student = await connect(trial, "student")
    frames = await follow(
        student,
        "defendant_lawyer",
        decision="appeal",
        until=lambda frame: frame["type"] == "await" and frame["stage"] == "AD",
    )
    await student.disconnect()

    assert frames[-1]["act"] == "review_judgment" and frames[-1]["seat"] == "defendant_lawyer"
    state = await state_of(trial)
    assert state.appellant_side == "defendant"
    assert [turn.decision for turn in state.turns if turn.stage == "AD-Det"] == ["appeal"]


async def test_counsel_not_asked_about_the_appeal_is_told_who_appealed():
    """Issue 32 item 8: "Deciding whether to appeal" passed with no message for counsel whose
    side won; the court's determination (who appealed) now reaches their room."""
    trial = await make_trial({"plaintiff_lawyer": "student"}, stages=("FIT", "AR"), seed=division_won())
    student = await connect(trial, "student")
    frames = await follow(
        student, "plaintiff_lawyer", lines=PROVED_DIVISION, until=lambda frame: frame["type"] == "notice"
    )
    await student.disconnect()
    notice = frames[-1]
    assert (notice["stage"], notice["title"]) == ("AD-Det", "上诉审查决定")
    assert "提起上诉" in notice["text"] and "上诉人" in notice["text"], "who appealed, and who answers"


async def test_counsel_whose_client_is_an_agent_advises_it_on_mediation_before_it_answers():
    """Issue 32 item 8: counsel alone was never asked about mediation."""
    trial = await make_trial({"plaintiff_lawyer": "student"})
    student = await connect(trial, "student")
    advice = "I advise my client to accept mediation."
    frames = await follow(
        student,
        "plaintiff_lawyer",
        lines={"summarise_advice": advice},
        until=lambda frame: frame["type"] == "turn.end" and frame.get("act") == "answer_mediation",
    )
    await student.disconnect()
    asked = [frame for frame in frames if frame["type"] == "await" and frame["act"] == "summarise_advice"]
    assert len(asked) == 1 and asked[0]["phase"] == "mediation"
    said = [
        frame
        for frame in frames
        if frame["type"] == "turn.end" and frame.get("act") == "summarise_advice" and frame["stage"] == "FIT"
    ]
    assert [(frame["seat"], frame["text"], frame["author"]) for frame in said] == [
        ("plaintiff_lawyer", advice, "human")
    ]
    assert frames[-1]["seat"] == "plaintiff_client" and frames[-1]["seq"] == said[0]["seq"] + 1
