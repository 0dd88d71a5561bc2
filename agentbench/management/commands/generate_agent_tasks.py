from __future__ import annotations

from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand

from agentbench.task_set import TASKS_FILE, tasks_write


class Command(BaseCommand):
    help = (
        "Generate the agent task set from the statute corpus and the demo case library: each task's path of "
        "tool calls is run and its keywords taken from what the tools return. docs/agent-tasks.md."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", type=Path, default=TASKS_FILE, help="default agentbench/data/tasks.json")

    def handle(self, *args, **options) -> None:
        tasks = tasks_write(options["out"])
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(Counter(t["type"] for t in tasks).items()))
        self.stdout.write(f"{len(tasks)} task(s) ({kinds}); wrote {options['out']}")
