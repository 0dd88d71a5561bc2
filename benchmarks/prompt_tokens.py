#!/usr/bin/env python
"""Prompt tokens per civil life cycle with the openai backend, against the naive baseline,
per stage and in both languages.

    .venv/bin/python benchmarks/prompt_tokens.py [CASE_ID ...]

(default: ``en-civil-commercial-lease`` and ``zh-civil-private-lending``). Plays the whole life
cycle with every seat an LLM agent against the loopback chat-completions server of the test
suite (no network, no model). The trial is played as one with a person seated would be
(``TrialState.seated``): the sides the first-instance judgment went against are asked at
AD-Det whether they appeal, so AD-Det makes model calls of its own (a benchmark run with
nobody seated follows the real appeal at once, without a call).

Each call's stage, seat and act come from its call record (what ``OpenAIAgent`` logs and
``progress_store`` saves as ``LLMCallRecord``), never from the prompt's text; every call is
counted, memory updates, strategies and reflections included. Each participant is wrapped so
that the records an agent made for one engine step are paired with the requests the server
received during that step (one request per record, in order).

Ours is the request as sent. The naive prompt of the same call carries the same briefing
(the system message), every field of the case the seat may see, the full text of every
document it may see, the whole transcript it has heard so far (every stage, not only this
sitting's), the task of a turn, and the call's tool messages: the prompt of an agent that keeps
no memory and is handed everything each time (LegalWorld, arXiv 2606.18728, keeps a global
memory instead). Both are counted with ``court.engine.participants.estimate_tokens``, which
the tests use too. The loopback model's replies are padded to the length of real ones (about
250 characters a turn, 1,500 a document, as in the scripted transcripts), since the size of
earlier transcripts is what the comparison is about.

The mean prompt of a turn (the first call of a speaking step, the call that carries the turn's
prompt) is printed per stage: SIT's must not exceed FIT's.
"""

from __future__ import annotations

import dataclasses
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_CASES = ("en-civil-commercial-lease", "zh-civil-private-lending")


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


def main() -> None:
    cases = sys.argv[1:] or list(DEFAULT_CASES)
    scratch = tempfile.mkdtemp(prefix="legalsim-tokens-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    for case_id in cases:
        report(case_id, life_cycle_calls(case_id))


def life_cycle_calls(case_id: str) -> list[Call]:
    """Every model call of one life cycle of ``case_id``, as its call records and the server saw it."""
    from django.conf import settings

    from court.engine.runner import End, trial_run
    from tests.llm_server import LoopbackLLM
    from trials.models import Case
    from trials.services import cases_import, simulated_trial_create, trial_agents

    cases_import(paths=[ROOT / "demo" / "cases" / f"{case_id}.json"])
    calls: list[Call] = []
    with LoopbackLLM(brain=realistic_brain) as server:
        settings.OPENAI_BASE_URL, settings.LEGALSIM_LLM_BACKOFF_S = server.base_url, 0.0
        trial = simulated_trial_create(case=Case.objects.get(pk=case_id), backend="openai")
        state = trial.engine_state
        state.seated = True
        recorders: dict[int, Recording] = {}
        participants = {
            seat: recorders.setdefault(id(agent), Recording(agent, server.requests, state, calls))
            for seat, agent in trial_agents(trial).items()
        }
        outcome = trial_run(state, participants)
    if not isinstance(outcome, End):
        raise SystemExit(f"{case_id}: the life cycle stopped early: {outcome}")
    return calls


class Recording:
    """A participant that pairs, after each engine step, the call records its agent made with
    the requests the server received meanwhile, and sizes the naive prompt of each call."""

    def __init__(self, agent: Any, requests: list[dict], state: Any, calls: list[Call]) -> None:
        self.agent, self.requests, self.state, self.calls = agent, requests, state, calls

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
                )
            )
        return outcome


def prompt_size(body: dict) -> int:
    from court.engine.participants import estimate_tokens

    return estimate_tokens("".join(message.get("content") or "" for message in body["messages"]))


def naive_size(state: Any, request: Any, body: dict) -> int:
    """The naive prompt of the call ``body`` made for ``request``: briefing, every visible
    field, every visible document in full, everything the seat heard so far, the turn's task
    and the call's tool messages."""
    from agents.prompts import instruction, materials, quoted
    from court.engine.participants import estimate_tokens
    from court.engine.steps import Speak

    view = request.view
    heard = heard_turns(state, view.seat)
    parts = [
        body["messages"][0].get("content") or "",
        materials(dataclasses.replace(view, memory=None, fields={})),
        json.dumps(view.fields, ensure_ascii=False),
        *(f"{item['title']}\n{item['text']}" for item in view.artifacts),
        *(f"[{turn.seq}] {turn.speaker}: {quoted(turn.text)}" for turn in heard),
        *(message.get("content") or "" for message in body["messages"][2:]),
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


def report(case_id: str, calls: list[Call]) -> None:
    ours, naive = sum(call.ours for call in calls), sum(call.naive for call in calls)
    print(f"prompt tokens, one civil life cycle of {case_id} ({len(calls)} LLM calls):")
    print(f"  life cycle: ours {ours:,}   naive {naive:,}   ratio {ours / naive:.2f}")
    print(f"  {'stage':<7}{'calls':>6}{'memory':>7}{'ours':>11}{'naive':>11}{'ratio':>7}{'turn mean':>11}")
    for stage in dict.fromkeys(call.stage for call in calls):
        of_stage = [call for call in calls if call.stage == stage]
        turns = [call.ours for call in of_stage if call.turn]
        memory = sum(call.act == "update_memory" for call in of_stage)
        stage_ours, stage_naive = sum(call.ours for call in of_stage), sum(call.naive for call in of_stage)
        mean = f"{statistics.mean(turns):,.0f}" if turns else "-"
        print(
            f"  {stage:<7}{len(of_stage):>6}{memory:>7}{stage_ours:>11,}{stage_naive:>11,}"
            f"{stage_ours / stage_naive:>7.2f}{mean:>11}"
        )
    fit, sit = (_turn_mean(calls, stage) for stage in ("FIT", "SIT"))
    verdict = "no larger" if sit <= fit else "LARGER"
    print(f"  per-turn prompt: FIT {fit:,.0f}, SIT {sit:,.0f} (SIT {verdict} than FIT)")


def _turn_mean(calls: list[Call], stage: str) -> float:
    turns = [call.ours for call in calls if call.stage == stage and call.turn]
    return statistics.mean(turns) if turns else 0.0


def realistic_brain(request: dict) -> Any:
    """The test suite's brain with replies as long as real ones, a judgment whose orders go
    against the defendant, and counsel that appeals when asked at AD-Det."""
    from tests.llm_server import default_brain

    last = request["messages"][-1].get("content") or ""
    reply = default_brain(request)
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


def _is_zh(request: dict) -> bool:
    return any("\u3400" <= char <= "\u9fff" for char in request["messages"][0].get("content") or "")


if __name__ == "__main__":
    main()
