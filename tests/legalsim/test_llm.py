"""The LLM client through the real openai package against the loopback server."""

from __future__ import annotations

import pytest

from legalsim.llm import ContextOverflow, LLMCall, LLMClient, LLMError, ReplyFormatError, UnusableReply
from tests.llm_server import LoopbackLLM


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def client(llm_server, sleeps) -> LLMClient:
    return LLMClient(base_url=llm_server.base_url, api_key="k", backoff_s=0.5, timeout_s=5, sleep=sleeps.append)


CALL = LLMCall(model="qwen-test", messages=[{"role": "user", "content": "Open the court."}])


def test_a_streamed_reply_arrives_token_by_token_with_usage_recorded(client, llm_server):
    deltas: list[str] = []
    result, _ = client.complete(CALL, on_delta=deltas.append)
    assert len(deltas) > 1 and "".join(deltas) == result.text == "[qwen-test] speaks at turn 15."
    assert result.model == "qwen-test" and result.attempts == 1
    assert result.prompt_tokens == 3 and result.completion_tokens == len(result.text) // 4 + 1
    sent = llm_server.requests[0]
    assert sent["stream"] is True and sent["model"] == "qwen-test"
    assert (sent["temperature"], sent["top_p"], sent["max_tokens"]) == (0.7, 0.95, 4096)


@pytest.mark.parametrize(
    "fault", [("status", 500), ("status", 429), ("malformed",), ("cut",), ("bad_tool_json",), ("disconnect",)]
)
def test_transient_failures_are_retried_with_backoff(client, llm_server, sleeps, fault):
    llm_server.fail_next(fault, fault)
    result, _ = client.complete(CALL)
    assert result.attempts == 3 and len(result.errors) == 2
    assert sleeps == [0.5, 1.0]
    assert len(llm_server.requests) == 3


def test_three_failures_raise_a_transient_error(client, llm_server, sleeps):
    llm_server.fail_next(("status", 503), ("status", 503), ("status", 503))
    with pytest.raises(LLMError, match="failed after 3 attempts") as error:
        client.complete(CALL)
    assert error.value.permanent is False and error.value.attempts == 3
    assert sleeps == [0.5, 1.0], "no sleep after the last attempt"


def test_a_client_error_is_permanent_and_not_retried(client, llm_server, sleeps):
    llm_server.fail_next(("status", 400))
    with pytest.raises(LLMError, match="HTTP 400") as error:
        client.complete(CALL)
    assert error.value.permanent is True and sleeps == [] and len(llm_server.requests) == 1


def test_an_unusable_reply_is_regenerated(client, llm_server):
    replies = iter(["no decision here", "Fine.\nDECISION: accept"])
    llm_server.brain = lambda request: next(replies)

    def parse(text: str) -> str:
        if "DECISION" not in text:
            raise ReplyFormatError("no decision line")
        return text

    result, parsed = client.complete(CALL, parse=parse)
    assert result.attempts == 2 and parsed.endswith("DECISION: accept")


def needs_a_decision(text: str) -> str:
    if "DECISION" not in text:
        raise ReplyFormatError("no decision line")
    return text


def test_a_model_that_keeps_missing_the_format_hands_back_its_last_words(client, llm_server, sleeps):
    replies = iter(["We would rather not.", "No, thank you.", "We prefer a judgment."])
    llm_server.brain = lambda request: next(replies)
    with pytest.raises(UnusableReply) as error:
        client.complete(CALL, parse=needs_a_decision)
    assert error.value.result.text == "We prefer a judgment." and error.value.attempts == 3
    assert error.value.permanent is False and sleeps == [0.5, 1.0]
    assert error.value.result.errors[-1] == "attempt 3: unusable reply: no decision line"


def test_a_server_failing_the_last_attempt_is_not_taken_for_a_missed_format(client, llm_server):
    llm_server.brain = lambda request: "We would rather not."
    llm_server.fail_next(None, None, ("status", 503))
    with pytest.raises(LLMError) as error:
        client.complete(CALL, parse=needs_a_decision)
    assert not isinstance(error.value, UnusableReply) and "HTTP 503" in str(error.value)


def test_a_server_that_reports_no_usage_says_so(llm_server, client):
    llm_server.usage = False
    result, _ = client.complete(CALL)
    assert result.usage_reported is False and result.prompt_tokens == result.completion_tokens == 0


def test_a_rate_limit_honours_retry_after(client, llm_server, sleeps):
    llm_server.fail_next(("status", 429, {"Retry-After": "3"}))
    result, _ = client.complete(CALL)
    assert result.attempts == 2 and sleeps == [3.0], "Retry-After (3 s) beats the 0.5 s backoff"


def test_a_timeout_is_retried(llm_server, sleeps):
    impatient = LLMClient(base_url=llm_server.base_url, api_key="k", backoff_s=0.5, timeout_s=0.5, sleep=sleeps.append)
    llm_server.fail_next(("timeout", 1.5))
    result, _ = impatient.complete(CALL)
    assert result.attempts == 2 and result.errors == ("attempt 1: APITimeoutError",)


def test_a_stream_cut_mid_reply_is_never_taken_as_the_reply(client, llm_server):
    llm_server.fail_next(("cut",))
    deltas: list[str] = []
    result, _ = client.complete(CALL, on_delta=deltas.append)
    assert result.text == "[qwen-test] speaks at turn 15." and "ended before the reply was complete" in result.errors[0]


def test_tool_arguments_malformed_every_attempt_leave_a_usable_reply(client, llm_server, sleeps):
    llm_server.fail_next(("bad_tool_json",), ("bad_tool_json",), ("bad_tool_json",))
    with pytest.raises(UnusableReply, match="malformed JSON arguments") as error:
        client.complete(CALL)
    assert [call.name for call in error.value.result.tool_calls] == ["search_statutes"]
    assert error.value.attempts == 3 and len(llm_server.requests) == 3


LONG = LLMCall(
    model="local",
    messages=[{"role": "system", "content": "Preside."}, {"role": "user", "content": "庭审笔录。" * 2000}],
    max_tokens=256,
    window=8192,
    prompt_estimate=10_000,
    cache_key="seat",
)


@pytest.mark.parametrize("overflow", ["status", "stream"])
def test_a_prompt_past_the_servers_window_is_never_retried(overflow, sleeps):
    """vLLM refuses it (HTTP 400 naming the maximum context length); llama-cpp-python ends the
    stream before the first token: either way one request, and an error that says what to set."""
    with LoopbackLLM(context=8192, overflow=overflow) as server:
        client = LLMClient(base_url=server.base_url, api_key="k", backoff_s=0.5, timeout_s=5, sleep=sleeps.append)
        with pytest.raises(ContextOverflow) as raised:
            client.complete(LONG)
    assert raised.value.permanent and raised.value.attempts == 1
    assert len(server.requests) == 1 and sleeps == []
    message = str(raised.value)
    assert "8,192-token context window" in message and "about 10,000 tokens" in message
    assert "LEGALSIM_MODEL_CONTEXT" in message and "--n_ctx" in message


def test_a_stream_ended_before_the_first_token_on_a_small_prompt_is_a_transient_failure(sleeps):
    """A dead server, not an overflow: retried as any transient failure."""
    with LoopbackLLM(context=2, overflow="stream") as server:
        client = LLMClient(base_url=server.base_url, api_key="k", backoff_s=0.5, timeout_s=5, sleep=sleeps.append)
        with pytest.raises(LLMError) as raised:
            client.complete(LLMCall(model="local", messages=[{"role": "user", "content": "Open."}], prompt_estimate=5))
    assert not isinstance(raised.value, ContextOverflow) and not raised.value.permanent
    assert len(server.requests) == 3 and "before the first token" in str(raised.value)


def test_cached_tokens_are_reported_as_the_prefix_shared_with_the_conversations_last_prompt(client, llm_server):
    """The loopback server reports ``prompt_tokens_details.cached_tokens`` as OpenAI and vLLM do."""
    first, _ = client.complete(LONG.__class__(**{**LONG.__dict__, "window": None, "prompt_estimate": 0}))
    extended = [*LONG.messages, {"role": "assistant", "content": "..."}, {"role": "user", "content": "Go on."}]
    second, _ = client.complete(LLMCall(model="local", messages=extended, cache_key="seat"))
    other, _ = client.complete(LLMCall(model="local", messages=extended, cache_key="another seat"))
    assert first.cached_tokens == 0 and other.cached_tokens == 0
    assert 0.9 * second.prompt_tokens < second.cached_tokens < second.prompt_tokens
    assert llm_server.requests[1]["prompt_cache_key"] == "seat"
