"""--out of the agent task commands: a directory gets the file inside it under a clear name; a
path whose directory does not exist, or that cannot be written, is a CommandError, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

import agentbench.task_set

TASK = {
    "id": "interest",
    "type": "article",
    "question": "《中华人民共和国民法典》第六百七十六条的内容是什么？",
    "answer": "《中华人民共和国民法典》第六百七十六条",
    "key": ["第六百七十六条"],
    "key_middle": [],
}


@pytest.fixture
def tasks_file(tmp_path: Path) -> Path:
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps([TASK], ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture
def one_task(monkeypatch):
    monkeypatch.setattr(agentbench.task_set, "tasks_build", lambda: [TASK])


def run_tasks(tasks: Path, out: Path) -> None:
    call_command("run_agent_tasks", "--model", "scripted", "--tasks", str(tasks), "--out", str(out))


def test_run_agent_tasks_writes_into_a_directory_given_as_out(tasks_file, tmp_path, capsys):
    out_dir = tmp_path / "runs"
    out_dir.mkdir()

    run_tasks(tasks_file, out_dir)

    written = out_dir / "agent-predictions.jsonl"
    assert json.loads(written.read_text(encoding="utf-8").splitlines()[0])["id"] == "interest"
    assert f"wrote {written}" in capsys.readouterr().out


def test_run_agent_tasks_refuses_an_out_in_a_missing_directory(tasks_file, tmp_path):
    with pytest.raises(CommandError, match=r"--out .*: no such directory: .*nowhere"):
        run_tasks(tasks_file, tmp_path / "nowhere" / "pred.jsonl")


def test_agent_metrics_writes_into_a_directory_given_as_out(tasks_file, tmp_path):
    predictions = tmp_path / "pred.jsonl"
    run_tasks(tasks_file, predictions)

    call_command("agent_metrics", "--tasks", str(tasks_file), "--pred", str(predictions), "--out", str(tmp_path))

    assert json.loads((tmp_path / "agent-metrics.json").read_text(encoding="utf-8"))["n"] == 1


def test_generate_agent_tasks_writes_into_a_directory_given_as_out(one_task, tmp_path, capsys):
    call_command("generate_agent_tasks", "--out", str(tmp_path))

    assert json.loads((tmp_path / "tasks.json").read_text(encoding="utf-8")) == [TASK]
    assert f"wrote {tmp_path / 'tasks.json'}" in capsys.readouterr().out


def test_generate_agent_tasks_refuses_an_out_it_cannot_write(one_task, tmp_path):
    (tmp_path / "file").write_text("", encoding="utf-8")

    with pytest.raises(CommandError, match=r"--out .*file/tasks\.json: .*nothing written"):
        call_command("generate_agent_tasks", "--out", str(tmp_path / "file" / "tasks.json"))
