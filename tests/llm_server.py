"""A real loopback HTTP server that speaks the OpenAI chat-completions protocol, streaming
included, so LLM code is tested through the real ``openai`` client and a real socket.

Faults can be queued (an HTTP status, a malformed stream, a dropped connection); every
request body is recorded so tests can inspect exactly what was sent to the model. Usage is
reported as OpenAI and vLLM report it, the cached part of the prompt too: the longest prefix
the request's prompt (``rendered``) shares with the previous request of the same conversation
key (``prompt_cache_key``). With ``context`` the server has a context window: a prompt and
reply past it are refused as vLLM refuses them, or (``overflow="stream"``) the stream ends
before its first token as llama-cpp-python's does; ``report_window`` lists the window in
``/v1/models`` for the models it names, as vLLM does.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from court.engine.tokens import estimate_tokens

Reply = str | dict
"""A brain answers text, or ``{"tool_calls": [(name, arguments), ...]}`` to call tools."""
Brain = Callable[[dict], Reply]


def rendered(body: dict) -> str:
    """A request's prompt as a chat template lays it out (ChatML, which Qwen's templates and
    so vLLM and llama.cpp serving them use): the system message, the tool catalogue with it,
    then the other messages in order, each with its tool calls."""

    def message(item: dict) -> str:
        calls = "".join(
            f"{call['function']['name']}({call['function']['arguments']})" for call in item.get("tool_calls") or ()
        )
        return f"<|im_start|>{item['role']}\n{item.get('content') or ''}{calls}<|im_end|>\n"

    messages = body["messages"]
    system = messages[:1] if messages and messages[0]["role"] == "system" else []
    tools = json.dumps(body.get("tools") or [], ensure_ascii=False)
    return "".join([*map(message, system), f"<tools>{tools}</tools>\n", *map(message, messages[len(system) :])])


def shared_prefix(first: str, second: str) -> int:
    """How many characters two texts begin with in common."""
    for index, (one, other) in enumerate(zip(first, second, strict=False)):
        if one != other:
            return index
    return min(len(first), len(second))


MEMORY_TASKS = ("Update your case memory with", "更新你的案件记忆", "written to your memory", "并已写入记忆")
"""How a memory update's task begins (``agents.prompts.memory_messages``): a turn's catalogue
offers the memory tools too (``agents.seat_tools``)."""


def is_memory_update(request: dict) -> bool:
    """Whether ``request`` is a call of a seat's stage-end memory update."""
    user = next((message["content"] for message in request["messages"] if message["role"] == "user"), "")
    return any(task in user for task in MEMORY_TASKS)


def tool_names(request: dict) -> set[str]:
    return {tool["function"]["name"] for tool in request.get("tools") or []}


def default_brain(request: dict) -> Reply:
    """Answers each kind of LegalSim request in its shape, using tools as an agent would:
    memory through the memory tools, and lawyers look up a statute before they speak."""
    last = request["messages"][-1]
    system = request["messages"][0]["content"]
    tools = tool_names(request)
    if is_memory_update(request):
        if last["role"] == "tool":
            return "done"
        return {"tool_calls": [("memory_expand", {"key": "notes", "entries": [f"{request['model']} noted the stage"]})]}
    if last["role"] == "user" and ("Now write the complete" in last["content"] or "现在请写出完整" in last["content"]):
        digest = hashlib.sha256(last["content"].encode()).hexdigest()[:16]
        return f"Document by {request['model']}\nSections as required.\nDraft {digest}."
    if "DECISION:" in (last.get("content") or ""):
        return "I would rather have the court decide.\nDECISION: decline"
    is_lawyer = "counsel" in system.lower() or "律师" in system
    if is_lawyer and "search_statutes" in tools and last["role"] == "user" and request.get("tool_choice") != "none":
        return {"tool_calls": [("search_statutes", {"query": "借款到期未还 逾期利息", "top_k": 2})]}
    if last["role"] == "tool":
        hits = json.loads(last["content"]).get("result") or [{}]
        return f"[{request['model']}] relying on {hits[0].get('citation', 'the record')}."
    return f"[{request['model']}] speaks at turn {len(last['content'])}."


def supervisor_approves(request: dict) -> Reply:
    """``default_brain``, with every MASER supervisor check passed."""
    if request["messages"][0]["content"].startswith(("You supervise", "你逐句监督")):
        return json.dumps({"consistent": True, "advice": ""})
    return default_brain(request)


class ClientGone(Exception):
    """The client closed a stream before its end."""


class LoopbackLLM:
    """The server; ``usage=False`` makes it send no token counts, as llama.cpp's does;
    ``chunk_delay_s`` streams slowly, as a model writes; ``abandoned`` holds the requests whose
    stream the client closed before the end."""

    def __init__(
        self,
        brain: Brain = default_brain,
        *,
        usage: bool = True,
        chunk_delay_s: float = 0.0,
        context: int | None = None,
        overflow: str = "status",
        report_window: tuple[str, ...] = (),
    ) -> None:
        self.brain, self.usage, self.chunk_delay_s = brain, usage, chunk_delay_s
        self.context, self.overflow, self.report_window = context, overflow, report_window
        self.overflowed: list[dict] = []
        """The requests refused as past the context window."""
        self._previous: dict[str, str] = {}
        """Each conversation key's last prompt (``rendered``), for the cached part of the next."""
        self.abandoned: list[dict] = []
        self.requests: list[dict] = []
        self.faults: list[tuple] = []
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def cached_chars(self, body: dict) -> int:
        """The characters of the request's prompt its conversation's previous prompt began with
        (the part a server's prefix cache holds); called under the lock."""
        prompt, key = rendered(body), body.get("prompt_cache_key") or ""
        previous = self._previous.get(key, "")
        self._previous[key] = prompt
        return shared_prefix(prompt, previous)

    def past_window(self, body: dict) -> str:
        """vLLM's refusal of a prompt and reply past the window, or "" when they fit; a server
        that ends the stream (llama-cpp-python) cuts the reply short instead and fails only on
        a prompt past the window."""
        if self.context is None:
            return ""
        prompt = estimate_tokens(rendered(body))
        asked = prompt + (body.get("max_tokens") or 0 if self.overflow == "status" else 0)
        if asked <= self.context:
            return ""
        return (
            f"This model's maximum context length is {self.context} tokens. However, you requested {asked} tokens "
            f"({prompt} in the messages, {body.get('max_tokens') or 0} in the completion). Please reduce the length "
            "of the messages or completion."
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> LoopbackLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def fail_next(self, *faults: tuple) -> None:
        """Queue faults: ("status", 500), ("status", 429, {"Retry-After": "2"}), ("timeout", seconds),
        ("malformed",), ("cut",) a stream that stops mid-reply (or mid tool call), ("bad_tool_json",), ("disconnect",)."""
        with self.lock:
            self.faults.extend(faults)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        loopback = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                return

            def do_GET(self) -> None:
                models = [
                    {"id": model, "object": "model"} | ({"max_model_len": loopback.context} if loopback.context else {})
                    for model in loopback.report_window
                ]
                self._json(200, {"object": "list", "data": models})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with loopback.lock:
                    loopback.requests.append(body)
                    fault = loopback.faults.pop(0) if loopback.faults else None
                    self.cached = loopback.cached_chars(body)
                    past = loopback.past_window(body)
                if past:
                    loopback.overflowed.append(body)
                    if loopback.overflow == "stream":
                        self._ended_early()
                    else:
                        self._json(400, {"error": {"message": past, "type": "BadRequestError"}})
                    return
                if fault and fault[0] == "disconnect":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if fault and fault[0] == "timeout":
                    time.sleep(fault[1])
                if fault and fault[0] == "status":
                    payload = json.dumps({"error": {"message": f"injected {fault[1]}", "type": "test"}}).encode()
                    self.send_response(fault[1])
                    for header, value in (fault[2] if len(fault) > 2 else {}).items():
                        self.send_header(header, value)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                reply = loopback.brain(body)
                calls = reply.get("tool_calls", []) if isinstance(reply, dict) else []
                text = reply if isinstance(reply, str) else reply.get("content", "")
                if fault and fault[0] == "bad_tool_json":
                    calls, text = [("search_statutes", None)], ""
                if body.get("stream"):
                    try:
                        self._stream(body, text, calls, fault=fault[0] if fault else None)
                    except ClientGone:
                        loopback.abandoned.append(body)
                else:
                    self._whole(body, text)

            def _json(self, status: int, data: dict) -> None:
                payload = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def _ended_early(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True

            def _usage(self, body: dict, text: str) -> dict:
                prompt = sum(len(message.get("content") or "") for message in body["messages"]) // 4
                cached = min(prompt, prompt * self.cached // max(1, len(rendered(body))))
                return {
                    "prompt_tokens": prompt,
                    "completion_tokens": len(text) // 4 + 1,
                    "total_tokens": prompt + len(text) // 4 + 1,
                    "prompt_tokens_details": {"cached_tokens": cached},
                }

            def _whole(self, body: dict, text: str) -> None:
                payload = json.dumps(
                    {
                        "id": "cmpl-loopback",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
                        ],
                        "usage": self._usage(body, text),
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def _stream(self, body: dict, text: str, calls: list, *, fault: str | None) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True

                def event(data: str) -> None:
                    time.sleep(loopback.chunk_delay_s)
                    try:
                        self.wfile.write(f"data: {data}\n\n".encode())
                        self.wfile.flush()
                    except (BrokenPipeError, ConnectionResetError):
                        raise ClientGone from None

                def chunk(delta: dict, finish: str | None = None, usage: dict | None = None) -> str:
                    return json.dumps(
                        {
                            "id": "cmpl-loopback",
                            "object": "chat.completion.chunk",
                            "created": 0,
                            "model": body["model"],
                            "choices": [] if usage else [{"index": 0, "delta": delta, "finish_reason": finish}],
                            "usage": usage,
                        }
                    )

                event(chunk({"role": "assistant", "content": ""}))
                if fault == "malformed":
                    event('{"choices": [{"delta": {"content": "cut')
                    return
                for start in range(0, len(text), 8):
                    event(chunk({"content": text[start : start + 8]}))
                    if fault == "cut" and start >= 8:
                        return
                for index, (name, arguments) in enumerate(calls):
                    encoded = '{"query": "借款' if arguments is None else json.dumps(arguments, ensure_ascii=False)
                    head = {"index": index, "id": f"call_{len(loopback.requests)}_{index}", "type": "function"}
                    event(chunk({"tool_calls": [head | {"function": {"name": name, "arguments": encoded[:10]}}]}))
                    if fault == "cut":
                        return
                    event(chunk({"tool_calls": [{"index": index, "function": {"arguments": encoded[10:]}}]}))
                event(chunk({}, finish="tool_calls" if calls else "stop"))
                if loopback.usage and (body.get("stream_options") or {}).get("include_usage"):
                    event(chunk({}, usage=self._usage(body, text)))
                event("[DONE]")

        return Handler
