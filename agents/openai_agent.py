"""A seat played by a model behind an OpenAI-compatible server."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from agents.decisions import decision_read, decision_read_leniently
from agents.prompts import memory_messages, turn_messages
from agents.skill_notes import SkillNote
from agents.strategy import (
    STRATEGY_TOOLS,
    current_strategy,
    reflection_messages,
    strategy_messages,
    strategy_read,
    strategy_types,
    with_strategy,
)
from agents.supervisor import SUPERVISED_ROLES, Supervisor, revision_message, supervisor_messages
from agents.tools.toolbox import (
    MAX_TOOL_CALLS,
    MEMORY_WRITES,
    CaseSearch,
    ToolBox,
    memory_reading,
    tool_definitions,
    turn_tools,
    usable_tools,
)
from court.documents import document_title
from court.engine.memory import memory_after
from court.engine.participants import DeltaSink, GenerationCancelled, MemoryRequest, ParticipantFailed, TurnRequest
from court.engine.steps import ArtifactDraft, MemoryUpdate, Reply
from court.engine.tokens import estimate_tokens
from court.engine.visibility import SeatView
from court.procedures.civil import DECISIONS
from legalsim.llm import LLMCall, LLMClient, LLMError, LLMResult, UnusableReply


class OpenAIAgent:
    def __init__(
        self,
        client: LLMClient,
        model: str,
        *,
        temperature: float,
        top_p: float,
        max_tokens: int,
        seed: int | None = None,
        case_search: CaseSearch | None = None,
        supervisor: Supervisor | None = None,
        skill_notes: tuple[SkillNote, ...] = (),
        strategy: list[dict[str, str]] | None = None,
    ) -> None:
        self.client, self.model = client, model
        self.skill_notes = skill_notes
        """Reflective notes this seat is given (the target lawyer of a trial run with notes)."""
        self.options = {"temperature": temperature, "top_p": top_p, "max_tokens": max_tokens, "seed": seed}
        self.case_search, self.supervisor = case_search, supervisor
        self.call_log: list[dict] = []
        """One entry per model call (tokens, latency, attempts, error), drained by the caller."""
        self.strategy = strategy
        """SimCourt's Strategy module: None when off, else this seat's strategy and its
        revisions so far (``TrialState.strategies``), which the caller stores."""

    def drain_calls(self) -> list[dict]:
        calls, self.call_log = self.call_log, []
        return calls

    def _converse(
        self,
        messages: list[dict],
        toolbox: ToolBox,
        tools: list[dict],
        where: dict[str, str],
        parse=None,
        on_delta: DeltaSink | None = None,
        lenient=None,
        later: Callable[[], list[dict]] | None = None,
    ) -> tuple[str, object, int]:
        """Call the model with the tool definitions ``tools``, run the tools it asks for, and
        call again until it answers.

        Returns the final text, what ``parse`` made of it (or, when the model kept missing
        the format, what ``lenient`` made of its last reply), and the tokens of every call.
        ``later`` gives the prompt the calls after the first carry before their tool messages
        (a memory update's, bounded once the seat has written); by default the first prompt.
        """
        head, tail, tokens = list(messages), [], 0
        for _ in range(MAX_TOOL_CALLS + 2):
            messages = head + tail
            exhausted = toolbox.calls >= MAX_TOOL_CALLS
            call = LLMCall(self.model, messages, tools=tools, tool_choice="none" if exhausted else None, **self.options)
            try:
                result, parsed = self.client.complete(call, on_delta=on_delta, parse=parse)
            except UnusableReply as unusable:
                result = unusable.result
                if lenient is None and not result.tool_calls:
                    self.call_log.append(
                        where | {"model": self.model, "attempts": unusable.attempts, "error": str(unusable)}
                    )
                    raise ParticipantFailed(str(unusable), permanent=False) from unusable
                parsed = lenient(result.text) if lenient is not None and not result.tool_calls else None
            except LLMError as error:
                self.call_log.append(where | {"model": self.model, "attempts": error.attempts, "error": str(error)})
                raise ParticipantFailed(str(error), permanent=error.permanent) from error
            except GenerationCancelled:
                self.call_log.append(where | {"model": self.model, "error": "cancelled: the statement was cut"})
                raise
            tokens += self._log_call(where, result, messages)
            if not result.tool_calls:
                return result.text, parsed, tokens
            tail.append(
                {
                    "role": "assistant",
                    "content": result.text or None,
                    "tool_calls": [
                        {
                            "id": call.id,
                            "type": "function",
                            "function": {"name": call.name, "arguments": call.arguments},
                        }
                        for call in result.tool_calls
                    ],
                }
            )
            tail.extend(
                {"role": "tool", "tool_call_id": call.id, "content": toolbox.call(call.name, call.arguments)}
                for call in result.tool_calls
            )
            head = later() if later is not None else head
        raise ParticipantFailed(f"{self.model} kept calling tools after the limit of {MAX_TOOL_CALLS}")

    def _log_call(self, where: dict[str, str], result: LLMResult, messages: list[dict]) -> int:
        """Record one call and return its tokens: as the server billed them, or estimated
        from the prompt and the reply when it reported none."""
        prompt, completion = result.prompt_tokens, result.completion_tokens
        if not result.usage_reported:
            prompt = estimate_tokens(json.dumps(messages, ensure_ascii=False))
            reply = result.text + "".join(call.name + call.arguments for call in result.tool_calls)
            completion = estimate_tokens(reply)
        self.call_log.append(
            where
            | {
                "model": result.model,
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "tokens_estimated": not result.usage_reported,
                "latency_s": result.latency_s,
                "attempts": result.attempts,
                "error": "; ".join(result.errors),
            }
        )
        return prompt + completion

    def respond(self, request: TurnRequest, *, on_delta: DeltaSink | None = None) -> Reply:
        step = request.step
        self._plan(request.view, step.speaker)
        toolbox = ToolBox(request.view, self.case_search)
        messages = turn_messages(
            request.view, speaker=step.speaker, act=step.act, artifact=step.artifact, notes=self.skill_notes
        )
        messages = with_strategy(messages, request.view, current_strategy(self.strategy or []))
        choices = DECISIONS.get(step.act)
        parse = partial(decision_read, choices=choices) if choices else None
        lenient = partial(decision_read_leniently, choices=choices) if choices else None
        where = {"seat": step.seat, "stage": step.stage, "act": step.act}
        tools = self._turn_tools(request)
        text, parsed, tokens = self._converse(messages, toolbox, tools, where, parse, on_delta, lenient)
        text, decision, source = parsed if parsed is not None else (text.strip(), None, "")
        supervised = self.supervisor is not None and request.view.role in SUPERVISED_ROLES
        if supervised and step.artifact is None and parse is None:
            text, extra = self._supervised(request, messages, text, toolbox, tools, where)
            tokens += extra
        artifact = None
        if step.artifact is not None:
            text = text or _said_this_stage(request)
            title = text.splitlines()[0].strip(" #*") if text else ""
            artifact = ArtifactDraft(title=title or document_title(step.artifact, request.view.language), text=text)
        return Reply(text=text, artifact=artifact, decision=decision, decision_source=source, tokens=tokens)

    def _turn_tools(self, request: TurnRequest) -> list[dict]:
        """The definitions of the tools this turn is offered (``turn_tools``)."""
        artifact = request.step.artifact
        names = turn_tools(request.view, act=request.step.act, artifact=artifact, library=self.case_search is not None)
        return tool_definitions(names, document=artifact)

    def _supervised(
        self, request: TurnRequest, messages: list[dict], text: str, toolbox: ToolBox, tools: list[dict], where: dict
    ) -> tuple[str, int]:
        """MASER: check the reply against the seat's profile; revise once if it fails. A
        verdict the supervisor's model could not give in its format leaves the reply as it is."""
        supervise = where | {"act": f"supervise:{request.step.act}"}
        prompt = supervisor_messages(request.view, request.step.speaker, text)
        try:
            verdict, result = self.supervisor.review(prompt)
        except UnusableReply as unusable:
            return text, self._log_call(supervise, unusable.result, prompt)
        except LLMError as error:
            raise ParticipantFailed(str(error), permanent=error.permanent) from error
        used = self._log_call(supervise, result, prompt)
        if verdict.consistent:
            return text, used
        revision = [
            *messages,
            {"role": "assistant", "content": text},
            revision_message(request.view, verdict.advice),
        ]
        revised, _, tokens = self._converse(revision, toolbox, tools, where)
        return revised.strip(), used + tokens

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        """The stage-end memory operations; a seat with a strategy first reflects on it
        (SimCourt: the strategy is adjusted before the long-term memory is summarised)."""
        view, stage = request.view, request.step.stage
        if self._keeps_strategy(view) and self.strategy and not _reflected_on(self.strategy, stage):
            self._reflect(view, view.seat, stage)
        toolbox = ToolBox(view, self.case_search)
        where = {"seat": request.step.seat, "stage": stage, "act": "update_memory"}
        strategy = current_strategy(self.strategy or [])
        messages = with_strategy(memory_messages(view, view.seat), view, strategy)

        def written() -> list[dict]:
            """The prompt once the seat has written: its memory so far, the stage's last lines
            (the whole stage again while nothing is written)."""
            if not toolbox.memory_ops:
                return messages
            memory = memory_after(view.memory or {}, toolbox.memory_ops)
            return with_strategy(memory_messages(replace(view, memory=memory), view.seat, written=True), view, strategy)

        self._converse(messages, toolbox, tool_definitions(MEMORY_WRITES), where, later=written)
        return MemoryUpdate(tuple(toolbox.memory_ops))

    def stage_ended(self, view: SeatView, stage: str) -> None:
        """SimCourt's stage-end reflection for a seat the engine asks no memory update of (the
        criminal judge, ``strategy.stage_end_reflectors``): ``view`` is its view of ``stage``."""
        if self._keeps_strategy(view) and self.strategy and not _reflected_on(self.strategy, stage):
            self._reflect(view, view.seat, stage)

    def _keeps_strategy(self, view: SeatView) -> bool:
        return self.strategy is not None and bool(strategy_types(view))

    def _plan(self, view: SeatView, speaker: str) -> None:
        """Before a turn: the strategy, before the seat's first turn."""
        if self._keeps_strategy(view) and not self.strategy:
            self._strategy_write(view, "strategy", view.stage, strategy_messages(view, speaker))

    def _reflect(self, view: SeatView, speaker: str, stage: str) -> None:
        messages = reflection_messages(view, speaker, current_strategy(self.strategy), stage)
        self._strategy_write(view, "reflection", stage, messages)

    def _strategy_write(self, view: SeatView, kind: str, stage: str, messages: list[dict]) -> None:
        """One strategy or reflection call, its result appended to the seat's strategy log. A
        reply with no strategy, or a failed call, leaves the strategy as it was, with a warning:
        the trial goes on without it."""
        where = {"seat": view.seat, "stage": stage, "act": kind}
        names = usable_tools(STRATEGY_TOOLS, view, library=self.case_search is not None) + memory_reading(view)
        tools = tool_definitions(names)
        try:
            text, _, _ = self._converse(messages, ToolBox(view, self.case_search), tools, where)
        except ParticipantFailed as failure:
            text, warning = "", f"the {kind} call failed: {failure}"
        else:
            warning = "" if strategy_read(text) else f"the model wrote no {kind}; the strategy is unchanged"
        written = strategy_read(text) or ""
        self.strategy.append({"stage": stage, "kind": kind, "text": written, "warning": warning})


def _reflected_on(entries: list[dict[str, str]], stage: str) -> bool:
    """Whether the strategy was last revised at the end of ``stage`` (a resumed trial asks a
    seat again for a step whose reflection it had already made)."""
    last = entries[-1]
    return last["kind"] == "reflection" and last["stage"] == stage


def _said_this_stage(request: TurnRequest) -> str:
    """A document assembled from what its seat said in this stage (the view's dialogue is the
    stage's), for a model that answered a drafting act with nothing: the words are the
    seat's own, never invented."""
    said = (turn["text"] for turn in request.view.dialogue if turn["seat"] == request.step.seat)
    return "\n\n".join(text for text in said if text.strip())
