#!/usr/bin/env python
"""Prompt tokens per civil life cycle with the openai backend, against the naive baseline.

    .venv/bin/python benchmarks/prompt_tokens.py [CASE_ID]

Runs the whole life cycle with every seat an LLM agent against the loopback chat-completions
server of the test suite (no network, no model), captures every prompt the server receives,
and compares its size with a naive prompt that carries, for each call, the seat's briefing,
every field of the case the seat may see, the full transcript of every earlier stage and the
full text of every document so far. Tokens are counted with one estimator for both
(``trials.engine.participants.estimate_tokens``). The loopback model's replies are padded to the
length of real ones (about 250 characters a turn, 1,500 a document, as in the scripted
transcripts), since the size of earlier transcripts is what the comparison is about. Also prints the mean prompt per turn at each stage:
it must not grow with the stages behind it beyond the memory.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    case_id = sys.argv[1] if len(sys.argv) > 1 else "zh-civil-private-lending"
    scratch = tempfile.mkdtemp(prefix="legalsim-tokens-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "legalsim.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from tests.llm_server import LoopbackLLM
    from trials.engine.participants import estimate_tokens
    from trials.models import Case
    from trials.services import cases_import, trial_simulate

    call_command("migrate", verbosity=0)
    cases_import(paths=[ROOT / "demo" / "cases" / f"{case_id}.json"])
    with LoopbackLLM(brain=realistic_brain) as server:
        settings.OPENAI_BASE_URL, settings.LEGALSIM_LLM_BACKOFF_S = server.base_url, 0.0
        trial = trial_simulate(case=Case.objects.get(pk=case_id), backend="openai")
    state = trial.engine_state

    ours = naive = 0
    per_stage: dict[str, list[int]] = {}
    for request in server.requests:
        prompt = "".join(message.get("content") or "" for message in request["messages"])
        tokens = estimate_tokens(prompt)
        ours += tokens
        content = request["messages"][1]["content"]
        stage = next((s for s in state.stage_history if f"({s}/" in content), None)
        if stage and len(request["messages"]) == 2:
            per_stage.setdefault(stage, []).append(tokens)
        naive += tokens + _naive_extra(state, stage, estimate_tokens)
    print(f"prompt tokens, one civil life cycle of {case_id} ({len(server.requests)} LLM calls):")
    print(f"  ours {ours:,}   naive baseline {naive:,}   ratio {ours / naive:.2f}")
    print(
        "  mean prompt per turn by stage: "
        + ", ".join(f"{stage} {statistics.mean(values):,.0f}" for stage, values in per_stage.items())
    )


def realistic_brain(request: dict):
    from tests.llm_server import default_brain

    reply = default_brain(request)
    if not isinstance(reply, str) or reply == "done":
        return reply
    length = 1500 if reply.startswith("Document by") else 250
    filler = "本方就此发表意见如下，事实清楚、证据充分。"
    decision = "\nDECISION: decline" if "DECISION:" in reply else ""
    body = reply.replace("\nDECISION: decline", "")
    return body + (filler * (length // len(filler) + 1))[: max(0, length - len(body))] + decision


def _naive_extra(state, stage: str | None, estimate) -> int:
    """What a naive prompt adds: the earlier stages' transcripts and every document body."""
    if stage is None:
        return 0
    index = state.stage_history.index(stage)
    earlier = [turn.text for turn in state.turns if turn.stage in state.stage_history[:index]]
    documents = [artifact.text for artifact in state.artifacts if artifact.stage in state.stage_history[:index]]
    return estimate(json.dumps(earlier, ensure_ascii=False)) + estimate(json.dumps(documents, ensure_ascii=False))


if __name__ == "__main__":
    main()
