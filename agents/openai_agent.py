"""A seat played by a model behind an OpenAI-compatible server."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import partial

from agents.decisions import decision_read, decision_read_leniently
from agents.prompt_fit import PromptBudget, PromptTooLarge, fitted, prompt_size, tail_fitted
from agents.prompts import memory_messages, turn_messages
from agents.routing import call_cost, model_window
from agents.seat_tools import refused, stage_catalogue
from agents.skill_notes import SkillNote
from agents.strategy import (
    STRATEGY_TOOLS,
    current_strategy,
    reflection_messages,
    strategy_messages,
    strategy_read,
    strategy_types,
)
from agents.supervisor import SUPERVISED_ROLES, Supervisor, revision_message, supervisor_messages
from agents.tools.toolbox import (
    MAX_TOOL_CALLS,
    MEMORY_WRITES,
    CaseSearch,
    ToolBox,
    memory_reading,
    turn_tools,
    usable_tools,
)
from court.documents import document_title
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
        self._window: int | None = None
        self._window_known = False

    @property
    def window(self) -> int | None:
        """The model's context window (``routing.model_window``), looked up at the first call."""
        if not self._window_known:
            self._window, self._window_known = model_window(self.model, self.client), True
        return self._window

    def _fitted(self, build: Callable[[PromptBudget], list[dict]], tools: list[dict]) -> list[dict]:
        """The prompt ``build`` makes, fitted to the model's window (``prompt_fit``); one that
        cannot fit pauses the trial with what to set."""
        try:
            messages, _ = fitted(
                build, tools=tools, model=self.model, window=self.window, max_tokens=self.options["max_tokens"]
            )
        except PromptTooLarge as error:
            raise ParticipantFailed(str(error), permanent=True) from error
        return messages

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
        allowed: tuple[str, ...] = (),
        later: Callable[[], list[dict]] | None = None,
    ) -> tuple[str, object, int]:
        """Call the model with the tool definitions ``tools``, run the tools it asks for, and
        call again until it answers.

        Returns the final text, what ``parse`` made of it (or, when the model kept missing
        the format, what ``lenient`` made of its last reply), and the tokens of every call.
        Each call after the first carries the first's prompt (or ``later``'s, a memory update's
        once it has read the stage) and the tool calls so far, as many of them as fit the
        model's window (``tail_fitted``). ``tools`` is the seat's catalogue (``stage_catalogue``);
        a tool of it that is not ``allowed`` answers with its refusal.
        """
        head, tail, tokens = list(messages), [], 0
        for _ in range(MAX_TOOL_CALLS + 2):
            messages, reply, cut = tail_fitted(
                head, tail, tools=tools, window=self.window, max_tokens=self.options["max_tokens"]
            )
            exhausted = toolbox.calls >= MAX_TOOL_CALLS or cut
            call = LLMCall(
                self.model,
                messages,
                tools=tools,
                tool_choice="none" if exhausted else None,
                **(self.options | {"max_tokens": reply}),
                window=self.window,
                prompt_estimate=prompt_size(messages, tools),
                cache_key=_cache_key(self.model, toolbox.view),
            )
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
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "content": refused(call, allowed) or toolbox.call(call.name, call.arguments),
                }
                for call in result.tool_calls
            )
            head = later() if later is not None else head
        raise ParticipantFailed(f"{self.model} kept calling tools after the limit of {MAX_TOOL_CALLS}")

    def _log_call(self, where: dict[str, str], result: LLMResult, messages: list[dict]) -> int:
        """Record one call and return its tokens: as the server billed them, or estimated
        from the prompt and the reply when it reported none."""
        prompt, completion, cached = result.prompt_tokens, result.completion_tokens, result.cached_tokens
        if not result.usage_reported:
            prompt = estimate_tokens(json.dumps(messages, ensure_ascii=False))
            reply = result.text + "".join(call.name + call.arguments for call in result.tool_calls)
            completion = estimate_tokens(reply)
        self.call_log.append(
            where
            | {
                "model": result.model,
                "prompt_tokens": prompt,
                "cached_tokens": cached,
                "completion_tokens": completion,
                "cost": call_cost(result.model, prompt=prompt, cached=cached, completion=completion),
                "tokens_estimated": not result.usage_reported,
                "latency_s": result.latency_s,
                "attempts": result.attempts,
                "error": "; ".join(result.errors),
            }
        )
        return prompt + completion

    def respond(self, request: TurnRequest, *, on_delta: DeltaSink | None = None) -> Reply:
        step = request.step
        self._plan(request.view)
        toolbox = ToolBox(request.view, self.case_search)
        strategy = current_strategy(self.strategy or [])
        allowed = self._turn_tools(request)
        tools = self._catalogue(request.view)

        def build(budget: PromptBudget) -> list[dict]:
            return turn_messages(
                request.view,
                speaker=step.speaker,
                act=step.act,
                artifact=step.artifact,
                notes=self.skill_notes,
                budget=budget,
                strategy=strategy,
            )

        messages = self._fitted(build, tools)
        choices = DECISIONS.get(step.act)
        parse = partial(decision_read, choices=choices) if choices else None
        lenient = partial(decision_read_leniently, choices=choices) if choices else None
        where = {"seat": step.seat, "stage": step.stage, "act": step.act}
        text, parsed, tokens = self._converse(messages, toolbox, tools, where, parse, on_delta, lenient, allowed)
        text, decision, source = parsed if parsed is not None else (text.strip(), None, "")
        supervised = self.supervisor is not None and request.view.role in SUPERVISED_ROLES
        if supervised and step.artifact is None and parse is None:
            text, extra = self._supervised(request, messages, text, toolbox, (tools, allowed), where)
            tokens += extra
        artifact = None
        if step.artifact is not None:
            text = text or _said_this_stage(request)
            title = text.splitlines()[0].strip(" #*") if text else ""
            artifact = ArtifactDraft(title=title or document_title(step.artifact, request.view.language), text=text)
        return Reply(text=text, artifact=artifact, decision=decision, decision_source=source, tokens=tokens)

    def _turn_tools(self, request: TurnRequest) -> tuple[str, ...]:
        """The tools this turn may use (``turn_tools``)."""
        artifact = request.step.artifact
        return turn_tools(request.view, act=request.step.act, artifact=artifact, library=self.case_search is not None)

    def _catalogue(self, view: SeatView) -> list[dict]:
        """The seat's tool catalogue in ``view``'s stage (``stage_catalogue``)."""
        return stage_catalogue(view, library=self.case_search is not None, planning=self._keeps_strategy(view))

    def _supervised(
        self,
        request: TurnRequest,
        messages: list[dict],
        text: str,
        toolbox: ToolBox,
        tools: tuple[list[dict], tuple[str, ...]],
        where: dict,
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
        catalogue, allowed = tools
        revised, _, tokens = self._converse(revision, toolbox, catalogue, where, allowed=allowed)
        return revised.strip(), used + tokens

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        """The stage-end memory operations; a seat with a strategy first reflects on it
        (SimCourt: the strategy is adjusted before the long-term memory is summarised)."""
        view, stage = request.view, request.step.stage
        if self._keeps_strategy(view) and self.strategy and not _reflected_on(self.strategy, stage):
            self._reflect(view, stage)
        toolbox = ToolBox(view, self.case_search)
        where = {"seat": request.step.seat, "stage": stage, "act": "update_memory"}
        strategy = current_strategy(self.strategy or [])
        tools = self._catalogue(view)

        def prompt(*, written: bool = False) -> list[dict]:
            return self._fitted(
                lambda budget: memory_messages(
                    view, budget=budget, written=written, notes=self.skill_notes, strategy=strategy
                ),
                tools,
            )

        def later() -> list[dict]:
            """Once the seat has written, the calls carry the stage's last lines, not the whole."""
            return prompt(written=True) if toolbox.memory_ops else first

        first = prompt()
        self._converse(first, toolbox, tools, where, allowed=MEMORY_WRITES, later=later)
        return MemoryUpdate(tuple(toolbox.memory_ops))

    def stage_ended(self, view: SeatView, stage: str) -> None:
        """SimCourt's stage-end reflection for a seat the engine asks no memory update of (the
        criminal judge, ``strategy.stage_end_reflectors``): ``view`` is its view of ``stage``."""
        if self._keeps_strategy(view) and self.strategy and not _reflected_on(self.strategy, stage):
            self._reflect(view, stage)

    def _keeps_strategy(self, view: SeatView) -> bool:
        return self.strategy is not None and bool(strategy_types(view))

    def _plan(self, view: SeatView) -> None:
        """Before a turn: the strategy, before the seat's first turn."""
        if self._keeps_strategy(view) and not self.strategy:
            self._strategy_write(view, "strategy", view.stage, strategy_messages(view))

    def _reflect(self, view: SeatView, stage: str) -> None:
        messages = reflection_messages(view, current_strategy(self.strategy), stage)
        self._strategy_write(view, "reflection", stage, messages)

    def _strategy_write(self, view: SeatView, kind: str, stage: str, messages: list[dict]) -> None:
        """One strategy or reflection call, its result appended to the seat's strategy log. A
        reply with no strategy, or a failed call, leaves the strategy as it was, with a warning:
        the trial goes on without it."""
        where = {"seat": view.seat, "stage": stage, "act": kind}
        names = usable_tools(STRATEGY_TOOLS, view, library=self.case_search is not None) + memory_reading(view)
        tools = self._catalogue(view)
        try:
            sent = self._fitted(lambda _: messages, tools)
            text, _, _ = self._converse(sent, ToolBox(view, self.case_search), tools, where, allowed=names)
        except ParticipantFailed as failure:
            text, warning = "", f"the {kind} call failed: {failure}"
        else:
            warning = "" if strategy_read(text) else f"the model wrote no {kind}; the strategy is unchanged"
        written = strategy_read(text) or ""
        self.strategy.append({"stage": stage, "kind": kind, "text": written, "warning": warning})


def _cache_key(model: str, view: SeatView) -> str:
    """The prompt-cache key of a seat's calls: its model, case and seat (the calls whose
    prompts share their opening)."""
    return hashlib.sha256(f"{model}|{view.case['title']}|{view.seat}".encode()).hexdigest()[:24]


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
