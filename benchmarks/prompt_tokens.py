#!/usr/bin/env python
"""Prompt tokens per civil life cycle with the openai backend, against the naive baseline,
per stage and in both languages.

    .venv/bin/python benchmarks/prompt_tokens.py [--target plaintiff|defendant|both]
        [--memory note|scripted] [CASE_ID ...]

By default every civil demo case (``demo/cases/*-civil-*.json``, English and Chinese) is played
twice: with the plaintiff's side as the target (LC, CD, FIT, AD-Det, AR, SIT) and with the
defendant's (LC, DD, FIT, AD-Det, AD, SIT), so that every stage of the civil life cycle is
counted. Each life cycle has every seat an LLM agent against the loopback chat-completions
server of the test suite (no network, no model). The trial is played as one with a person
seated would be (``TrialState.seated``): the sides the first-instance judgment went against are
asked at AD-Det whether they appeal, so AD-Det makes model calls of its own (a benchmark run
with nobody seated follows the real appeal at once, without a call).

Each call's stage, seat and act come from its call record (what ``OpenAIAgent`` logs and
``progress_store`` saves as ``LLMCallRecord``), never from the prompt's text; every call is
counted, memory updates, strategies and reflections included. Each participant is wrapped so
that the records an agent made for one engine step are paired with the requests the server
received during that step (one request per record, in order).

Ours is the request as sent: every message, the tool calls the model made in it and the tool
catalogue (``tools``), which a server bills as prompt too. The naive prompt of the same call
carries the same briefing (the system message), every field of the case the seat may see
rendered as ours renders it (``materials``, nothing left out at the appeal hearing), the full
text of every document it may see, the whole transcript it has heard so far (every stage, not
only this sitting's), the task of a turn, the call's tool messages and the same tool catalogue:
the prompt of an agent that keeps no memory and is handed everything each time (LegalWorld,
arXiv 2606.18728, keeps a global memory instead). Both are counted with
``court.engine.participants.estimate_tokens``, which the tests use too. The loopback model's
replies are padded to the length of real ones (about 250 characters a turn, 1,500 a document,
as in the scripted transcripts), since the size of earlier transcripts is what the comparison
is about.

The loopback model writes one short note to its memory at each stage's end (``--memory note``,
the test suite's); ``--memory scripted`` has it write as much as the scripted agents do
(``MEMORY_CHARS``), which a real model's memory is closer to: what the memory carries instead
of the transcript is then counted too.

The mean prompt of a turn (the first call of a speaking step, the call that carries the turn's
prompt) is printed per stage: SIT's must not exceed FIT's. The last table sums up every life
cycle: the ratio must stay at most ``TARGET_RATIO``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import statistics
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_CASES = tuple(sorted(path.stem for path in (ROOT / "demo" / "cases").glob("*-civil-*.json")))
TARGETS = {"plaintiff": ("plaintiff",), "defendant": ("defendant",), "both": ("plaintiff", "defendant")}
TARGET_RATIO = 0.2
TARGET_CACHED = 0.8


@dataclasses.dataclass(frozen=True)
class Call:
    """One model call: its record's stage, seat and act, and the two prompt sizes."""

    stage: str
    seat: str
    act: str
    ours: int
    naive: int
    turn: bool
    """The call that carries a turn's prompt (the first call of a speaking step for its act)."""
    cached: float | None
    """The share of its prompt's tokens that begins the seat's previous prompt byte for byte
    (what a server's prefix cache holds); None for a seat's first call."""


@dataclasses.dataclass(frozen=True)
class LifeCycle:
    """What the summary shows of one life cycle."""

    case_id: str
    target: str
    ratio: float
    fit: float
    sit: float
    cached: float


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", metavar="CASE_ID", help="civil demo cases (default: all of them)")
    parser.add_argument("--target", choices=sorted(TARGETS), default="both", help="the side the student plays")
    parser.add_argument(
        "--memory",
        choices=("note", "scripted"),
        default="scripted",
        help="what a seat writes at a stage's end: the test suite's one-line note, or as much as the scripted "
        "agents write (MEMORY_CHARS)",
    )
    options = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="legalsim-tokens-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    summary = [
        report(case_id, target, life_cycle_calls(case_id, target, memory=options.memory))
        for case_id in options.cases or DEFAULT_CASES
        for target in TARGETS[options.target]
    ]
    summarise(summary)


def life_cycle_calls(case_id: str, target: str, *, memory: str = "note") -> list[Call]:
    """Every model call of one life cycle of ``case_id`` with ``target``'s side the student's,
    as its call records and the server saw it."""
    from django.conf import settings

    from court.engine.runner import End, trial_run
    from tests.llm_server import LoopbackLLM
    from trials.models import Case
    from trials.services import cases_import, trial_agents, trial_create

    cases_import(paths=[ROOT / "demo" / "cases" / f"{case_id}.json"])
    calls: list[Call] = []
    with LoopbackLLM(brain=partial(realistic_brain, memory=memory)) as server:
        settings.OPENAI_BASE_URL, settings.LEGALSIM_LLM_BACKOFF_S = server.base_url, 0.0
        trial = trial_create(case=Case.objects.get(pk=case_id), target_side=target, backend="openai")
        state = trial.engine_state
        state.seated = True
        recorders: dict[int, Recording] = {}
        previous: dict[str, str] = {}
        participants = {
            seat: recorders.setdefault(id(agent), Recording(agent, server.requests, state, calls, previous))
            for seat, agent in trial_agents(trial).items()
        }
        outcome = trial_run(state, participants)
    if not isinstance(outcome, End):
        raise SystemExit(f"{case_id} ({target}): the life cycle stopped early: {outcome}")
    return calls


class Recording:
    """A participant that pairs, after each engine step, the call records its agent made with
    the requests the server received meanwhile, and sizes the naive prompt of each call."""

    def __init__(
        self, agent: Any, requests: list[dict], state: Any, calls: list[Call], previous: dict[str, str]
    ) -> None:
        self.agent, self.requests, self.state, self.calls = agent, requests, state, calls
        self.previous = previous
        """Each seat's last prompt as the server laid it out (``llm_server.rendered``)."""

    def respond(self, request: Any, *, on_delta: Any = None) -> Any:
        return self._noted(request, lambda: self.agent.respond(request, on_delta=on_delta))

    def update_memory(self, request: Any) -> Any:
        return self._noted(request, lambda: self.agent.update_memory(request))

    def drain_calls(self) -> list[dict]:
        return []

    def _noted(self, request: Any, act: Callable[[], Any]) -> Any:
        from court.engine.steps import Speak

        start = len(self.requests)
        outcome = act()
        records, sent = self.agent.drain_calls(), self.requests[start:]
        if len(records) != len(sent):
            raise SystemExit(f"{len(records)} call records for {len(sent)} requests at {request.step}")
        turn_act = request.step.act if isinstance(request.step, Speak) else None
        first_turn_call = next((index for index, record in enumerate(records) if record["act"] == turn_act), None)
        for index, (record, body) in enumerate(zip(records, sent, strict=True)):
            self.calls.append(
                Call(
                    stage=record["stage"],
                    seat=record["seat"],
                    act=record["act"],
                    ours=prompt_size(body),
                    naive=naive_size(self.state, request, body),
                    turn=index == first_turn_call,
                    cached=self._cached(record["seat"], body),
                )
            )
        return outcome

    def _cached(self, seat: str, body: dict) -> float | None:
        """The share of ``body``'s prompt tokens that begins ``seat``'s previous prompt."""
        from court.engine.tokens import estimate_tokens
        from tests.llm_server import rendered, shared_prefix

        prompt, previous = rendered(body), self.previous.get(seat)
        self.previous[seat] = prompt
        if previous is None:
            return None
        return estimate_tokens(prompt[: shared_prefix(prompt, previous)]) / estimate_tokens(prompt)


def prompt_size(body: dict) -> int:
    from court.engine.tokens import estimate_tokens

    return estimate_tokens("\n".join([*(sent(message) for message in body["messages"]), catalogue(body)]))


def sent(message: dict) -> str:
    """A message as the prompt carries it: its text and the tool calls it made."""
    calls = (f"{call['function']['name']}({call['function']['arguments']})" for call in message.get("tool_calls") or ())
    return "\n".join([message.get("content") or "", *calls])


def catalogue(body: dict) -> str:
    """The tools offered with the request, as sent."""
    return json.dumps(body.get("tools") or [], ensure_ascii=False)


def naive_size(state: Any, request: Any, body: dict) -> int:
    """The naive prompt of the call ``body`` made for ``request``: briefing, every visible
    field, every visible document in full, everything the seat heard so far, the turn's task,
    the call's tool messages and the tool catalogue."""
    from agents.prompts import instruction, materials, quoted
    from court.engine.steps import Speak
    from court.engine.tokens import estimate_tokens

    view = request.view
    heard = heard_turns(state, view.seat)
    parts = [
        body["messages"][0].get("content") or "",
        materials(dataclasses.replace(view, memory=None), every_field=True),
        *(f"{item['title']}\n{item['text']}" for item in view.artifacts),
        *(f"[{turn.seq}] {turn.speaker}: {quoted(turn.text)}" for turn in heard),
        *(sent(message) for message in body["messages"][2:]),
        catalogue(body),
    ]
    if isinstance(request.step, Speak):
        parts.append(instruction(view, request.step.act, request.step.artifact))
    return estimate_tokens("\n".join(parts))


def heard_turns(state: Any, seat: str) -> list[Any]:
    """Every turn so far of every stage whose dialogue ``seat`` hears (``stage_audience``)."""
    from court.engine.visibility import stage_audience
    from court.procedures import procedure_for

    stages = {stage.id: stage for stage in procedure_for(state.procedure).stages}
    heard = {stage_id for stage_id in set(state.stage_history) if seat in stage_audience(state, stages[stage_id])}
    return [turn for turn in state.turns if turn.stage in heard]


def report(case_id: str, target: str, calls: list[Call]) -> LifeCycle:
    ours, naive = sum(call.ours for call in calls), sum(call.naive for call in calls)
    cached = _cached_mean(calls)
    print(f"prompt tokens, one civil life cycle of {case_id}, target {target} ({len(calls)} LLM calls):")
    print(f"  life cycle: ours {ours:,}   naive {naive:,}   ratio {ours / naive:.3f}   cached prefix {cached:.3f}")
    print(f"  {'stage':<7}{'calls':>6}{'memory':>7}{'ours':>11}{'naive':>11}{'ratio':>7}{'turn mean':>11}{'cached':>8}")
    for stage in dict.fromkeys(call.stage for call in calls):
        of_stage = [call for call in calls if call.stage == stage]
        turns = [call.ours for call in of_stage if call.turn]
        memory = sum(call.act == "update_memory" for call in of_stage)
        stage_ours, stage_naive = sum(call.ours for call in of_stage), sum(call.naive for call in of_stage)
        mean = f"{statistics.mean(turns):,.0f}" if turns else "-"
        print(
            f"  {stage:<7}{len(of_stage):>6}{memory:>7}{stage_ours:>11,}{stage_naive:>11,}"
            f"{stage_ours / stage_naive:>7.2f}{mean:>11}{_cached_mean(of_stage):>8.2f}"
        )
    fit, sit = (_turn_mean(calls, stage) for stage in ("FIT", "SIT"))
    print(f"  per-turn prompt: FIT {fit:,.0f}, SIT {sit:,.0f} (SIT {_verdict(fit, sit)} than FIT)")
    return LifeCycle(case_id, target, ours / naive, fit, sit, cached)


def _cached_mean(calls: list[Call]) -> float:
    """The mean cached-prefix share of the calls after each seat's first (0 when none)."""
    shares = [call.cached for call in calls if call.cached is not None]
    return statistics.mean(shares) if shares else 0.0


def summarise(cycles: list[LifeCycle]) -> None:
    """One line per life cycle, then whether every one kept to the ratio, to SIT <= FIT and to
    the cached-prefix share."""
    print("summary:")
    print(f"  {'case':<34}{'target':<11}{'ratio':>6}{'FIT turn':>10}{'SIT turn':>10}{'cached':>8}")
    for cycle in cycles:
        print(
            f"  {cycle.case_id:<34}{cycle.target:<11}{cycle.ratio:>6.3f}{cycle.fit:>10,.0f}{cycle.sit:>10,.0f}"
            f"{cycle.cached:>8.3f}"
        )
    lowest = min(cycle.cached for cycle in cycles)
    print(f"  lowest cached-prefix share {lowest:.3f} (target at least {TARGET_CACHED:.2f})")
    highest = max(cycle.ratio for cycle in cycles)
    larger = [f"{cycle.case_id} ({cycle.target})" for cycle in cycles if cycle.sit > cycle.fit]
    print(f"  highest ratio {highest:.3f} (target at most {TARGET_RATIO:.2f})")
    print(f"  SIT's per-turn prompt larger than FIT's in: {', '.join(larger) or 'none'}")


def _verdict(fit: float, sit: float) -> str:
    return "no larger" if sit <= fit else "LARGER"


def _turn_mean(calls: list[Call], stage: str) -> float:
    turns = [call.ours for call in calls if call.stage == stage and call.turn]
    return statistics.mean(turns) if turns else 0.0


MEMORY_CHARS = {"en": (1200, 250), "zh": (500, 100)}
"""What a seat writes to its memory at a stage's end, as the scripted agents do: about 1,200
characters in English (500 in Chinese) at its first update, the case as the seat learnt it, and
about 250 (100) at each later one (their memory ends a life cycle at about 430 tokens for the
target's counsel in English, 730 in Chinese). The memory is what a prompt carries instead of
the transcript, so it has to grow as a real one does."""


def realistic_brain(request: dict, *, memory: str = "note") -> Any:
    """The test suite's brain with replies as long as real ones, a judgment whose orders go
    against the defendant, and counsel that appeals when asked at AD-Det; with ``memory``
    "scripted", memory written as long as the scripted agents write it (``MEMORY_CHARS``)."""
    from tests.llm_server import default_brain

    last = request["messages"][-1].get("content") or ""
    reply = default_brain(request)
    if isinstance(reply, dict) and memory == "scripted":
        return {"tool_calls": [(name, _memory_written(request, name, args)) for name, args in reply["tool_calls"]]}
    if not isinstance(reply, str) or reply == "done":
        return reply
    if "DECISION: appeal" in last:
        reply = reply.replace("DECISION: decline", "DECISION: appeal")
    document = reply.startswith("Document by")
    if document:
        zh = "现在请写出完整" in last
        reply += (
            "\n判决如下：被告向原告偿还借款本金。"
            if zh
            else "\nThe court orders: the defendant shall pay the plaintiff."
        )
    length = 1500 if document else 250
    filler = (
        "本方就此发表意见如下，事实清楚、证据充分。"
        if _is_zh(request)
        else "Our side submits that the record supports this. "
    )
    decision = reply[reply.index("\nDECISION:") :] if "\nDECISION:" in reply else ""
    body = reply.removesuffix(decision)
    return body + (filler * (length // len(filler) + 1))[: max(0, length - len(body))] + decision


def _memory_written(request: dict, tool: str, arguments: dict) -> dict:
    """A memory write's entry padded to ``MEMORY_CHARS`` (other tool calls as they are)."""
    if tool != "memory_expand":
        return arguments
    zh = _is_zh(request)
    filler = "本阶段查明的事实和双方立场如下。" if zh else "This stage established the following facts. "
    first, later = MEMORY_CHARS["zh" if zh else "en"]
    length = first if _memory_empty(request) else later
    entry = f"{_stage_over(request)}: {arguments['entries'][0]}"
    return arguments | {"entries": [entry + (filler * (length // len(filler) + 1))[: max(0, length - len(entry))]]}


def _stage_over(request: dict) -> str:
    """The stage a memory update closes, as its task names it: each stage's entry differs, so
    the memory grows at every stage's end (an entry already held is not added again)."""
    match = re.search(r"Stage (\S+) is over|本阶段（(.+?)）结束", request["messages"][1].get("content") or "")
    return next((name for name in match.groups() if name), "") if match else ""


def _memory_empty(request: dict) -> bool:
    """Whether the seat's memory, as its prompt shows it, holds nothing yet."""
    return any("\n{}\n" in (message.get("content") or "") for message in request["messages"][1:2])


def _is_zh(request: dict) -> bool:
    """Whether the call is in Chinese, as the opening words of its briefing are: further on, an
    English seat's system message may quote a Chinese citation (its strategy, from a statute it
    looked up), which must not turn its replies and memory Chinese."""
    opening = (request["messages"][0].get("content") or "")[:10]
    return any("\u3400" <= char <= "\u9fff" for char in opening)


if __name__ == "__main__":
    main()
