#!/usr/bin/env python
"""The agent tasks' scripted baseline (``run_agent_tasks --model scripted``): its success
rate and progress rate ("LegalAgentBench: Evaluating LLM Agents in Legal Domain", arXiv
2412.17259, Appendix E.2), over all tasks and per task type, and the seconds the run took.

    .venv/bin/python benchmarks/agent_tasks.py [--tasks agentbench/data/tasks.json]

The baseline makes one tool call chosen by the task's type, with the whole question as its
input, and answers with the observation (``agentbench/react.py``). No model, no database:
the statute corpus and the demo case library only. Figures: docs/agent-tasks.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description="Success and progress rates of the scripted baseline.")
    parser.add_argument("--tasks", type=Path, default=ROOT / "agentbench" / "data" / "tasks.json")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from agentbench.library import ResearchTools
    from agentbench.metrics import Prediction, agent_report, tasks_read
    from agentbench.react import SCRIPTED, player_for

    tasks, problems = tasks_read(args.tasks)
    if problems:
        sys.exit("\n".join(str(problem) for problem in problems))
    started = time.perf_counter()
    play = player_for(SCRIPTED, ResearchTools.demo())
    predictions = [Prediction(task.id, played.res, played.summary) for task in tasks for played in [play(task)]]
    seconds = time.perf_counter() - started
    report = agent_report(tasks, predictions)
    print(f"scripted baseline, {report['n']} tasks, {seconds:.1f} s")
    print(f"{'type':<18}{'n':>4}  {'success':>8}  {'progress':>8}")
    for name, figures in [("all", report), *report["by_type"].items()]:
        print(f"{name:<18}{figures['n']:>4}  {figures['success_rate']:>8.3f}  {figures['progress_rate']:>8.3f}")


if __name__ == "__main__":
    main()
