"""agent_metrics on LegalAgentBench's released files as released: integer ids, writing tasks
with an empty ``type``, one prediction a line in a ``.json`` file; the figures those of the
benchmark's own ``src/evaluation/eval.py`` (a keyword listed twice counts twice), to four places.
The slice and its MIT notice are in tests/agentbench/data/legalagentbench/."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

RELEASED = Path(__file__).parent / "data" / "legalagentbench"
TASKS, PREDICTIONS = RELEASED / "dataset.json", RELEASED / "react_1205_gpt-4o-2024-08-06.json"


def figures(capsys, tasks: Path, predictions: Path) -> dict[str, list[str]]:
    call_command("agent_metrics", "--tasks", str(tasks), "--pred", str(predictions))
    rows = capsys.readouterr().out.splitlines()[2:]
    return {row[:20].strip(): row[20:].split() for row in rows}


def test_the_released_slice_scores_as_eval_py_prints_it(capsys):
    table = figures(capsys, TASKS, PREDICTIONS)
    assert table["all"] == ["6", "0.7476", "0.7379"], "eval.py: 0.7476 (key_answer), 0.7379 (key_middle)"
    assert table["(no type)"][0] == "1", "the writing task is read, its empty type kept"


def test_a_keyword_listed_twice_counts_twice(capsys, tmp_path):
    only = tmp_path / "dataset.json"
    text = TASKS.read_text(encoding="utf-8")
    start = text.index('    {\n        "id": 275')
    only.write_text("[\n" + text[start : text.index("    },", start) + 5] + "\n]\n", encoding="utf-8")
    predictions = tmp_path / "pred.json"
    line = next(line for line in PREDICTIONS.read_text(encoding="utf-8").splitlines() if line.startswith('{"id": 275'))
    predictions.write_text(line + "\n", encoding="utf-8")
    assert figures(capsys, only, predictions)["all"][2] == "0.2000", "2 of 10 as listed, not 2 of 9 (0.2222)"


def test_a_broken_line_of_a_released_output_is_refused_at_its_line(tmp_path):
    lines = PREDICTIONS.read_text(encoding="utf-8").splitlines()
    broken = tmp_path / "react.json"
    broken.write_text("\n".join([lines[0], '{"id": true, "res": ""}', lines[2][:40]]) + "\n", encoding="utf-8")
    with pytest.raises(CommandError) as raised:
        call_command("agent_metrics", "--tasks", str(TASKS), "--pred", str(broken))
    message = str(raised.value)
    assert f"{broken}:2: id: must be a non-empty string or an integer, got True" in message
    assert f"{broken}:3: json: invalid JSON" in message
    assert f"{broken}:1:" not in message
