"""The shipped task set: enough tasks, multi-hop ones among them, and every keyword exactly
what the tools return on the task's solution path (as LegalAgentBench takes its keys)."""

from __future__ import annotations

import json

from agentbench.library import ResearchTools
from agentbench.metrics import tasks_read
from agentbench.task_set import TASKS_FILE, path_observations, tasks_build


def test_the_shipped_tasks_read_without_problems_and_hold_multi_hop_ones():
    tasks, problems = tasks_read(TASKS_FILE)
    shipped = json.loads(TASKS_FILE.read_text(encoding="utf-8"))

    assert problems == []
    assert len(tasks) >= 60
    assert sum(1 for task in shipped if task["hops"] >= 2) >= 20
    assert sum(1 for task in shipped if task["hops"] == 3) >= 5


def test_every_keyword_is_in_what_the_tools_return_on_the_tasks_path():
    tools = ResearchTools.demo()
    ungrounded = []
    for task in json.loads(TASKS_FILE.read_text(encoding="utf-8")):
        observed = "\n".join(path_observations(tools, task["path"]))
        ungrounded += [f"{task['id']}: {key}" for key in task["key"] + task["key_middle"] if key not in observed]
    assert ungrounded == []


def test_the_generator_rebuilds_the_shipped_ids():
    """The shipped file is the generator's output (regenerate with generate_agent_tasks when
    the corpora or the tools change)."""
    shipped = json.loads(TASKS_FILE.read_text(encoding="utf-8"))

    assert [task["id"] for task in tasks_build()] == [task["id"] for task in shipped]
