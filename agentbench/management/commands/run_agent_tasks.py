from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from agentbench.library import ResearchTools
from agentbench.management.commands.agent_metrics import out_file, out_write, report_print
from agentbench.metrics import Prediction, agent_report, tasks_read
from agentbench.react import SCRIPTED, player_for
from agentbench.task_set import TASKS_FILE
from legalsim.llm import LLMError

PREDICTIONS_NAME = "agent-predictions.jsonl"


class Command(BaseCommand):
    help = (
        "Play the agent tasks with the research tools: a ReAct loop (at most 10 iterations, then a summary) on "
        "--model through OPENAI_BASE_URL, or the scripted baseline (--model scripted, the default when no model "
        "server is set). Writes the predictions file agent_metrics reads, with token counts, and prints its "
        "rates. docs/agent-tasks.md."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--model", help="a model name, or scripted (default: scripted without OPENAI_BASE_URL)")
        parser.add_argument("--tasks", type=Path, default=TASKS_FILE, help="default agentbench/data/tasks.json")
        parser.add_argument(
            "--out",
            type=Path,
            default=Path(PREDICTIONS_NAME),
            help=f"PRED.jsonl, or a directory for {PREDICTIONS_NAME} (default: {PREDICTIONS_NAME} here)",
        )

    def handle(self, *args, **options) -> None:
        model = options["model"] or (settings.LEGALSIM_MODEL if settings.OPENAI_BASE_URL else SCRIPTED)
        out = out_file(options["out"], PREDICTIONS_NAME)
        tasks, problems = tasks_read(options["tasks"])
        if problems:
            raise CommandError("\n".join(str(problem) for problem in problems))
        try:
            play = player_for(model, ResearchTools.demo())
        except LLMError as error:
            raise CommandError(str(error)) from error
        plays = []
        for task in tasks:
            try:
                plays.append(play(task))
            except LLMError as error:
                raise CommandError(f"{model}: {error}; stopped at task {task.id}, nothing written") from error
        out_write(out, "".join(json.dumps(p.as_line(model), ensure_ascii=False) + "\n" for p in plays))
        tokens = sum(p.prompt_tokens + p.completion_tokens for p in plays)
        self.stdout.write(f"{model}: {len(plays)} task(s) played, {tokens} tokens; wrote {out}")
        report_print(self, agent_report(tasks, [Prediction(p.id, p.res, p.summary) for p in plays]))
