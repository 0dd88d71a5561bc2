"""agent_metrics: LegalAgentBench's success and progress rates (Appendix E.2), checked
against figures worked out by hand from the definition, and its refusal of bad files."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

TASKS = [
    {"id": "t1", "type": "lookup", "question": "q1", "answer": "a b", "key": ["a", "b"], "key_middle": ["m"]},
    {"id": "t2", "type": "lookup", "question": "q2", "answer": "x", "key": ["x"], "key_middle": ["y", "z"]},
    {"id": "t3", "type": "multi", "question": "q3", "answer": "p q r", "key": ["p", "q", "r"], "key_middle": []},
    {"id": "t4", "type": "multi", "question": "q4", "answer": "k", "key": ["k"], "key_middle": ["n"]},
]
PREDICTIONS = [
    {"id": "t1", "res": "only a here", "summary": "found a, then m"},  # success 1/2, progress {a, m} of 3 = 2/3
    {"id": "t2", "res": "x after y"},  # no summary: progress on res, {x, y} of 3 = 2/3; success 1
    {"id": "t3", "res": "", "summary": "p q r"},  # success 0 (empty answer), progress 3/3
]  # t4 has no line: success 0, progress 0


def jsonl(rows: list) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


def test_rates_match_the_paper_definition_worked_by_hand(write_json, tmp_path):
    tasks, pred, out = (
        write_json("tasks.json", TASKS),
        write_json("pred.jsonl", jsonl(PREDICTIONS)),
        tmp_path / "r.json",
    )

    call_command("agent_metrics", "--tasks", str(tasks), "--pred", str(pred), "--out", str(out))

    report = json.loads(out.read_text())
    assert report["n"] == 4
    assert report["success_rate"] == pytest.approx((1 / 2 + 1 + 0 + 0) / 4)  # 0.375
    assert report["progress_rate"] == pytest.approx((2 / 3 + 2 / 3 + 1 + 0) / 4)  # 7/12
    assert report["by_type"]["lookup"] == pytest.approx({"n": 2, "success_rate": 0.75, "progress_rate": 2 / 3})
    assert report["by_type"]["multi"] == pytest.approx({"n": 2, "success_rate": 0.0, "progress_rate": 0.5})
    assert report["missing"] == ["t4"]


def test_tasks_read_from_jsonl_give_the_same_rates(write_json, tmp_path):
    tasks, pred, out = (
        write_json("tasks.jsonl", jsonl(TASKS)),
        write_json("p.jsonl", jsonl(PREDICTIONS)),
        tmp_path / "r",
    )

    call_command("agent_metrics", "--tasks", str(tasks), "--pred", str(pred), "--out", str(out))

    assert json.loads(out.read_text())["success_rate"] == pytest.approx(0.375)


def test_bad_prediction_lines_are_each_reported_and_nothing_is_written(write_json, tmp_path):
    lines = jsonl([PREDICTIONS[0]]) + '{"id": "t9", "res": "a"}\n' + '{"id": "t2", "res": \n' + '{"id": "t3"}\n'
    tasks, pred, out = write_json("tasks.json", TASKS), write_json("pred.jsonl", lines), tmp_path / "r.json"

    with pytest.raises(CommandError) as raised:
        call_command("agent_metrics", "--tasks", str(tasks), "--pred", str(pred), "--out", str(out))

    message = str(raised.value)
    assert f"{pred}:2: id: unknown task 't9'" in message
    assert f"{pred}:3: json: invalid JSON" in message
    assert f"{pred}:4: res: must be a string" in message
    assert f"{pred}:1:" not in message
    assert not out.exists()


def test_a_task_missing_a_field_is_reported_at_its_line(write_json, tmp_path):
    broken = [TASKS[0], {key: value for key, value in TASKS[1].items() if key != "key"}]
    tasks = write_json("tasks.json", "[\n" + ",\n".join(json.dumps(task) for task in broken) + "\n]\n")
    pred, out = write_json("pred.jsonl", jsonl(PREDICTIONS[:1])), tmp_path / "r.json"

    with pytest.raises(CommandError) as raised:
        call_command("agent_metrics", "--tasks", str(tasks), "--pred", str(pred), "--out", str(out))

    assert f"{tasks}:3: key: must be a non-empty list of non-empty strings, got None" in str(raised.value)
    assert not out.exists()
