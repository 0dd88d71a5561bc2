"""Playing the agent tasks: a ReAct loop over the research tools ("LegalAgentBench: Evaluating
LLM Agents in Legal Domain", arXiv 2412.17259, §4.1.1 and Appendix E.1), or the scripted
baseline.

**ReAct.** Each iteration the model writes a thought and one action, ``Action:
tool[input]``, or ends with ``Finish[answer]``; the tool's observation is sent back. After
``Finish`` or ``MAX_ITERATIONS`` iterations the model is asked once more to summarise the
trajectory and give its answer (the paper's summary step). The answer (``res``) is the
``Finish`` text, else the ``Finish`` of the summary reply, else empty: a model that never
keeps the format still gets a prediction line. A reply with no action is told the format
and counts as an iteration. Model calls go through ``legalsim.llm.LLMClient`` (its retries,
``OPENAI_BASE_URL``) at temperature 0, as the paper's; a server that still fails raises
``LLMError``, never an empty answer.

**Scripted baseline** (``--model scripted``, no model server): one tool call chosen by the
task's type (``BASELINE_TOOL``), with the whole question as its input, and that observation
as the answer. It shows what a single lookup reaches: the one-hop types, and the first hop
of the others.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from agentbench.library import TOOLS, ResearchTools
from agentbench.metrics import AgentTask
from legalsim.llm import LLMCall, LLMClient

MAX_ITERATIONS = 10
SCRIPTED = "scripted"
BASELINE_TOOL = {
    "article": "check_citations",
    "statute_search": "search_statutes",
    "case_header": "read_case",
    "case_citations": "read_case",
    "case_article": "read_case",
    "precedent": "search_cases",
    "facts_to_case": "search_cases",
    "facts_to_article": "search_cases",
}
ACTION = re.compile(r"Action\s*[:：]\s*(\w+)\s*\[([^\n]*)\]")
FINISH = re.compile(r"Finish\s*\[(.*)\]", re.S)
"""An action's input is one line (to its last ``]``); a Finish answer may run over lines."""
OBSERVATION_MAX_CHARS = 6000
FORMAT_REMINDER = (
    "Observation: no action found. Reply with a thought and one line 'Action: tool[input]', or 'Finish[your answer]'."
)
SUMMARY_REQUEST = (
    "Summarise the steps you took and what each tool returned that matters, then give your final "
    "answer on a last line as 'Finish[your answer]'."
)


def system_prompt() -> str:
    tools = "\n".join(f"- {name}[{argument}]: {what}" for name, (argument, what) in TOOLS.items())
    return (
        "You are a legal research agent. Answer the question with the tools below, one action at a "
        "time. Each reply: a line 'Thought: ...' then either one line 'Action: tool[input]' or, when you "
        "know the answer, 'Finish[answer]'. Quote the words and article numbers the tools return.\n"
        f"Tools:\n{tools}\n"
        "Example:\nThought: I need the article on overdue interest.\nAction: search_statutes[借款 逾期利息]\n"
        "Observation: ...\nThought: The search returned the article.\n"
        "Finish[《中华人民共和国民法典》第六百七十六条：借款人未按照约定的期限返还借款的，应当按照约定或者国家有关规定支付逾期利息]"
    )


@dataclass
class Play:
    """One task played: what the predictions file records."""

    id: str
    res: str
    summary: str | None = None
    iterations: int = 0
    finished: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    actions: list[str] = field(default_factory=list)

    def as_line(self, model: str) -> dict[str, Any]:
        line: dict[str, Any] = {"id": self.id, "res": self.res}
        if self.summary is not None:
            line["summary"] = self.summary
        return line | {
            "model": model,
            "iterations": self.iterations,
            "finished": self.finished,
            "actions": self.actions,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


def scripted_play(task: AgentTask, tools: ResearchTools) -> Play:
    """The baseline: one call of the type's tool on the question; its observation answers."""
    name = BASELINE_TOOL.get(task.type, "search_statutes")
    observation = tools.call(name, task.question)
    return Play(id=task.id, res=observation, iterations=1, finished=True, actions=[f"{name}[question]"])


def action_parse(reply: str) -> tuple[str, str] | None:
    """``("finish", answer)`` or ``(tool, input)`` from a reply (its first action or Finish,
    whichever comes first), or None when it holds neither."""
    action, finish = ACTION.search(reply), FINISH.search(reply)
    if finish and (action is None or finish.start() < action.start()):
        return "finish", finish.group(1).strip()
    if action:
        return action.group(1), action.group(2).strip()
    return None


class ReactAgent:
    def __init__(self, client: LLMClient, model: str, tools: ResearchTools, seed: int | None = None) -> None:
        self.client, self.model, self.tools, self.seed = client, model, tools, seed

    def _complete(self, messages: list[dict[str, str]], play: Play) -> str:
        call = LLMCall(model=self.model, messages=messages, temperature=0.0, top_p=1.0, max_tokens=1024, seed=self.seed)
        result, _ = self.client.complete(call)
        play.prompt_tokens += result.prompt_tokens
        play.completion_tokens += result.completion_tokens
        return result.text

    def play(self, task: AgentTask) -> Play:
        play = Play(id=task.id, res="")
        messages = [{"role": "system", "content": system_prompt()}, {"role": "user", "content": task.question}]
        while play.iterations < MAX_ITERATIONS and not play.finished:
            play.iterations += 1
            reply = self._complete(messages, play)
            messages.append({"role": "assistant", "content": reply})
            parsed = action_parse(reply)
            if parsed and parsed[0] == "finish":
                play.res, play.finished = parsed[1], True
                continue
            observation = FORMAT_REMINDER
            if parsed:
                play.actions.append(f"{parsed[0]}[{parsed[1]}]")
                observation = "Observation: " + self.tools.call(*parsed)[:OBSERVATION_MAX_CHARS]
            messages.append({"role": "user", "content": observation})
        messages.append({"role": "user", "content": SUMMARY_REQUEST})
        play.summary = self._complete(messages, play)
        if not play.finished:
            parsed = action_parse(play.summary)
            play.res = parsed[1] if parsed and parsed[0] == "finish" else ""
        return play


Player = Callable[[AgentTask], Play]


def player_for(model: str, tools: ResearchTools, client: LLMClient | None = None) -> Player:
    """The scripted baseline for ``scripted``; else the ReAct agent on ``model`` (the
    settings' ``OPENAI_BASE_URL`` unless a client is given, and ``LEGALSIM_SEED`` when set)."""
    if model == SCRIPTED:
        return lambda task: scripted_play(task, tools)
    agent = ReactAgent(client or LLMClient.from_settings(), model, tools, seed=settings.LEGALSIM_SEED)
    return agent.play
