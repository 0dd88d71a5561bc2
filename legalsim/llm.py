"""One LLM client interface with a normalised result (docs/design.md, section 5).

Every call goes through the official ``openai`` client to an OpenAI-compatible server, streams
its tokens to an optional callback, and records model, token counts, latency and attempts.
Failures are classified: connection errors, timeouts, rate limits, 5xx responses and replies
that do not parse are *transient* and retried (3 attempts in all, exponential backoff); any
other 4xx is *permanent*, and so is a prompt larger than the model's context window (the
server says so, or its stream ends before the first token on a prompt that may not fit:
``ContextOverflow``), which the same prompt can never get past. The openai client's own
retries are switched off so the two never stack. A call that still fails raises ``LLMError``: callers turn it into a resumable pause,
never into an agent that said nothing.

A call waits on its model server without a database connection (the thread's connection goes
back to the pool first, unless a transaction is open on it), and each process sends at most
``LEGALSIM_MAX_IN_FLIGHT`` requests at once to one server (per base URL), so a batch can keep
a hundred cases waiting on models without a hundred connections or a flood of requests.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import openai
from django.conf import settings
from django.db import connection

from legalsim.json_input import loads_untrusted

T = TypeVar("T")
TRANSIENT_ERRORS = (
    openai.APIConnectionError,
    openai.APITimeoutError,
    openai.RateLimitError,
    openai.InternalServerError,
    openai.APIResponseValidationError,
)


class LLMError(RuntimeError):
    def __init__(self, message: str, *, permanent: bool, attempts: int) -> None:
        super().__init__(message)
        self.permanent = permanent
        self.attempts = attempts


class UnusableReply(LLMError):
    """The server answered every attempt, the last one in words but not in the format asked
    for (a missing decision line, tool arguments that are not JSON): the caller may read
    ``result`` leniently instead of pausing the trial."""

    def __init__(self, message: str, *, attempts: int, result: LLMResult) -> None:
        super().__init__(message, permanent=False, attempts=attempts)
        self.result = result


class ReplyFormatError(ValueError):
    """The model answered, but not in the shape asked for; retried like a transient error."""


class StreamEndedEarly(ReplyFormatError):
    """The response stream ended before its first token (a server that runs out of context
    window while streaming does this)."""


class ContextOverflow(LLMError):
    """The prompt is larger than the model's context window: permanent, never retried."""

    def __init__(self, call: LLMCall, detail: str, *, attempts: int) -> None:
        window = f"{call.window:,}-token " if call.window else ""
        super().__init__(
            f"{call.model}: the prompt (about {call.prompt_estimate:,} tokens) overflows the model's "
            f"{window}context window ({detail}); set LEGALSIM_MODEL_CONTEXT to the window the server runs "
            "with (the prompt is then fitted to it) or start the server with a larger one (llama.cpp: --n_ctx), "
            "then resume the trial",
            permanent=True,
            attempts=attempts,
        )


OVERFLOW_WORDS = (
    "context length",
    "context_length",
    "context window",
    "context size",
    "exceed_context",
    "maximum context",
    "too many tokens",
    "prompt is too long",
)
"""How servers word an overflow (OpenAI: context_length_exceeded; vLLM: "maximum context
length"; llama.cpp: "exceeds the available context size"; llama-cpp-python: "exceed context
window")."""
UNKNOWN_WINDOW_TOKENS = 2048
"""A prompt past this may overflow a server whose window LegalSim does not know (2,048 is
llama-cpp-python's default ``n_ctx``, the smallest servers start with)."""


def _overflow_said(message: str) -> bool:
    lowered = message.lower()
    return any(words in lowered for words in OVERFLOW_WORDS)


def _may_overflow(call: LLMCall) -> bool:
    """Whether ``call``'s prompt may be past its window: more than half a known window (the
    server's tokenizer may count more than ``estimate_tokens``, and the window set may be larger
    than the server's), and in any case past ``UNKNOWN_WINDOW_TOKENS``."""
    half = call.window // 2 if call.window else UNKNOWN_WINDOW_TOKENS
    return call.prompt_estimate > min(half, UNKNOWN_WINDOW_TOKENS)


MAX_RETRY_AFTER_S = 60.0


def _retry_after(error: Exception) -> float:
    """The server's ``Retry-After`` (seconds) on a rate limit, capped; 0 when absent."""
    response = getattr(error, "response", None)
    raw = response.headers.get("retry-after") if response is not None else None
    try:
        return min(float(raw), MAX_RETRY_AFTER_S) if raw else 0.0
    except ValueError:
        return 0.0


WINDOW_KEYS = ("max_model_len", "context_length", "max_context_length")
WINDOW_QUERY_TIMEOUT_S = 5.0
_windows: dict[tuple[str, str], int | None] = {}
"""The context window each server reported for a model (``LLMClient.server_window``)."""

_slots: dict[tuple[str, int], threading.BoundedSemaphore] = {}
_slots_lock = threading.Lock()


def _server_slots(base_url: str) -> threading.BoundedSemaphore:
    """This process's requests in flight to ``base_url``, at most ``LEGALSIM_MAX_IN_FLIGHT``."""
    key = (base_url.rstrip("/"), settings.LEGALSIM_MAX_IN_FLIGHT)
    with _slots_lock:
        return _slots.setdefault(key, threading.BoundedSemaphore(key[1]))


@contextmanager
def _waiting_on(base_url: str) -> Iterator[None]:
    """One request to a model server: it waits for a free slot of its server, and the thread's
    database connection is handed back first (to psycopg's pool on PostgreSQL) unless a
    transaction is open on it; the next query takes one again."""
    if connection.connection is not None and not connection.in_atomic_block:
        connection.close()
    with _server_slots(base_url):
        yield


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class LLMCall:
    model: str
    messages: list[dict[str, Any]]
    temperature: float = 0.7
    top_p: float = 0.95
    max_tokens: int = 4096
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | None = None
    seed: int | None = None
    window: int | None = None
    """The model's context window, when known (``LEGALSIM_MODEL_CONTEXT`` or the server's report)."""
    prompt_estimate: int = 0
    """The prompt's tokens as LegalSim estimates them, to tell an overflow from a dead server."""
    cache_key: str = ""
    """Sent as ``prompt_cache_key``: the calls of one seat, whose prompts share a prefix, go to
    the server's same cache."""


@dataclass(frozen=True)
class LLMResult:
    text: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    attempts: int
    errors: tuple[str, ...] = field(default_factory=tuple)
    tool_calls: tuple[ToolCall, ...] = field(default_factory=tuple)
    usage_reported: bool = True
    """False when the server sent no ``usage`` (llama.cpp's server, for one): the token counts
    are then 0 and the caller estimates them."""
    cached_tokens: int = 0
    """Of ``prompt_tokens``, those the server read from its prompt cache
    (``prompt_tokens_details.cached_tokens``; 0 when it reports none)."""


class LLMClient:
    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        attempts: int = 3,
        backoff_s: float = 1.0,
        timeout_s: float = 120.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key or "not-needed", max_retries=0, timeout=timeout_s
        )
        self.base_url, self.attempts, self.backoff_s, self._sleep = base_url, attempts, backoff_s, sleep

    @classmethod
    def from_settings(cls, *, base_url: str = "", api_key: str = "") -> LLMClient:
        """A client of ``base_url`` (``OPENAI_BASE_URL`` when blank) with the settings' retries
        and timeout."""
        base_url = base_url or settings.OPENAI_BASE_URL
        if not base_url:
            raise LLMError("OPENAI_BASE_URL is not set; see docs/llm-servers.md", permanent=True, attempts=0)
        return cls(
            base_url=base_url,
            api_key=api_key or settings.OPENAI_API_KEY,
            backoff_s=settings.LEGALSIM_LLM_BACKOFF_S,
            timeout_s=settings.LEGALSIM_LLM_TIMEOUT_S,
        )

    def server_window(self, model: str) -> int | None:
        """The context window the server reports for ``model`` in its model list (vLLM's
        ``max_model_len``; ``context_length`` or ``max_context_length`` of others), asked once
        per process and server; None when it reports none or cannot be asked."""
        key = (self.base_url.rstrip("/"), model)
        if key not in _windows:
            _windows[key] = self._listed_window(model)
        return _windows[key]

    def _listed_window(self, model: str) -> int | None:
        try:
            listed = self._client.with_options(timeout=WINDOW_QUERY_TIMEOUT_S).models.list()
            entries = [entry for entry in listed.data if entry.id == model]
        except (openai.OpenAIError, ValueError):
            return None
        extra = (entries[0].model_extra or {}) if entries else {}
        window = next((extra[key] for key in WINDOW_KEYS if isinstance(extra.get(key), int)), None)
        return window if window and window > 0 else None

    def complete(
        self,
        call: LLMCall,
        *,
        on_delta: Callable[[str], None] | None = None,
        parse: Callable[[str], T] | None = None,
    ) -> tuple[LLMResult, T | None]:
        """Stream one completion; ``parse`` may reject the text (``ReplyFormatError``) to retry.

        When the last attempt's reply was rejected by ``parse`` (the server works; the model
        missed the format), ``UnusableReply`` carries that reply; any other failure of the last
        attempt is an ``LLMError``."""
        errors: list[str] = []
        for attempt in range(1, self.attempts + 1):
            wait = self.backoff_s * 2 ** (attempt - 1)
            unusable: LLMResult | None = None
            try:
                with _waiting_on(self.base_url):
                    started = time.perf_counter()
                    text, usage, tool_calls = self._stream(call, on_delta)
            except openai.APIStatusError as error:
                if _overflow_said(str(error.message)):
                    raise ContextOverflow(
                        call, f"HTTP {error.status_code}: {error.message}", attempts=attempt
                    ) from error
                if isinstance(error, TRANSIENT_ERRORS):
                    errors.append(f"attempt {attempt}: HTTP {error.status_code}")
                    wait = max(wait, _retry_after(error))
                else:
                    raise LLMError(
                        f"{call.model}: HTTP {error.status_code}: {error.message}", permanent=True, attempts=attempt
                    ) from error
            except TRANSIENT_ERRORS as error:
                errors.append(f"attempt {attempt}: {type(error).__name__}")
            except json.JSONDecodeError:
                errors.append(f"attempt {attempt}: malformed response stream")
            except StreamEndedEarly as error:
                if _may_overflow(call):
                    raise ContextOverflow(call, str(error), attempts=attempt) from error
                errors.append(f"attempt {attempt}: {error}")
            except ReplyFormatError as error:
                errors.append(f"attempt {attempt}: {error}")
            else:
                result = LLMResult(
                    text=text,
                    model=call.model,
                    prompt_tokens=usage.get("prompt_tokens", 0),
                    completion_tokens=usage.get("completion_tokens", 0),
                    latency_s=time.perf_counter() - started,
                    attempts=attempt,
                    errors=tuple(errors),
                    tool_calls=tool_calls,
                    usage_reported=bool(usage),
                    cached_tokens=usage.get("cached_tokens", 0),
                )
                try:
                    _tool_arguments_check(tool_calls)
                    return result, parse(text) if parse is not None and not tool_calls else None
                except ReplyFormatError as error:
                    errors.append(f"attempt {attempt}: unusable reply: {error}")
                    unusable = result
            if attempt < self.attempts:
                self._sleep(wait)
        message = f"{call.model}: failed after {self.attempts} attempts ({'; '.join(errors)})"
        if unusable is not None:
            raise UnusableReply(message, attempts=self.attempts, result=replace(unusable, errors=tuple(errors)))
        raise LLMError(message, permanent=False, attempts=self.attempts)

    def _stream(
        self, call: LLMCall, on_delta: Callable[[str], None] | None
    ) -> tuple[str, dict[str, Any], tuple[ToolCall, ...]]:
        extra: dict[str, Any] = {} if call.seed is None else {"seed": call.seed}
        if call.cache_key:
            extra["prompt_cache_key"] = call.cache_key
        if call.tools:
            extra["tools"] = call.tools
            if call.tool_choice:
                extra["tool_choice"] = call.tool_choice
        with self._client.chat.completions.create(
            model=call.model,
            messages=call.messages,
            temperature=call.temperature,
            top_p=call.top_p,
            max_tokens=call.max_tokens,
            stream=True,
            stream_options={"include_usage": True},
            **extra,
        ) as stream:
            return self._read(stream, on_delta)

    def _read(
        self, stream: openai.Stream[Any], on_delta: Callable[[str], None] | None
    ) -> tuple[str, dict[str, Any], tuple[ToolCall, ...]]:
        """The reply of a response stream; the stream is closed, the connection with it, however
        this ends (an ``on_delta`` that raises stops the generation on the server too)."""
        pieces: list[str] = []
        usage: dict[str, Any] = {}
        calls: dict[int, dict[str, str]] = {}
        finished = False
        for chunk in stream:
            if chunk.usage is not None:
                usage = _usage(chunk.usage)
            for choice in chunk.choices:
                delta = choice.delta.content or ""
                if delta:
                    pieces.append(delta)
                    if on_delta is not None:
                        on_delta(delta)
                for fragment in choice.delta.tool_calls or []:
                    slot = calls.setdefault(fragment.index, {"id": "", "name": "", "arguments": ""})
                    slot["id"] = fragment.id or slot["id"]
                    if fragment.function is not None:
                        slot["name"] += fragment.function.name or ""
                        slot["arguments"] += fragment.function.arguments or ""
            if chunk.choices and chunk.choices[0].finish_reason:
                finished = True
        if not finished and not pieces and not calls:
            raise StreamEndedEarly("the response stream ended before the first token")
        if not finished:
            raise ReplyFormatError("the response stream ended before the reply was complete")
        return "".join(pieces), usage, tuple(ToolCall(**calls[index]) for index in sorted(calls))


def _usage(usage: Any) -> dict[str, int]:
    """A stream's usage: prompt and completion tokens, and the prompt's cached part."""
    details = getattr(usage, "prompt_tokens_details", None)
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "cached_tokens": (getattr(details, "cached_tokens", None) or 0) if details is not None else 0,
    }


def _tool_arguments_check(tool_calls: tuple[ToolCall, ...]) -> None:
    """A tool call whose arguments are not JSON is the model missing a format (the server
    worked): worth another attempt, and after the last one the reply is still usable, its
    tool answering with the failure."""
    for call in tool_calls:
        try:
            loads_untrusted(call.arguments or "{}")
        except ValueError:
            raise ReplyFormatError(f"tool call {call.name} has malformed JSON arguments") from None
