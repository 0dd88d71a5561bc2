"""Whole trials with every seat an LLM agent, through the real openai client and a loopback server."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import CommandError, call_command

from agents.prompts import PROMPT_VERSION
from court.procedures.names import STAGES, stage_name
from tests.cases import case_stored
from tests.conftest import DEMO_CASES
from tests.court.engine.test_visibility import plant
from tests.llm_server import is_memory_update
from trials.models import Trial, Turn
from trials.services import cases_import

pytestmark = pytest.mark.django_db
SUPERVISOR = "你逐句监督"


def simulate(capsys, case_id: str, *args: str) -> dict:
    call_command("simulate", case_id, "--backend", "openai", "--json", *args)
    return json.loads(capsys.readouterr().out)


def test_an_llm_life_cycle_runs_every_stage_with_per_role_models(openai_settings, llm_server, lending_case, capsys):
    result = simulate(capsys, lending_case.pk)
    assert [stage["stage"] for stage in result["stages"]] == ["LC", "CD", "FIT", "AD-Det", "AD", "SIT"]
    assert result["stages"][2]["artifacts"] == ["first_instance_judgment"]
    trial = Trial.objects.get(pk=result["trial_id"])
    lawyer_turns = Turn.objects.filter(trial=trial, seat="plaintiff_lawyer")
    assert all("target-model" in turn.text for turn in lawyer_turns)
    assert all("env-model" in turn.text for turn in Turn.objects.filter(trial=trial, seat="judge"))
    assert dict(trial.seats.values_list("seat", "agent_model"))["plaintiff_lawyer"] == "target-model"
    assert result["tokens"] == trial.tokens > 0
    memory_calls = [request for request in llm_server.requests if is_memory_update(request)]
    assert memory_calls and trial.memory_operations.filter(key="notes", op="expand").exists()
    calls = trial.llm_calls.all()
    assert sum(call.attempts for call in calls) == len(llm_server.requests)
    assert {call.model for call in calls} == {"env-model", "target-model"}
    assert all(call.prompt_tokens > 0 and call.latency_s > 0 for call in calls)
    assert sum(call.prompt_tokens + call.completion_tokens for call in calls) == trial.tokens
    assert trial.trajectory.meta["prompt_version"] == PROMPT_VERSION == "legalsim-prompts/10"
    statute_answers = Turn.objects.filter(
        trial=trial, seat="plaintiff_lawyer", text__contains="relying on 《中华人民共和国民法典》"
    )
    assert statute_answers.exists(), "the lawyer's reply uses the statute its tool call retrieved"


def test_prompts_never_carry_evaluation_only_fields(openai_settings, llm_server, capsys):
    seed, planted = plant(json.loads((DEMO_CASES / "en-civil-commercial-lease.json").read_text()))
    case_stored(seed)
    for target in ("plaintiff", "defendant"):
        simulate(capsys, seed["id"], "--target-side", target)
    sent = json.dumps(llm_server.requests, ensure_ascii=False)
    leaked = [label for label, value in planted.items() if label.startswith("eval") and value in sent]
    assert not leaked and len(llm_server.requests) > 100


@pytest.mark.parametrize("fault", [("status", 502), ("cut",), ("malformed",), ("disconnect",)])
def test_a_failing_model_server_pauses_the_trial_and_resume_loses_nothing(
    openai_settings, llm_server, lending_case, capsys, fault
):
    served = {"count": 0}
    from tests.llm_server import default_brain

    def flaky_brain(request: dict) -> str:
        served["count"] += 1
        if served["count"] == 20:
            llm_server.fail_next(fault, fault, fault)
        return default_brain(request)

    llm_server.brain = flaky_brain
    with pytest.raises(CommandError, match=r"paused: .*failed after 3 attempts") as error:
        # No strategy: the 20th request must be a turn's (a failed strategy call only warns).
        simulate(capsys, lending_case.pk, "--no-strategy")
    trial = Trial.objects.get()
    assert trial.status == Trial.Status.PAUSED and "resume_trial" in str(error.value)
    stored = list(Turn.objects.filter(trial=trial).values_list("seq", "text"))
    assert len(stored) >= 5 and [seq for seq, _ in stored] == list(range(1, len(stored) + 1))

    failed = trial.llm_calls.exclude(error="").last()
    assert failed.attempts == 3 and "failed after 3 attempts" in failed.error
    call_command("resume_trial", str(trial.pk), "--json")
    result = json.loads(capsys.readouterr().out)
    trial.refresh_from_db()
    assert trial.status == Trial.Status.FINISHED and result["trajectory_id"] == trial.trajectory.id
    seqs = list(Turn.objects.filter(trial=trial).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)), "no turn lost, none duplicated"
    assert list(Turn.objects.filter(trial=trial, seq__lte=len(stored)).values_list("seq", "text")) == stored


def test_a_model_that_keeps_malforming_tool_arguments_does_not_stop_the_trial(
    openai_settings, llm_server, lending_case, capsys
):
    """Issue #19: only a failing server pauses. Tool arguments that are not JSON three times
    running are the model missing a format: its tool answers with the failure and the
    conversation goes on."""
    served = {"count": 0}
    from tests.llm_server import default_brain

    def brain(request: dict) -> str | dict:
        served["count"] += 1
        reply = default_brain(request)
        searches = isinstance(reply, dict) and any(name == "search_statutes" for name, _ in reply["tool_calls"])
        if served["count"] >= 20 and searches and not served.get("queued"):
            # The seat's next request answers its search: the seat may call tools there too.
            llm_server.fail_next(("bad_tool_json",), ("bad_tool_json",), ("bad_tool_json",))
            served["queued"] = True
        return reply

    llm_server.brain = brain
    result = simulate(capsys, lending_case.pk)
    trial = Trial.objects.get(pk=result["trial_id"])
    assert trial.status == Trial.Status.FINISHED
    answered = [
        message["content"]
        for request in llm_server.requests
        for message in request["messages"]
        if message["role"] == "tool" and "bad arguments" in message["content"]
    ]
    assert answered, "the malformed call was answered as a failed tool call"
    assert trial.llm_calls.filter(attempts=3, error__contains="malformed JSON arguments").exists()


def test_an_llm_criminal_trial_reaches_a_judgment(openai_settings, llm_server, capsys):
    cases_import(paths=[DEMO_CASES / "zh-criminal-dangerous-driving.json"])
    result = simulate(capsys, "zh-criminal-dangerous-driving")
    assert [stage["stage"] for stage in result["stages"]] == [
        "preparation",
        "investigation",
        "evidence",
        "debate",
        "final_statement",
        "judgment",
    ]
    assert result["stages"][-1]["artifacts"] == ["criminal_judgment", "trial_record"]
    trial = Trial.objects.get(pk=result["trial_id"])
    assert dict(trial.seats.values_list("seat", "agent_model"))["attorney"] == "target-model"
    assert set(trial.memory_operations.values_list("seat", flat=True)) == {"prosecutor", "attorney", "defendant"}


def test_prompts_carry_earlier_documents_by_title_not_by_body(openai_settings, llm_server, lending_case, capsys):
    """A turn's prompt does not grow with the stages behind it: earlier documents are listed by
    title and read through the read_artifact tool only when the agent asks."""
    result = simulate(capsys, lending_case.pk)
    trial = Trial.objects.get(pk=result["trial_id"])
    turn_prompts = []
    stage_ids = {stage_name(stage, "zh"): stage for stage in STAGES}
    for request in llm_server.requests:
        header = re.search(r"# 本阶段对话（(.+?)）\n", request["messages"][1]["content"])
        if header:
            turn_prompts.append((stage_ids[header.group(1)], request["messages"][1]["content"]))
    assert {stage for stage, _ in turn_prompts} == {"LC", "CD", "FIT", "AD", "SIT"}
    for artifact in trial.artifacts.exclude(stage="AD-Det"):
        later = [prompt for stage, prompt in turn_prompts if stage != artifact.stage]
        assert not any(artifact.text in prompt for prompt in later), artifact.kind
        assert any(artifact.title in prompt for stage, prompt in turn_prompts if stage == "SIT"), artifact.kind


def test_the_supervisor_gets_one_revision_of_an_inconsistent_reply(openai_settings, llm_server, lending_case, capsys):
    """The case is Chinese: so are the supervisor's prompt and the advice put to the seat."""
    from tests.llm_server import default_brain

    def brain(request: dict):
        system, last = request["messages"][0]["content"], request["messages"][-1]
        if system.startswith(SUPERVISOR):
            first_check = not any(r["messages"][0]["content"].startswith(SUPERVISOR) for r in llm_server.requests[:-1])
            return json.dumps({"consistent": not first_check, "advice": "Say when you lent the money."})
        if last["role"] == "user" and last["content"].startswith("监督意见：Say when you lent the money."):
            return "I lent him 200,000 yuan on 1 March 2023."
        return default_brain(request)

    llm_server.brain = brain
    result = simulate(capsys, lending_case.pk, "--until", "LC", "--supervisor")
    trial = Trial.objects.get(pk=result["trial_id"])
    assert trial.supervised
    first = Turn.objects.get(trial=trial, seq=1)
    assert first.seat == "plaintiff_client" and first.text == "I lent him 200,000 yuan on 1 March 2023."
    checked = set(trial.llm_calls.filter(act__startswith="supervise:").values_list("seat", flat=True))
    assert checked == {"plaintiff_client", "plaintiff_lawyer"}
