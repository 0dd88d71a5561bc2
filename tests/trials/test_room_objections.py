"""Objections in the live room over the websocket contract: while a statement streams (it
is cut), within the grace period after one ends (it stays whole), too late (refused), and
ruled on by an agent judge or by a student presiding."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.llm_server import LoopbackLLM, default_brain, tool_names
from tests.trials.test_room import connect, make_trial, stop_drivers  # noqa: F401 (stop_drivers: autouse)
from trials.models import Trial, Turn

pytestmark = pytest.mark.django_db(transaction=True)


async def test_an_objection_stops_the_stream_and_the_judge_rules(settings):
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 20
    trial = await make_trial({"plaintiff_lawyer": "student"})
    student = await connect(trial, "student")
    frames: list[dict] = []
    objected_seq = None
    while True:
        frame = await student.receive_json_from(timeout=15)
        frames.append(frame)
        if frame["type"] == "await":
            await student.send_json_to(
                {"type": "say", "text": "Counsel for the plaintiff.", "client_id": f"c{len(frames)}"}
            )
        if frame["type"] == "turn.delta" and objected_seq is None:
            start = next(f for f in frames if f["type"] == "turn.start" and f["seq"] == frame["seq"])
            if start["seat"] == "defendant_lawyer" and frame["offset"] > 0:
                objected_seq = frame["seq"]
                await student.send_json_to(
                    {"type": "objection", "ground": "irrelevant", "text": "This goes beyond the points in dispute."}
                )
        if (
            frame["type"] == "turn.end"
            and frame.get("act_hint") is None
            and frame["seat"] == "judge"
            and objected_seq
            and frame["seq"] > objected_seq
        ):
            ruling = frame
            break
    await student.disconnect()
    ends = {f["seq"]: f for f in frames if f["type"] == "turn.end"}
    cut, objection = ends[objected_seq], ends[objected_seq + 1]
    assert cut["text"].endswith("—") and cut["seat"] == "defendant_lawyer"
    assert (
        objection["seat"] == "plaintiff_lawyer"
        and objection["author"] == "human"
        and objection["text"] == "Objection: irrelevant. This goes beyond the points in dispute."
    )
    assert ruling["seq"] == objected_seq + 2 and ruling["text"].startswith("Overruled"), "the defence is on the point"
    assert "goes to a point in dispute" in ruling["text"] or "barely begun" in ruling["text"], "the ruling says why"
    stored = await database_sync_to_async(lambda: list(Turn.objects.filter(trial=trial).values_list("seq", "text")))()
    assert [seq for seq, _ in stored] == list(range(1, len(stored) + 1))
    full = await database_sync_to_async(lambda: Turn.objects.get(trial=trial, seq=objected_seq).text)()
    shown = "".join(f["text"] for f in frames if f["type"] == "turn.delta" and f["seq"] == objected_seq)
    assert full == f"{shown.rstrip()} —", "only what was already shown stays on the record"


async def test_a_student_judge_rules_on_an_objection_before_the_trial_goes_on(settings):
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 20
    trial = await make_trial({"plaintiff_lawyer": "counsel", "judge": "presiding"})
    counsel, judge = await connect(trial, "counsel"), await connect(trial, "presiding")
    objected_seq, ruling_await = None, None
    frames: list[dict] = []
    while ruling_await is None:
        frame = await counsel.receive_json_from(timeout=15)
        frames.append(frame)
        if frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer":
            await counsel.send_json_to({"type": "say", "text": "Counsel speaks.", "client_id": f"p{len(frames)}"})
        elif frame["type"] == "await" and frame["seat"] == "judge" and frame["act"] == "rule_objection":
            ruling_await = frame
        elif frame["type"] == "await" and frame["seat"] == "judge":
            await judge.send_json_to({"type": "say", "text": "Proceed.", "client_id": f"j{len(frames)}"})
        elif frame["type"] == "turn.delta" and objected_seq is None:
            start = next(f for f in frames if f["type"] == "turn.start" and f["seq"] == frame["seq"])
            if start["seat"] == "defendant_lawyer" and frame["offset"] > 0:
                objected_seq = frame["seq"]
                await counsel.send_json_to({"type": "objection", "ground": "leading"})
    premature = {"type": "say", "text": "I continue my statement.", "client_id": "early"}
    await counsel.send_json_to(premature)
    while (refusal := await counsel.receive_json_from(timeout=10))["type"] != "error":
        pass
    assert refusal["code"] == "not_your_turn", "nothing goes on until the judge rules"
    await judge.send_json_to({"type": "say", "text": "Overruled: the question is proper.", "client_id": "ruling"})
    while (ruled := await counsel.receive_json_from(timeout=10))["type"] != "turn.end" or ruled[
        "seq"
    ] != objected_seq + 2:
        pass
    await counsel.disconnect()
    await judge.disconnect()
    assert ruled["seat"] == "judge" and ruled["author"] == "human" and ruled["text"].startswith("Overruled")
    stored = await database_sync_to_async(lambda: list(Turn.objects.filter(trial=trial).order_by("seq")))()
    assert [turn.act for turn in stored[objected_seq : objected_seq + 2]] == ["object", "rule_objection"]
    assert [turn.seq for turn in stored] == list(range(1, len(stored) + 1))


async def test_an_objection_within_the_grace_period_after_a_statement_is_heard_and_a_late_one_refused(settings):
    settings.LEGALSIM_OBJECTION_GRACE_S = 1.0
    trial = await make_trial({"plaintiff_lawyer": "student"})
    student = await connect(trial, "student")
    statements: list[dict] = []
    last_seat, late_refusal = None, None
    while late_refusal is None:
        frame = await student.receive_json_from(timeout=15)
        if frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer":
            if statements and last_seat == "defendant_lawyer":
                # The other side spoke last, but the trial has moved on to this seat's turn.
                await student.send_json_to({"type": "objection", "ground": "irrelevant"})
                continue
            await student.send_json_to({"type": "say", "text": "Counsel speaks.", "client_id": f"s{frame['seq']}"})
        elif frame["type"] == "turn.end":
            last_seat = frame["seat"]
            if frame["seat"] == "defendant_lawyer" and not statements:
                statements.append(frame)
                await student.send_json_to({"type": "objection", "ground": "irrelevant"})
        elif frame["type"] == "error":
            late_refusal = frame
    await student.disconnect()
    assert late_refusal["code"] == "not_your_turn" and "the moment has passed" in late_refusal["message"]
    turns = await database_sync_to_async(lambda: Trial.objects.get(pk=trial.pk).engine_state.turns)()
    objected = statements[0]["seq"]
    statement, objection, ruling = turns[objected - 1 : objected + 2]
    assert statement.text == statements[0]["text"] and not statement.text.endswith("—"), "the statement stays whole"
    assert (objection.act, objection.text) == ("object", "Objection: irrelevant.")
    assert ruling.seat == "judge" and ruling.text.startswith(("Sustained", "Overruled"))
    assert sum(turn.act == "object" for turn in turns) == 1, "the late objection left no trace"


def slow_counsel(request: dict) -> str | dict:
    """The defence counsel's model writes at length; every other seat answers as usual."""
    if request["model"] == "slow-counsel" and not tool_names(request):
        return "Counsel for the defendant submits that " + "the crossing was clear and the signal was green; " * 40
    return default_brain(request)


async def test_an_objection_stops_the_models_generation(openai_settings):
    """Real models issue: a cut generation used to run on to its end on the model server.
    Now the driver closes the model's stream at its next token and the call is stored as cut;
    the trial plays on to its end."""
    openai_settings.LEGALSIM_AGENT_BACKEND = "openai"
    openai_settings.LEGALSIM_SEAT_MODELS = {
        "defendant_lawyer": {"model": "slow-counsel", "base_url": "", "api_key": ""}
    }
    with LoopbackLLM(slow_counsel, chunk_delay_s=0.02) as server:
        openai_settings.OPENAI_BASE_URL = server.base_url
        trial = await make_trial({"plaintiff_lawyer": "student"})
        student = await connect(trial, "student")
        objected_seq, seats = None, {}
        while (frame := await student.receive_json_from(timeout=30))["type"] != "end":
            if frame["type"] == "turn.start":
                seats[frame["seq"]] = frame["seat"]
            if frame["type"] == "await":
                await student.send_json_to(
                    {"type": "say", "text": "Counsel.", "client_id": f"c{frame['seq']}", "decision": "decline"}
                )
            if frame["type"] == "turn.delta" and objected_seq is None and seats.get(frame["seq"]) == "defendant_lawyer":
                objected_seq = frame["seq"]
                await student.send_json_to({"type": "objection", "ground": "argumentative"})
        await student.disconnect()
    assert [request["model"] for request in server.abandoned] == ["slow-counsel"], "the model's stream was closed"
    cut = await database_sync_to_async(lambda: Turn.objects.get(trial=trial, seq=objected_seq).text)()
    assert cut.endswith("—") and len(cut) < 500, "only what was shown before the objection stands"
    calls = await database_sync_to_async(
        lambda: list(Trial.objects.get(pk=trial.pk).llm_calls.filter(error__startswith="cancelled"))
    )()
    assert [(call.seat, call.model) for call in calls] == [("defendant_lawyer", "slow-counsel")]


async def criminal_objection(ground: str, seat: str, act: str, phase: str) -> tuple[list[dict], int, Trial]:
    """Defence counsel (a student) in a criminal trial's evidence stage objects on ``ground``
    while ``seat`` makes ``act`` in ``phase``; the frames until the trial ends, and the seq cut."""
    trial = await make_trial({"attorney": "student"}, stages=("evidence",), case_id="en-criminal-telecom-fraud")
    student = await connect(trial, "student")
    frames: list[dict] = []
    starts: dict[int, dict] = {}
    objected_seq = None
    while (frame := await student.receive_json_from(timeout=20))["type"] != "end":
        frames.append(frame)
        assert frame["type"] != "error", frame
        if frame["type"] == "turn.start":
            starts[frame["seq"]] = frame
        if frame["type"] == "await" and frame["seat"] == "attorney":
            await student.send_json_to(
                {"type": "say", "text": "The defence has its say.", "client_id": f"a{frame['seq']}"}
            )
        if frame["type"] == "turn.delta" and objected_seq is None and frame["offset"] > 0:
            start = starts[frame["seq"]]
            if (start["seat"], start["phase"]) == (seat, phase) and start.get("act", act) == act:
                objected_seq = frame["seq"]
                await student.send_json_to({"type": "objection", "ground": ground})
    await student.disconnect()
    assert objected_seq is not None
    return frames, objected_seq, trial


async def test_an_objection_to_the_last_statement_of_the_evidence_stage_never_pauses_the_trial(settings):
    """Issue 32 item 2: leading question against the prosecutor's answer to the defence's
    evidence used to pause the trial with "unexpected error (EngineError)" and lose the objection."""
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 40
    _, cut_seq, trial = await criminal_objection("leading", "prosecutor", "cross_examine", "defence_evidence")
    trial = await database_sync_to_async(Trial.objects.get)(pk=trial.pk)
    assert trial.status == Trial.Status.FINISHED and not trial.pause_reason
    turns = {turn.seq: turn for turn in await database_sync_to_async(lambda: list(trial.turns.all()))()}
    assert (turns[cut_seq + 1].act, turns[cut_seq + 1].text) == ("object", "Objection: leading question.")
    assert turns[cut_seq + 2].act == "rule_objection" and turns[cut_seq + 2].text.startswith("Overruled")


async def test_an_overruled_objection_lets_the_statement_finish_where_it_was_cut(settings):
    """Issue 32 item 3: overruled, the statement resumes from where it was cut; together the
    two parts are the statement the speaker would have made."""
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 40
    frames, cut_seq, trial = await criminal_objection("leading", "prosecutor", "cross_examine", "defence_evidence")
    ends = {f["seq"]: f for f in frames if f["type"] == "turn.end"}
    cut, ruling, rest = ends[cut_seq], ends[cut_seq + 2], ends[cut_seq + 3]
    assert ruling["ruling"] == "overruled" and ruling["act"] == "rule_objection"
    assert (rest["seat"], rest["act"]) == ("prosecutor", "cross_examine") and rest["text"].startswith("— ")
    streamed = "".join(f["text"] for f in frames if f["type"] == "turn.delta" and f["seq"] == cut_seq + 3)
    assert streamed == rest["text"], "only the rest of the statement is streamed"
    said, resumed = cut["text"].removesuffix(" —"), rest["text"].removeprefix("— ")
    assert said and resumed and not resumed.startswith(said[:20]), "the rest, not the statement again"
    whole = await database_sync_to_async(_prosecutor_words)(trial, cut_seq)
    assert (said + " " + resumed).split() == whole.split(), "nothing said twice, nothing lost"


def _prosecutor_words(trial: Trial, seq: int) -> str:
    """What the scripted prosecutor says at turn ``seq``'s step, in the same trial played again
    by scripted agents without the objection."""
    from court.engine.machine import next_step, step_apply, trial_start
    from court.engine.steps import MemoryUpdate, Speak, UpdateMemory
    from tests.court.engine.test_objections import respond

    state = trial_start(case=trial.case.seed, target_side=trial.target_side, human_seats={"attorney": "student"})
    while True:
        step = next_step(state)
        if isinstance(step, Speak) and (step.seat, step.act, step.phase) == (
            "prosecutor",
            "cross_examine",
            "defence_evidence",
        ):
            return respond(state, step).text
        if isinstance(step, Speak):
            step_apply(state, step, respond(state, step))
        else:
            step_apply(state, step, MemoryUpdate() if isinstance(step, UpdateMemory) else None)


HEARSAY_AND_BANK = (
    "The prosecution presents:\n"
    "1. Bank statements of the three accounts: a bank clerk told me they show the money passing through.\n"
    "2. Victims' statements and transfer records, to prove that three victims were defrauded."
)


async def test_a_sustained_objection_strikes_the_exhibit_it_goes_to_and_the_record_leaves_only_that_out(settings):
    """Issue 41 item 2: a student prosecutor offers one exhibit on what a bank clerk said and
    one on its own; defence counsel (a student) objects "hearsay" just after. The court
    strikes the first, says so, lets the second stand, and the record keeps the second."""
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 200
    settings.LEGALSIM_OBJECTION_GRACE_S = 2.0
    trial = await make_trial(
        {"prosecutor": "pros", "attorney": "def"}, stages=("evidence",), case_id="en-criminal-telecom-fraud"
    )
    prosecutor, defence = await connect(trial, "pros"), await connect(trial, "def")
    offered, ruling = None, None
    while (frame := await prosecutor.receive_json_from(timeout=20))["type"] != "end":
        if frame["type"] == "turn.end" and frame["act"] == "present_evidence" and frame["seat"] == "prosecutor":
            offered = frame
            await defence.send_json_to({"type": "objection", "ground": "hearsay"})
            while (heard := await defence.receive_json_from(timeout=20))["type"] != "turn.end" or heard[
                "act"
            ] != "object":
                assert heard["type"] != "error", heard
        elif frame["type"] == "turn.end" and frame["act"] == "rule_objection":
            ruling = frame
        elif frame["type"] == "await" and (offered is None or ruling is not None):
            seat, text = frame["seat"], "The defence has its say."
            if seat == "prosecutor":
                text = HEARSAY_AND_BANK if frame["act"] == "present_evidence" else "Nothing to add."
            await (prosecutor if seat == "prosecutor" else defence).send_json_to(
                {"type": "say", "text": text, "client_id": f"{seat}{frame['seq']}"}
            )
    await prosecutor.disconnect()
    await defence.disconnect()
    assert ruling["ruling"] == "sustained" and ruling["seq"] == offered["seq"] + 2
    assert "The court strikes “Bank statements of the three accounts”." in ruling["text"], ruling["text"]
    assert "“Victims' statements and transfer records” stands" in ruling["text"]
    stored = await database_sync_to_async(lambda: Trial.objects.get(pk=trial.pk).engine_state)()
    from agents.scripted.heard import heard_of

    dialogue = [
        {"seq": t.seq, "phase": t.phase, "act": t.act, "seat": t.seat, "text": t.text}
        for t in stored.turns
        if t.stage == "evidence"
    ]
    heard = next(turn["text"] for turn in heard_of(dialogue).turns if turn["seq"] == offered["seq"])
    assert "Victims' statements" in heard and "Bank statements" not in heard, "only the struck exhibit is left out"
    assert heard_of(dialogue).struck == {"Bank statements of the three accounts"}
