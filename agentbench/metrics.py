"""Success rate and progress rate of agent answers ("LegalAgentBench: Evaluating LLM Agents in
Legal Domain", arXiv 2412.17259, §3.3.3, §4.1.2 and Appendix E.2).

For task i with keyword set K_i and model output O_i, s_i = |M_i| / |K_i| where M_i are the
keywords of K_i that appear in O_i (as substrings), K_i counted as listed: a keyword listed twice
counts twice, as the benchmark's own ``src/evaluation/eval.py`` counts it. With K_i = ``key`` (the paper's
``key_answer``) and O_i the answer ``res``, s_i is the success rate; with K_i = ``key`` ∪
``key_middle`` and O_i the trajectory ``summary`` (``res`` when the line has none), it is
the progress rate. Each rate is the average over all the tasks of the task file: the paper
averages over its dataset, so a task with no prediction line has an empty output and counts
0 (the report lists those tasks under ``missing``).

The released files are read as released: ``id`` a string or an integer (kept as its text),
``type`` a string that may be empty (the twenty writing tasks of ``data/dataset.json``), and
keys the rates do not use (``answer``, ``way``) ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from legalsim.json_input import Problem, Record, UnreadableFile, file_text, read_document_text, read_records, shown


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
    """|M| / |K|: the share of the keywords, as listed, found in ``output``."""
    return sum(1 for keyword in keywords if keyword in output) / len(keywords)


def task_id(value: object) -> str | None:
    """A task id as text: a non-empty string, or an integer (LegalAgentBench's ids); None
    for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return value if isinstance(value, str) and value.strip() else None


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
        identity = task_id(data.get("id"))
        if identity is None:
            problem("id", f"must be a non-empty string or an integer, got {shown(data.get('id'))}")
        for name in ("question", "answer"):
            if not isinstance(data.get(name), str) or not data[name].strip():
                problem(name, f"must be a non-empty string, got {shown(data.get(name))}")
        if not isinstance(data.get("type"), str):
            problem("type", f"must be a string (empty for none), got {shown(data.get('type'))}")
        if not _strings(data.get("key")) or not data["key"]:
            problem("key", f"must be a non-empty list of non-empty strings, got {shown(data.get('key'))}")
        if not _strings(data.get("key_middle", [])):
            problem("key_middle", f"must be a list of non-empty strings, got {shown(data.get('key_middle'))}")
        if identity in first:
            problem("id", f"duplicate {identity!r} (first on line {first[identity]})")
        if len(problems) == before:
            first[identity] = record.line
            keys, middle = tuple(data["key"]), tuple(data.get("key_middle", []))
            tasks.append(AgentTask(identity, data["type"], data["question"], keys, middle))
    if not records and not problems:
        problems.append(Problem(str(path), 1, "file", "holds no tasks"))
    return tasks, problems


def predictions_read(path: Path, task_ids: set[str]) -> tuple[list[Prediction], list[Problem]]:
    """The prediction lines of a JSONL file, and a problem for each line that cannot be used
    (not an object, a missing or mistyped field, an id that is no task's or given twice)."""
    records, problems = prediction_records(path)
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
        identity = task_id(data.get("id"))
        if identity is None:
            problem("id", f"must be a non-empty string or an integer, got {shown(data.get('id'))}")
        elif identity not in task_ids:
            problem("id", f"unknown task {shown(data.get('id'))}: not in the task file")
        elif identity in first:
            problem("id", f"duplicate {identity!r} (first on line {first[identity]})")
        if not isinstance(data.get("res"), str):
            problem("res", f"must be a string (the answer), got {shown(data.get('res'))}")
        summary = data.get("summary")
        if summary is not None and not isinstance(summary, str):
            problem("summary", f"must be a string when given, got {shown(summary)}")
        if len(problems) == before:
            first[identity] = record.line
            predictions.append(Prediction(identity, data["res"], summary))
    return predictions, problems


def prediction_records(path: Path) -> tuple[list[Record], list[Problem]]:
    """A prediction file's records: a JSON list, or one object a line whatever the file's
    name (LegalAgentBench's released ``output_1205/*.json`` files are such lines)."""
    try:
        text = file_text(path)
    except UnreadableFile as error:
        return [], [error.problem]
    if path.suffix.lower() == ".json" and text.lstrip().startswith("["):
        return read_records(path)
    records: list[Record] = []
    problems: list[Problem] = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            data, found = read_document_text(line, str(path))
            problems += [replace(problem, line=number) for problem in found]
            if not found:
                records.append(Record(number, data, line))
    return records, problems


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
