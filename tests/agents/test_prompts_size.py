"""Prompts bounded by what the seat needs (issue #35, item 4; docs/llm-servers.md, "Prompt size").

A life cycle of a demo case is played by model seats against the loopback server, their replies
as long as real ones; prompts are counted with the estimator ``benchmarks/prompt_tokens.py``
uses (``estimate_tokens``)."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from agents.prompts import RECENT_LINES, turn_messages
from court.engine.machine import trial_start
from court.engine.runner import End, trial_run
from court.engine.tokens import estimate_tokens
from court.engine.visibility import SeatView
from tests.conftest import DEMO_CASES
from tests.llm_server import default_brain, tool_names
from trials.services import agent_participants

CASES = {"en": "en-civil-commercial-lease", "zh": "zh-civil-private-lending"}
EARLY_FACT = "the loan was handed over in cash at the Lotus teahouse"
SAID_EARLY = "I handed over the money myself, one afternoon, and nobody else saw it."


def long_reply(request: dict) -> object:
    """The suite's brain with turns as long as real ones (about 250 characters); the target
    lawyer writes ``EARLY_FACT`` into its memory at the end of the consultation, where its
    client says ``SAID_EARLY``."""
    reply = default_brain(request)
    user = request["messages"][1]["content"]
    if isinstance(reply, dict) and "memory_expand" in tool_names(request) and SAID_EARLY in user:
        return {"tool_calls": [("memory_expand", {"key": "facts", "entries": [EARLY_FACT]})]}
    if not isinstance(reply, str) or reply == "done" or reply.startswith("Document by"):
        return reply
    padded = reply + " The record supports this." * 9
    return f"{SAID_EARLY} {padded}" if _describes_dispute(request) else padded


def _describes_dispute(request: dict) -> bool:
    task = request["messages"][1]["content"].rpartition("\n# ")[2]
    return "describe your dispute" in task or "向律师介绍纠纷经过" in task


def life_cycle(language: str, llm_server) -> tuple[list[tuple[str, str, str, list[dict]]], object]:
    """Every model request of one life cycle, per step: (stage, seat, act, requests)."""
    llm_server.brain = long_reply
    seed = json.loads((DEMO_CASES / f"{CASES[language]}.json").read_text(encoding="utf-8"))
    state = trial_start(case=seed, target_side="plaintiff")
    steps: list[tuple[str, str, str, list[dict]]] = []

    class Noting:
        def __init__(self, agent) -> None:
            self.agent = agent

        def respond(self, request, *, on_delta=None):
            return self._noted(request, "", lambda: self.agent.respond(request, on_delta=on_delta))

        def update_memory(self, request):
            return self._noted(request, "update_memory", lambda: self.agent.update_memory(request))

        def drain_calls(self):
            return self.agent.drain_calls()

        def _noted(self, request, act, run):
            start = len(llm_server.requests)
            outcome = run()
            step = request.step
            steps.append((step.stage, step.seat, act or step.act, llm_server.requests[start:]))
            return outcome

    agents = agent_participants("civil", "openai", target_side="plaintiff")
    assert isinstance(trial_run(state, {seat: Noting(agent) for seat, agent in agents.items()}), End)
    return steps, state


def size(request: dict) -> int:
    return estimate_tokens("".join(message.get("content") or "" for message in request["messages"]))


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_late_appeal_hearing_turn_has_no_longer_a_prompt_than_the_same_turn_at_first_instance(
    openai_settings, llm_server, language
):
    steps, _ = life_cycle(language, llm_server)
    turns = {
        stage: {
            act: size(requests[0])
            for step_stage, seat, act, requests in steps
            if (step_stage, seat) == (stage, "judge") and act != "pronounce_judgment"
        }
        for stage in ("FIT", "SIT")
    }
    assert turns["SIT"]["propose_mediation"] <= turns["FIT"]["propose_mediation"], "the late turn, act for act"
    assert max(turns["SIT"].values()) <= max(turns["FIT"].values()), "and no judge's turn at SIT is longer"


@pytest.mark.django_db
def test_a_fact_said_early_that_is_in_memory_reaches_a_late_prompt_without_the_lines_it_was_said_in(
    openai_settings, llm_server
):
    steps, state = life_cycle("en", llm_server)
    assert EARLY_FACT in state.memory["plaintiff_lawyer"]["facts"]
    late = [
        requests[0]
        for stage, seat, act, requests in steps
        if (stage, seat) == ("SIT", "plaintiff_lawyer") and act != "update_memory"
    ][-1]
    prompt = late["messages"][1]["content"]
    assert EARLY_FACT in prompt, "the memory carries the fact to the appeal hearing"
    assert SAID_EARLY not in prompt, "the consultation's lines are not repeated"


@pytest.mark.django_db
def test_after_its_first_writes_a_memory_update_carries_the_memory_as_written_not_the_whole_stage_again(
    openai_settings, llm_server
):
    steps, _ = life_cycle("en", llm_server)
    first, then = next(
        requests
        for stage, seat, act, requests in steps
        if (stage, seat, act) == ("FIT", "plaintiff_lawyer", "update_memory")
    )[-2:]
    whole, written = first["messages"][1]["content"], then["messages"][1]["content"]
    lines = re.compile(r"^\[\d+\] ", re.M)
    assert len(lines.findall(whole)) > RECENT_LINES, "the first call reads the whole hearing"
    assert len(lines.findall(written)) <= RECENT_LINES
    assert "noted the stage" in written, "the follow-up shows the entry just written"
    assert then["messages"][-1]["role"] == "tool", "with the writes it made and their results"
    assert size(then) < size(first) / 2


def view_with(lines: int, memory: dict[str, list[str]] | None) -> SeatView:
    turns = [
        {
            "seq": seq,
            "phase": "debate",
            "act": "argue",
            "seat": "plaintiff_lawyer",
            "speaker": "Plaintiff",
            "text": f"point {seq}",
        }
        for seq in range(1, lines + 1)
    ]
    return SeatView(
        seat="defendant_lawyer",
        role="lawyer",
        side="defendant",
        stage="FIT",
        unit="FIT",
        phase="debate",
        procedure="civil",
        language="en",
        case={"title": "T", "cause_of_action": "loan", "parties": []},
        dialogue=turns,
        memory=memory,
    )


def test_a_prompt_past_the_size_keeps_the_last_lines_verbatim_and_the_memory():
    view = view_with(RECENT_LINES + 9, {"facts": ["the IOU is dated 1 March"], "notes": []})
    prompt = "".join(
        message["content"] for message in turn_messages(view, speaker="Defendant", act="rebut", artifact=None)
    )
    said = [int(seq) for seq, _ in re.findall(r'^\[(\d+)\] Plaintiff: "point (\d+)"$', prompt, re.M)]
    last = RECENT_LINES + 9
    assert said == list(range(said[0], last + 1)) and 2 <= len(said) <= RECENT_LINES, "the last lines, in order"
    assert "the IOU is dated 1 March" in prompt
    assert f"({said[0] - 1} earlier lines are left out; your case memory above stands for them)" in prompt


def test_the_window_grows_from_one_turn_to_the_next_until_it_starts_again():
    """Between two restarts a turn's dialogue begins as the previous turn's did (a server's
    prompt cache holds it); a restart keeps the last lines."""
    windows = []
    for lines in range(1, 3 * RECENT_LINES):
        prompt = turn_messages(view_with(lines, None), speaker="Defendant", act="rebut", artifact=None)[1]["content"]
        windows.append([int(seq) for seq in re.findall(r"^\[(\d+)\] Plaintiff", prompt, re.M)])
    for before, after in itertools.pairwise(windows):
        grew = after[: len(before)] == before and after[-1] == before[-1] + 1
        restarted = len(after) < len(before) and after[-1] == before[-1] + 1
        assert grew or restarted, (before, after)
    restarts = sum(len(after) < len(before) for before, after in itertools.pairwise(windows))
    assert max(map(len, windows)) == RECENT_LINES and restarts >= 2


def test_a_document_is_written_from_the_whole_stage():
    view = view_with(RECENT_LINES + 9, {"facts": [], "notes": []})
    prompt = turn_messages(view, speaker="Defendant", act="draft_defence", artifact="defence")[1]["content"]
    said = [int(seq) for seq in re.findall(r"^\[(\d+)\] Plaintiff", prompt, re.M)]
    assert sorted(said) == list(range(1, RECENT_LINES + 10)), "every line, the window's first, then the earlier ones"
    assert "here are the" in prompt
