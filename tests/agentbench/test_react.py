"""run_agent_tasks: the ReAct loop against the loopback chat-completions server (a real
``openai`` client and socket), and the offline scripted baseline scored by agent_metrics."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from agentbench.react import FORMAT_REMINDER, MAX_ITERATIONS, SUMMARY_REQUEST
from agentbench.task_set import TASKS_FILE
from tests.llm_server import LoopbackLLM

TASK = {
    "id": "interest",
    "type": "statute_search",
    "question": "借款到期不还，出借人能要求支付逾期利息吗？依据哪一条？",
    "answer": "《中华人民共和国民法典》第六百七十六条",
    "key": ["第六百七十六条"],
    "key_middle": ["借款人未按照约定的期限返还借款的"],
}


def play(settings, brain, tmp_path) -> tuple[dict, LoopbackLLM]:
    tasks, out = tmp_path / "tasks.json", tmp_path / "pred.jsonl"
    tasks.write_text(json.dumps([TASK], ensure_ascii=False), encoding="utf-8")
    with LoopbackLLM(brain) as server:
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY, settings.LEGALSIM_LLM_BACKOFF_S = server.base_url, "k", 0.0
        call_command("run_agent_tasks", "--model", "loop-model", "--tasks", str(tasks), "--out", str(out))
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    return json.loads(lines[0]), server


def searches_then_finishes(request: dict) -> str:
    last = request["messages"][-1]["content"]
    if last == SUMMARY_REQUEST:
        return "I searched the statutes and found 第六百七十六条.\nFinish[第六百七十六条]"
    if last.startswith("Observation:"):
        return "Thought: the search found it.\nFinish[《中华人民共和国民法典》第六百七十六条]"
    return "Thought: search the statutes.\nAction: search_statutes[借款 逾期利息]"


def test_the_loop_calls_the_tool_and_ends_at_finish(settings, tmp_path):
    line, server = play(settings, searches_then_finishes, tmp_path)

    assert line["res"] == "《中华人民共和国民法典》第六百七十六条"
    assert line["finished"] is True and line["iterations"] == 2
    assert line["actions"] == ["search_statutes[借款 逾期利息]"]
    assert len(server.requests) == 3  # two iterations, then the summary
    observation = server.requests[1]["messages"][-1]["content"]
    assert "借款人未按照约定的期限返还借款的" in observation  # the real statute search answered
    assert server.requests[0]["temperature"] == 0.0
    assert line["prompt_tokens"] > 0 and line["completion_tokens"] > 0
    assert "Summarise" in server.requests[2]["messages"][-1]["content"]


def never_finishes(request: dict) -> str:
    if request["messages"][-1]["content"] == SUMMARY_REQUEST:
        return "I read the case again and again."
    return "Thought: read it again.\nAction: read_case[zh-civil-private-lending]"


def test_the_loop_stops_after_ten_iterations(settings, tmp_path):
    line, server = play(settings, never_finishes, tmp_path)

    assert line["iterations"] == MAX_ITERATIONS == 10
    assert line["finished"] is False and line["res"] == ""
    assert len(server.requests) == MAX_ITERATIONS + 1
    assert line["summary"] == "I read the case again and again."


def prose_only(request: dict) -> str:
    return "借款到期不还应当支付逾期利息，这是常识。"


def test_a_model_that_misses_the_format_still_gets_a_prediction_line(settings, tmp_path, write_json):
    line, server = play(settings, prose_only, tmp_path)

    assert line["res"] == "" and line["actions"] == []
    assert server.requests[1]["messages"][-1]["content"] == FORMAT_REMINDER
    out = tmp_path / "report.json"
    call_command(
        "agent_metrics",
        "--tasks",
        str(tmp_path / "tasks.json"),
        "--pred",
        str(tmp_path / "pred.jsonl"),
        "--out",
        str(out),
    )
    assert json.loads(out.read_text())["success_rate"] == 0.0


def test_the_offline_scripted_run_writes_predictions_agent_metrics_scores(settings, tmp_path, capsys):
    settings.OPENAI_BASE_URL = ""
    pred, out = tmp_path / "pred.jsonl", tmp_path / "report.json"

    call_command("run_agent_tasks", "--out", str(pred))
    call_command("agent_metrics", "--tasks", str(TASKS_FILE), "--pred", str(pred), "--out", str(out))

    report = json.loads(out.read_text())
    assert report["missing"] == []
    assert 0 < report["success_rate"] < 1
    assert report["by_type"]["article"]["success_rate"] == pytest.approx(1.0)
    assert (
        report["by_type"]["facts_to_article"]["success_rate"] < report["by_type"]["facts_to_article"]["progress_rate"]
    )
    assert f"scripted: {report['n']} task(s) played, 0 tokens" in capsys.readouterr().out


def test_a_failing_model_server_stops_the_run_and_writes_nothing(settings, tmp_path):
    tasks, out = tmp_path / "tasks.json", tmp_path / "pred.jsonl"
    tasks.write_text(json.dumps([TASK], ensure_ascii=False), encoding="utf-8")
    with LoopbackLLM(searches_then_finishes) as server:
        server.fail_next(("status", 401))
        settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY, settings.LEGALSIM_LLM_BACKOFF_S = server.base_url, "k", 0.0
        with pytest.raises(CommandError, match=r"HTTP 401.*stopped at task interest, nothing written"):
            call_command("run_agent_tasks", "--model", "loop-model", "--tasks", str(tasks), "--out", str(out))
    assert not out.exists()


def test_a_model_without_a_server_is_refused(settings, tmp_path):
    settings.OPENAI_BASE_URL = ""

    with pytest.raises(CommandError, match="OPENAI_BASE_URL is not set"):
        call_command("run_agent_tasks", "--model", "some-model", "--out", str(tmp_path / "pred.jsonl"))
