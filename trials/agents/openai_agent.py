"""A seat played by a model behind an OpenAI-compatible server."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from trials.agents.base import MemoryRequest, ParticipantFailed, TurnRequest, estimate_tokens
from trials.agents.llm import LLMCall, LLMClient, LLMError, ReplyFormatError
from trials.agents.memory import MEMORY_KEYS, MemoryOp
from trials.agents.prompts import DECISION_MARK, memory_messages, turn_messages
from trials.engine.steps import ArtifactDraft, MemoryUpdate, Reply

DECISION_LINE = re.compile(rf"^\s*`?{DECISION_MARK}\s*(accept|decline)`?\s*$", re.IGNORECASE | re.MULTILINE)


def parse_decision(text: str) -> tuple[str, str]:
    """Split off the ``DECISION: accept|decline`` line a mediation answer must end with."""
    matches = list(DECISION_LINE.finditer(text))
    if not matches:
        raise ReplyFormatError(f"no '{DECISION_MARK} accept|decline' line")
    last = matches[-1]
    return (text[: last.start()] + text[last.end() :]).strip(), last.group(1).lower()


def parse_memory_ops(text: str) -> tuple[MemoryOp, ...]:
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").split("\n", 1)[-1]
    try:
        data = json.loads(body[body.find("{") : body.rfind("}") + 1])
        ops = data["ops"]
        parsed = tuple(MemoryOp(op["op"], op["key"], tuple(str(entry) for entry in op["entries"])) for op in ops)
    except (ValueError, KeyError, TypeError) as error:
        raise ReplyFormatError(f"memory update is not the JSON asked for ({error})") from None
    unknown = [op.key for op in parsed if op.key not in MEMORY_KEYS or op.op not in ("revise", "expand")]
    if unknown:
        raise ReplyFormatError(f"memory operations on unknown keys or ops: {unknown}")
    return parsed


class OpenAIAgent:
    def __init__(
        self,
        client: LLMClient,
        model: str,
        *,
        temperature: float,
        top_p: float,
        max_tokens: int,
        on_delta: Callable[[str], None] | None = None,
    ) -> None:
        self.client, self.model = client, model
        self.options = {"temperature": temperature, "top_p": top_p, "max_tokens": max_tokens}
        self.on_delta = on_delta

    def _call(self, messages: list[dict[str, str]], parse=None):
        try:
            return self.client.complete(
                LLMCall(self.model, messages, **self.options), on_delta=self.on_delta, parse=parse
            )
        except LLMError as error:
            raise ParticipantFailed(str(error), permanent=error.permanent) from error

    def respond(self, request: TurnRequest) -> Reply:
        step = request.step
        messages = turn_messages(request.view, speaker=step.speaker, act=step.act, artifact=step.artifact)
        parse = parse_decision if step.act == "answer_mediation" else None
        result, parsed = self._call(messages, parse)
        text, decision = parsed if parsed is not None else (result.text.strip(), None)
        tokens = result.prompt_tokens + result.completion_tokens or estimate_tokens(result.text)
        artifact = None
        if step.artifact is not None:
            title = text.splitlines()[0].strip(" #*") if text else step.artifact
            artifact = ArtifactDraft(title=title or step.artifact, text=text)
        return Reply(text=text, artifact=artifact, decision=decision, tokens=tokens)

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        _, ops = self._call(memory_messages(request.view, request.view.seat), parse_memory_ops)
        return MemoryUpdate(ops)
