from __future__ import annotations

from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from agentbench.task_set import TASKS_FILE, tasks_write


class Command(BaseCommand):
    help = (
        "Generate the agent task set from the statute corpus and the demo case library: each task's path of "
        "tool calls is run and its keywords taken from what the tools return. docs/agent-tasks.md."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--out",
            type=Path,
            default=TASKS_FILE,
            help=f"FILE.json, or a directory for {TASKS_FILE.name} (default agentbench/data/tasks.json)",
        )

    def handle(self, *args, **options) -> None:
        out = options["out"] / TASKS_FILE.name if options["out"].is_dir() else options["out"]
        try:
            tasks = tasks_write(out)
        except OSError as error:
            raise CommandError(f"--out {out}: {error.strerror or error}; nothing written") from error
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(Counter(t["type"] for t in tasks).items()))
        self.stdout.write(f"{len(tasks)} task(s) ({kinds}); wrote {out}")
