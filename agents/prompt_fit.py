"""A prompt fitted to its model's context window before it is sent (docs/llm-servers.md,
"Context windows").

The window is ``LEGALSIM_MODEL_CONTEXT``'s for the model, else what the server reports
(``agents.routing.model_window``); with none known a prompt goes as it is. A prompt is built
again with a smaller ``PromptBudget`` until it fits with room for the reply: first the
dialogue window, then the memory shown, then (for a document or a memory update, which read
the stage whole) the lines before the window summarised as their openings, and at last left
out. The case fields the stage shows are never cut. A prompt that does not fit even so raises
``PromptTooLarge``, whose message names the window, the prompt's size and what to set; the
trial pauses with it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from agents.memory_budget import MEMORY_TOKENS
from court.engine.tokens import estimate_tokens

SAFETY = 0.9
"""The share of a window a prompt and its reply may fill: ``estimate_tokens`` is not the
server's tokenizer."""
MESSAGE_TOKENS = 4
"""What a chat template adds around each message."""


@dataclass(frozen=True)
class PromptBudget:
    """How much of what can be shortened a prompt shows: the dialogue window's tokens (None:
    ``dialogue_window.RECENT_TOKENS`` less the memory), the memory's tokens
    (``memory_shown``), and each line before the window of a whole read cut to
    ``earlier_chars`` characters (None: whole; 0: left out)."""

    dialogue: int | None = None
    memory: int | None = MEMORY_TOKENS
    earlier_chars: int | None = None


BUDGETS = (
    PromptBudget(),
    PromptBudget(dialogue=500),
    PromptBudget(dialogue=500, memory=150, earlier_chars=200),
    PromptBudget(dialogue=250, memory=60, earlier_chars=60),
    PromptBudget(dialogue=0, memory=0, earlier_chars=20),
    PromptBudget(dialogue=0, memory=0, earlier_chars=0),
)
"""Each smaller than the one before; the last keeps the stage's fields, the last line said and
the task."""


class PromptTooLarge(Exception):
    """No budget fits the prompt in the window; the message says what to set."""

    def __init__(self, *, model: str, window: int, size: int, reply: int) -> None:
        example = json.dumps({model: max(2 * window, size + reply)})
        super().__init__(
            f"the prompt does not fit {model}'s context window of {window:,} tokens: it needs about {size:,} "
            f"tokens and {reply:,} more for the reply even with the dialogue and memory shortened; start the "
            f"server with a larger window (llama.cpp: --n_ctx) and set LEGALSIM_MODEL_CONTEXT to it "
            f"(e.g. '{example}'), or lower LEGALSIM_MAX_TOKENS; then resume the trial"
        )
        self.window, self.size = window, size


def prompt_size(messages: list[dict], tools: list[dict] | None) -> int:
    """A request's prompt tokens as ``estimate_tokens`` counts them: every message's text and
    tool calls, the template's marks around each, and the tool catalogue."""
    texts = [message.get("content") or "" for message in messages]
    texts += [json.dumps(message.get("tool_calls") or "", ensure_ascii=False) for message in messages]
    catalogue = json.dumps(tools or [], ensure_ascii=False)
    return estimate_tokens("\n".join([*texts, catalogue])) + MESSAGE_TOKENS * len(messages)


def reply_room(window: int, max_tokens: int) -> int:
    """The least a reply is left: ``max_tokens`` up to a quarter of the window."""
    return min(max_tokens, window // 4)


def fitted(
    build: Callable[[PromptBudget], list[dict]],
    *,
    tools: list[dict] | None,
    model: str,
    window: int | None,
    max_tokens: int,
) -> tuple[list[dict], int]:
    """The prompt ``build`` makes with the largest budget that fits ``window``, and the reply
    tokens to ask for (``max_tokens``, less when the window leaves less)."""
    if window is None:
        return build(BUDGETS[0]), max_tokens
    usable, least = int(window * SAFETY), reply_room(window, max_tokens)
    size = 0
    for budget in BUDGETS:
        messages = build(budget)
        size = prompt_size(messages, tools)
        if size + least <= usable:
            return messages, min(max_tokens, usable - size)
    raise PromptTooLarge(model=model, window=window, size=size, reply=least)


def tail_fitted(
    head: list[dict], tail: list[dict], *, tools: list[dict] | None, window: int | None, max_tokens: int
) -> tuple[list[dict], int, bool]:
    """A tool loop's next prompt: ``head`` and as much of ``tail`` (the tool calls and their
    results, oldest first) as fits; returns the messages, the reply tokens and whether any of
    the tail was left out (the model is then asked to answer without more tools)."""
    if window is None:
        return head + tail, max_tokens, False
    usable, least = int(window * SAFETY), reply_room(window, max_tokens)
    for start in _group_starts(tail):
        messages = head + tail[start:]
        size = prompt_size(messages, tools)
        if size + least <= usable:
            return messages, min(max_tokens, usable - size), start > 0
    return head, max(least, usable - prompt_size(head, tools)), bool(tail)


def _group_starts(tail: list[dict]) -> list[int]:
    """Where each assistant message of ``tail`` starts its group (it and its tool results)."""
    return [index for index, message in enumerate(tail) if message["role"] == "assistant"]
