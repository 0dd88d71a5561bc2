"""The live trial room over the websocket contract, with channels' WebsocketCommunicator."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.management import call_command
from django.db import connections

from legalsim.roles import Role
from tests.cases import case_stored
from tests.conftest import DEMO_CASES
from tests.llm_server import supervisor_approves
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.live import driver
from trials.models import Case, Trial, Turn
from trials.preparation import trial_prepare
from trials.routing import websocket_urlpatterns
from trials.services import cases_import

pytestmark = pytest.mark.django_db(transaction=True)
CASE = "en-civil-traffic-accident"


@pytest.fixture(autouse=True)
async def stop_drivers(settings):
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 0
    settings.LEGALSIM_OBJECTION_GRACE_S = 0
    yield
    await driver.stop_all()
    await database_sync_to_async(connections.close_all)()


@database_sync_to_async
def make_trial(
    humans: dict[str, str],
    stages: list[str] | None = ("FIT",),
    case_id: str = CASE,
    seed: dict | None = None,
    target_side: str | None = None,
) -> Trial:
    if seed is not None:
        case_stored(seed)
    else:
        cases_import(paths=[DEMO_CASES / f"{case_id}.json"])
    users = {seat: person(name, Role.STUDENT) for seat, name in humans.items()}
    return prepared_trial(
        case=Case.objects.get(pk=seed["id"] if seed else case_id),
        humans=users,
        stages=list(stages) if stages else None,
        target_side=target_side,
    )


async def connect(trial: Trial, username: str, after_seq: int = 0) -> WebsocketCommunicator:
    user = await database_sync_to_async(lambda: person(username, Role.STUDENT))()
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/trials/{trial.pk}/?after_seq={after_seq}"
    )
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def play(
    communicator: WebsocketCommunicator, seats: set[str], *, until_end: bool = True, frames: list | None = None
) -> list[dict]:
    """Answer every await for ``seats`` and collect frames until the end frame."""
    frames = [] if frames is None else frames
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        frames.append(frame)
        if frame["type"] == "await" and frame["seat"] in seats:
            await communicator.send_json_to(
                {
                    "type": "say",
                    "text": f"As {frame['seat']} in {frame['phase']}: my submission.",
                    "client_id": f"{frame['seat']}-{frame['seq']}",
                    "decision": "decline",
                }
            )
        if frame["type"] == "end" and until_end:
            return frames


def completed(frames: list[dict]) -> list[int]:
    return [frame["seq"] for frame in frames if frame["type"] == "turn.end"]


async def test_a_student_plays_plaintiff_counsel_through_the_first_instance_trial():
    trial = await make_trial({"plaintiff_lawyer": "student"})
    communicator = await connect(trial, "student")
    frames = await play(communicator, {"plaintiff_lawyer"})
    await communicator.disconnect()

    turns = await database_sync_to_async(lambda: list(Turn.objects.filter(trial=trial).order_by("seq")))()
    assert [turn.seq for turn in turns] == list(range(1, len(turns) + 1))
    fit = [turn for turn in turns if turn.stage == "FIT"]
    assert {turn.author for turn in fit if turn.seat == "plaintiff_lawyer"} == {"human"}
    assert all(turn.author == "agent" for turn in turns if turn.stage != "FIT"), "earlier stages were simulated"
    said = [f for f in frames if f["type"] == "turn.end" and f["seat"] == "plaintiff_lawyer" and f["stage"] == "FIT"]
    assert said and all(frame["text"].startswith("As plaintiff_lawyer") for frame in said)
    assert {"type": "artifact", "kind": "first_instance_judgment"}.items() <= next(
        f for f in frames if f.get("kind") == "first_instance_judgment"
    ).items()
    ends = completed(frames)
    assert ends == sorted(set(ends)) and ends[-1] == turns[-1].seq
    trial = await database_sync_to_async(Trial.objects.get)(pk=trial.pk)
    assert trial.status == Trial.Status.FINISHED


async def test_say_is_idempotent_by_client_id():
    trial = await make_trial({"plaintiff_lawyer": "student"})
    student = await connect(trial, "student")
    frame = await student.receive_json_from(timeout=10)
    while frame["type"] != "await":
        frame = await student.receive_json_from(timeout=10)

    say = {"type": "say", "text": "Appearing for the plaintiff.", "client_id": "retry-1"}
    await student.send_json_to(say)
    echoed = await student.receive_json_from(timeout=10)
    while echoed["type"] != "turn.end" or echoed["seat"] != "plaintiff_lawyer":
        echoed = await student.receive_json_from(timeout=10)
    await student.send_json_to(say)
    await asyncio.sleep(0.5)
    stored = await database_sync_to_async(
        lambda: list(Turn.objects.filter(trial=trial, author="human").values_list("seq", "client_id"))
    )()
    assert stored == [(echoed["seq"], "retry-1")], "the retried say is recorded once"
    await student.disconnect()


async def test_two_students_as_opposing_counsel():
    trial = await make_trial({"plaintiff_lawyer": "alice", "defendant_lawyer": "bob"})
    alice, bob = await connect(trial, "alice"), await connect(trial, "bob")

    alice_frames, bob_frames = await asyncio.gather(play(alice, {"plaintiff_lawyer"}), play(bob, {"defendant_lawyer"}))
    await alice.disconnect()
    await bob.disconnect()
    authors = await database_sync_to_async(
        lambda: dict(Turn.objects.filter(trial=trial, author="human").values_list("seat", "author").distinct())
    )()
    assert set(authors) == {"plaintiff_lawyer", "defendant_lawyer"}
    hearing = [completed([f for f in frames if f.get("stage") == "FIT"]) for frames in (alice_frames, bob_frames)]
    assert hearing[0] and hearing[0] == hearing[1], "both counsel hear the whole hearing"
    drafting = [
        {f["stage"] for f in frames if f["type"] == "turn.end"} - {"FIT"} for frames in (alice_frames, bob_frames)
    ]
    assert drafting == [{"LC", "CD"}, set()], "the plaintiff's consultation and drafting stay with the plaintiff"


async def test_a_reconnect_mid_stream_resumes_every_frame_exactly_once(settings):
    settings.LEGALSIM_SCRIPTED_TOKENS_PER_S = 200
    trial = await make_trial({"plaintiff_lawyer": "student"})
    first = await connect(trial, "student")
    frames: list[dict] = []
    while True:
        frame = await first.receive_json_from(timeout=10)
        frames.append(frame)
        if frame["type"] == "await":
            await first.send_json_to({"type": "say", "text": "Counsel is present.", "client_id": f"c{len(frames)}"})
        deltas = [f for f in frames if f["type"] == "turn.delta" and f["seq"] == frame.get("seq")]
        if frame["type"] == "turn.delta" and len(deltas) >= 3 and completed(frames):
            break
    await first.disconnect()
    last_done = completed(frames)[-1]
    second = await connect(trial, "student", after_seq=last_done)
    frames2 = await play(second, {"plaintiff_lawyer"})
    await second.disconnect()

    assert not set(completed(frames)) & set(completed(frames2)), "nothing completed before is sent again"
    texts: dict[int, str] = {}
    for frame in [f for f in frames if f.get("seq", 0) > last_done] + frames2:
        if frame["type"] == "turn.delta":
            current = texts.get(frame["seq"], "")
            assert frame["offset"] <= len(current)
            texts[frame["seq"]] = current[: frame["offset"]] + frame["text"]
    stored = await database_sync_to_async(
        lambda: dict(Turn.objects.filter(trial=trial, author="agent", seq__gt=last_done).values_list("seq", "text"))
    )()
    assert stored and all(texts[seq] == text for seq, text in stored.items()), "streamed text equals the stored turn"


async def test_the_browser_never_receives_hidden_fields():
    from tests.court.engine.test_visibility import plant

    seed, planted = plant(json.loads((DEMO_CASES / CASE).with_suffix(".json").read_text()))
    trial = await make_trial({"plaintiff_lawyer": "student"}, stages=None, seed=seed)
    communicator = await connect(trial, "student")
    frames = await play(communicator, {"plaintiff_lawyer"})
    await communicator.disconnect()
    received = json.dumps(frames, ensure_ascii=False)
    leaked = [
        label
        for label, value in planted.items()
        if label.startswith(("eval", "bottom_line:defendant", "memory")) and value in received
    ]
    assert not leaked


async def test_opposing_counsel_never_receives_the_other_sides_consultation():
    trial = await make_trial({"defendant_lawyer": "student"}, target_side="plaintiff")
    communicator = await connect(trial, "student")
    frames = await play(communicator, {"defendant_lawyer"})
    await communicator.disconnect()
    preparation = await database_sync_to_async(
        lambda: list(Turn.objects.filter(trial=trial, stage__in=("LC", "CD")).values_list("text", flat=True))
    )()
    assert preparation, "the plaintiff consulted their lawyer and drafted the complaint"
    assert not [frame for frame in frames if frame.get("stage") in ("LC", "CD")]
    received = json.dumps(frames, ensure_ascii=False)
    assert not [text for text in preparation if text in received]


async def test_someone_without_a_seat_cannot_listen_in_nor_tell_the_trial_exists():
    trial = await make_trial({"plaintiff_lawyer": "student"})
    stranger = await database_sync_to_async(lambda: person("stranger", Role.STUDENT))()
    heard = []
    for trial_id in (trial.pk, trial.pk + 1000):
        communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/trials/{trial_id}/")
        communicator.scope["user"] = stranger
        connected, _ = await communicator.connect()
        assert connected
        heard.append(await communicator.receive_output(timeout=5))
    assert heard == [{"type": "websocket.close", "code": 4404}] * 2, "the same as for a trial that does not exist"


async def test_the_socket_checks_origin_and_login():
    from legalsim.asgi import application

    trial = await make_trial({"plaintiff_lawyer": "student"})
    foreign = WebsocketCommunicator(
        application, f"/ws/trials/{trial.pk}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await foreign.connect()
    assert not connected
    anonymous = WebsocketCommunicator(
        application, f"/ws/trials/{trial.pk}/", headers=[(b"origin", b"http://127.0.0.1:8000")]
    )
    connected, _ = await anonymous.connect()
    assert connected
    assert (await anonymous.receive_json_from(timeout=5))["code"] == "not_authenticated"
    await anonymous.disconnect()


async def test_a_student_drafts_the_complaint_section_by_section():
    trial = await make_trial({"plaintiff_lawyer": "student"}, stages=("CD",))
    communicator = await connect(trial, "student")
    sections = {
        "claims": "Pay damages of RMB 80,000.",
        "parties": "Plaintiff Wang v. Defendant Zhao",
        "court": "District Court",
    }
    document_await = None
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        if frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer":
            if "document" in frame:
                document_await = frame
                empty = {"type": "say", "text": "", "sections": {"claims": "  "}, "client_id": "empty"}
                await communicator.send_json_to(empty)
                refused = await communicator.receive_json_from(timeout=10)
                assert refused["type"] == "error" and "no section written yet" in refused["message"]
                await communicator.send_json_to({"type": "say", "text": "", "sections": sections, "client_id": "doc"})
            else:
                await communicator.send_json_to(
                    {"type": "say", "text": "Noted.", "client_id": f"c{frame['phase']}{id(frame)}"}
                )
        if frame["type"] == "end":
            break
    await communicator.disconnect()
    assert document_await["document"]["kind"] == "complaint"
    assert [s["heading"] for s in document_await["document"]["sections"]] == [
        "Parties",
        "Claims",
        "Facts and reasons",
        "Evidence and sources",
        "Court addressed",
        "Complainant",
    ]
    complaint = await database_sync_to_async(lambda: trial.artifacts.get(kind="complaint"))()
    assert complaint.title == "Civil complaint"
    assert complaint.text == (
        "Civil complaint\n\nParties\nPlaintiff Wang v. Defendant Zhao\n\nClaims\nPay damages of RMB 80,000.\n\n"
        "Court addressed\nDistrict Court"
    ), "sections in the template's order under their headings; the empty one left out"


async def test_a_student_judge_questions_a_party_and_moves_to_the_judgment():
    trial = await make_trial({"judge": "presiding", "plaintiff_lawyer": "counsel"})
    judge, counsel = await connect(trial, "presiding"), await connect(trial, "counsel")
    await counsel.send_json_to({"type": "control", "action": "advance"})
    while (refused := await counsel.receive_json_from(timeout=10))["type"] != "error":
        pass
    assert refused["code"] == "not_your_seat", "counsel does not steer the hearing"

    async def next_await(communicator) -> dict:
        while (frame := await communicator.receive_json_from(timeout=10))["type"] != "await":
            pass
        return frame

    first = await next_await(judge)
    assert first["seat"] == "judge"
    question = {"type": "control", "action": "question", "seat": "defendant_lawyer", "text": "Did your client brake?"}
    await judge.send_json_to(question)
    frames = []
    while not (frames and frames[-1]["type"] == "await"):
        frames.append(await judge.receive_json_from(timeout=10))
    ends = [frame for frame in frames if frame["type"] == "turn.end"]
    assert [(f["seat"], f["author"]) for f in ends] == [("judge", "human"), ("defendant_lawyer", "agent")]
    assert ends[0]["text"] == "Did your client brake?" and ends[1]["seq"] == ends[0]["seq"] + 1
    assert frames[-1]["seat"] == "judge" and frames[-1]["act"] == first["act"], "the judge's own turn comes back"

    await judge.send_json_to({"type": "control", "action": "pronounce"})
    pronounce = await next_await(judge)
    assert pronounce["act"] == "pronounce_judgment" and pronounce["document"]["kind"] == "first_instance_judgment"
    sections = {"orders": "The defendant shall pay RMB 74,900.", "reasoning": "Fault at the crossing."}
    await judge.send_json_to({"type": "say", "text": "", "sections": sections, "client_id": "judgment"})
    while (await judge.receive_json_from(timeout=10))["type"] != "end":
        pass
    await judge.disconnect()
    await counsel.disconnect()
    judgment = await database_sync_to_async(lambda: trial.artifacts.get(kind="first_instance_judgment").text)()
    assert judgment.index("Reasoning\nFault at the crossing.") < judgment.index("Orders\nThe defendant shall pay")


async def test_a_live_trial_with_llm_agents_streams_and_stores_every_model_call(openai_settings, llm_server):
    """Architecture issue: a live trial's model calls were never stored and its tokens were an
    estimate; now the driver stores them as ``simulate`` does, the earlier stages' included."""
    openai_settings.LEGALSIM_AGENT_BACKEND = "openai"
    trial = await make_trial({"plaintiff_lawyer": "student"})
    communicator = await connect(trial, "student")
    frames = await play(communicator, {"plaintiff_lawyer"})
    await communicator.disconnect()
    trial = await database_sync_to_async(Trial.objects.get)(pk=trial.pk)
    calls = await database_sync_to_async(lambda: list(trial.llm_calls.all()))()
    assert trial.status == Trial.Status.FINISHED
    assert sum(call.attempts for call in calls) == len(llm_server.requests) > 0
    assert {call.stage for call in calls} >= {"LC", "CD", "FIT"}, "the simulated stages' calls are stored too"
    assert trial.tokens == sum(call.prompt_tokens + call.completion_tokens for call in calls) > 0
    agent_deltas = {frame["seq"] for frame in frames if frame["type"] == "turn.delta"}
    agent_ends = {
        frame["seq"]
        for frame in frames
        if frame["type"] == "turn.end" and frame["author"] == "agent" and frame["stage"] == "FIT"
    }
    assert agent_ends and agent_ends <= agent_deltas, "every agent statement of the hearing streamed before it ended"
    state = trial.engine_state
    counsel = {turn.seat for turn in state.turns if turn.author == "agent" and turn.stage == "FIT"} & {
        "plaintiff_lawyer",
        "defendant_lawyer",
    }
    assert state.strategy_module and counsel == {"defendant_lawyer"}
    assert [entry["kind"] for entry in state.strategies["defendant_lawyer"]] == ["strategy", "reflection"], (
        "SimCourt's strategy in a live trial: the model counsel planned before its first turn and revised at the end"
    )
    student = [entry["stage"] for entry in state.strategies.get("plaintiff_lawyer", [])]
    assert student and "FIT" not in student, "the student's seat had an agent's strategy only where an agent played it"


async def test_a_supervised_live_trial_checks_the_agents_replies(openai_settings, llm_server):
    """Real models issue: the MASER supervisor ran only under ``simulate --supervisor``; a live
    trial created with it (``create_trial --supervisor``) checks the agent clients and lawyers."""
    openai_settings.LEGALSIM_AGENT_BACKEND = "openai"
    llm_server.brain = supervisor_approves
    cases_import_async = database_sync_to_async(lambda: cases_import(paths=[DEMO_CASES / f"{CASE}.json"]))
    await cases_import_async()
    await database_sync_to_async(person)("student", Role.STUDENT)
    await database_sync_to_async(call_command)(
        "create_trial", CASE, "--stages", "FIT", "--human", "plaintiff_lawyer=student", "--supervisor"
    )
    trial = await database_sync_to_async(lambda: trial_prepare(trial_id=Trial.objects.get().pk))()
    communicator = await connect(trial, "student")
    await play(communicator, {"plaintiff_lawyer"})
    await communicator.disconnect()
    supervised = await database_sync_to_async(
        lambda: set(trial.llm_calls.filter(stage="FIT", act__startswith="supervise:").values_list("seat", flat=True))
    )()
    assert trial.supervised and supervised == {"plaintiff_client", "defendant_client", "defendant_lawyer"}


async def test_a_mediation_answer_states_its_decision_and_is_recorded_with_the_words():
    trial = await make_trial({"plaintiff_client": "client"})
    client = await connect(trial, "client")
    answered = 0
    while True:
        frame = await client.receive_json_from(timeout=20)
        if frame["type"] != "await" or frame["seat"] != "plaintiff_client":
            continue
        if frame["act"] != "answer_mediation":
            answered += 1
            await client.send_json_to({"type": "say", "text": f"Answer {answered}.", "client_id": f"a{answered}"})
            continue
        await client.send_json_to({"type": "say", "text": "Perhaps.", "client_id": "undecided"})
        refused = await client.receive_json_from(timeout=10)
        while refused["type"] != "error":
            refused = await client.receive_json_from(timeout=10)
        assert refused["code"] == "bad_message" and "accept or decline" in refused["message"]
        words = "Yes, I am willing to settle by mediation."
        await client.send_json_to({"type": "say", "text": words, "client_id": "decided", "decision": "accept"})
        break
    ended = await client.receive_json_from(timeout=10)
    while ended["type"] != "turn.end" or ended["text"] != words:
        ended = await client.receive_json_from(timeout=10)
    recorded = await database_sync_to_async(
        lambda: [turn.decision for turn in Trial.objects.get(pk=trial.pk).engine_state.turns if turn.text == words]
    )()
    assert recorded == ["accept"], "the words and the decision are one turn"
    await client.disconnect()


async def test_an_awaited_act_comes_with_how_to_do_it_where_a_skill_card_covers_it():
    trial = await make_trial({"plaintiff_lawyer": "student"})
    student = await connect(trial, "student")
    awaited: dict[str, dict] = {}
    while "state_claims" not in awaited:
        frame = await student.receive_json_from(timeout=15)
        if frame["type"] == "await" and frame["seat"] == "plaintiff_lawyer" and frame["act"] not in awaited:
            awaited[frame["act"]] = frame
            await student.send_json_to({"type": "say", "text": "Counsel speaks.", "client_id": f"s{frame['seq']}"})
    await student.disconnect()
    assert "guidance" not in awaited["confirm_appearance"], "no card teaches confirming appearance"
    guidance = awaited["state_claims"]["guidance"]
    assert (
        guidance["task"].startswith("Advocate in court")
        and "argue to the judge's points in dispute, one by one" in guidance["checklist"]
    )
    assert awaited["state_claims"]["prompt"] == "State your claims"
