"""Success rate and progress rate of agent answers ("LegalAgentBench: Evaluating LLM Agents in
Legal Domain", arXiv 2412.17259, §3.3.3, §4.1.2 and Appendix E.2).

For task i with keyword set K_i and model output O_i, s_i = |M_i| / |K_i| where M_i are the
keywords of K_i that appear in O_i (as substrings). With K_i = ``key`` (the paper's
``key_answer``) and O_i the answer ``res``, s_i is the success rate; with K_i = ``key`` ∪
``key_middle`` and O_i the trajectory ``summary`` (``res`` when the line has none), it is
the progress rate. Each rate is the average over all the tasks of the task file: the paper
averages over its dataset, so a task with no prediction line has an empty output and counts
0 (the report lists those tasks under ``missing``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from legalsim.json_input import Problem, read_records, shown


@dataclass(frozen=True)
class AgentTask:
    id: str
    type: str
    question: str
    key: tuple[str, ...]
    key_middle: tuple[str, ...]


@dataclass(frozen=True)
class Prediction:
    id: str
    res: str
    summary: str | None


def keyword_rate(keywords: tuple[str, ...], output: str) -> float:
    """|M| / |K|: the share of the (distinct) keywords found in ``output``."""
    distinct = tuple(dict.fromkeys(keywords))
    return sum(1 for keyword in distinct if keyword in output) / len(distinct)


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) and item for item in value)


def tasks_read(path: Path) -> tuple[list[AgentTask], list[Problem]]:
    """The tasks of a JSON list or JSONL file, and a problem for each one that cannot be used."""
    records, problems = read_records(path)
    tasks: list[AgentTask] = []
    first: dict[str, int] = {}
    for record in records:
        data = record.data

        def problem(field: str, message: str, line: int = record.line) -> None:
            problems.append(Problem(str(path), line, field, message))

        if not isinstance(data, dict):
            problem("task", 'must be a JSON object {"id", "question", "answer", "key", "key_middle", "type"}')
            continue
        before = len(problems)
        for name in ("id", "question", "answer", "type"):
            if not isinstance(data.get(name), str) or not data[name].strip():
                problem(name, f"must be a non-empty string, got {shown(data.get(name))}")
        if not _strings(data.get("key")) or not data["key"]:
            problem("key", f"must be a non-empty list of non-empty strings, got {shown(data.get('key'))}")
        if not _strings(data.get("key_middle", [])):
            problem("key_middle", f"must be a list of non-empty strings, got {shown(data.get('key_middle'))}")
        if isinstance(data.get("id"), str) and data["id"] in first:
            problem("id", f"duplicate {data['id']!r} (first on line {first[data['id']]})")
        if len(problems) == before:
            first[data["id"]] = record.line
            tasks.append(
                AgentTask(
                    data["id"], data["type"], data["question"], tuple(data["key"]), tuple(data.get("key_middle", []))
                )
            )
    if not records and not problems:
        problems.append(Problem(str(path), 1, "file", "holds no tasks"))
    return tasks, problems


def predictions_read(path: Path, task_ids: set[str]) -> tuple[list[Prediction], list[Problem]]:
    """The prediction lines of a JSONL file, and a problem for each line that cannot be used
    (not an object, a missing or mistyped field, an id that is no task's or given twice)."""
    records, problems = read_records(path)
    predictions: list[Prediction] = []
    first: dict[str, int] = {}
    for record in records:
        data = record.data

        def problem(field: str, message: str, line: int = record.line) -> None:
            problems.append(Problem(str(path), line, field, message))

        if not isinstance(data, dict):
            problem("prediction", 'must be a JSON object {"id", "res", "summary"?}')
            continue
        before = len(problems)
        task_id = data.get("id")
        if not isinstance(task_id, str) or not task_id:
            problem("id", f"must be a non-empty string, got {shown(task_id)}")
        elif task_id not in task_ids:
            problem("id", f"unknown task {shown(task_id)}: not in the task file")
        elif task_id in first:
            problem("id", f"duplicate {task_id!r} (first on line {first[task_id]})")
        if not isinstance(data.get("res"), str):
            problem("res", f"must be a string (the answer), got {shown(data.get('res'))}")
        summary = data.get("summary")
        if summary is not None and not isinstance(summary, str):
            problem("summary", f"must be a string when given, got {shown(summary)}")
        if len(problems) == before:
            first[task_id] = record.line
            predictions.append(Prediction(task_id, data["res"], summary))
    return predictions, problems


def _rates(tasks: list[AgentTask], predictions: dict[str, Prediction]) -> dict[str, Any]:
    success, progress = [], []
    for task in tasks:
        prediction = predictions.get(task.id)
        answer = prediction.res if prediction else ""
        trajectory = prediction.summary if prediction and prediction.summary is not None else answer
        success.append(keyword_rate(task.key, answer))
        progress.append(keyword_rate(task.key + task.key_middle, trajectory))
    count = len(tasks)
    return {"n": count, "success_rate": sum(success) / count, "progress_rate": sum(progress) / count}


def agent_report(tasks: list[AgentTask], predictions: list[Prediction]) -> dict[str, Any]:
    """The rates over all tasks and per task type; the ids of the tasks with no prediction."""
    by_id = {prediction.id: prediction for prediction in predictions}
    types = sorted({task.type for task in tasks})
    return _rates(tasks, by_id) | {
        "by_type": {kind: _rates([task for task in tasks if task.type == kind], by_id) for kind in types},
        "missing": [task.id for task in tasks if task.id not in by_id],
    }


def agent_report_of_files(*, tasks_path: Path, predictions_path: Path) -> tuple[dict[str, Any] | None, list[Problem]]:
    """``agent_metrics``: the report, or None and every problem of the two files."""
    tasks, problems = tasks_read(tasks_path)
    if problems:
        return None, problems
    predictions, problems = predictions_read(predictions_path, {task.id for task in tasks})
    if problems:
        return None, problems
    return agent_report(tasks, predictions), []
