"""A turn's prompt shows the seat's memory within ``MEMORY_TOKENS`` (docs/llm-servers.md, "Prompt
size"): a long memory bounded, latest entries first, with ``read_memory`` offered to read the
whole; a short one whole, without it. The memory itself, and the stage-end update that revises
it, are untouched."""

from __future__ import annotations

import json
from dataclasses import replace

from agents.memory_budget import MEMORY_TOKENS, memory_shown
from agents.prompts import memory_messages, turn_messages
from agents.tools.toolbox import ToolBox, turn_tools
from court.engine.tokens import estimate_tokens
from court.engine.visibility import SeatView

STAGES = ("LC", "CD", "FIT", "AD-Det", "AR")


def stage_entry(stage: str) -> str:
    """What a seat might note at a stage's end: about 60 tokens, naming the stage."""
    return f"At {stage} the court heard that the rent for March was withheld. " + "The lease allows it. " * 10


def lawyer_view(memory: dict[str, list[str]]) -> SeatView:
    return SeatView(
        seat="plaintiff_lawyer",
        role="lawyer",
        side="plaintiff",
        stage="SIT",
        unit="SIT",
        phase="debate",
        procedure="civil",
        language="en",
        case={"title": "Lease", "cause_of_action": "lease", "parties": []},
        dialogue=[{"seq": 1, "phase": "debate", "act": "argue", "seat": "judge", "speaker": "Judge", "text": "Go on."}],
        memory=memory,
    )


def turn_prompt(view: SeatView) -> str:
    return turn_messages(view, speaker="Appellee", act="argue", artifact=None)[1]["content"]


def test_a_long_memory_is_bounded_in_a_turn_latest_entries_first_with_read_memory_offered():
    memory = {
        "notes": [stage_entry(stage) for stage in STAGES],
        "facts": ["The tenant paid the deposit in cash."],
        "claims": [],
    }
    assert sum(estimate_tokens(entry) for entries in memory.values() for entry in entries) > MEMORY_TOKENS
    view = lawyer_view(memory)
    prompt = turn_prompt(view)

    assert stage_entry("AR") in prompt and stage_entry("AD-Det") in prompt, "the latest entries, whole"
    assert stage_entry("LC") not in prompt, "the first one left out"
    assert "The tenant paid the deposit in cash." in prompt, "each key's latest entry comes before older ones"
    assert "read_memory gives the whole" in prompt
    assert "read_memory" in turn_tools(view, act="argue", artifact=None, library=False)

    whole = json.loads(ToolBox(view).call("read_memory", "{}"))["result"]
    assert whole["notes"] == memory["notes"], "read_memory gives the memory as it is"
    assert view.memory == memory, "the memory itself is unchanged"
    update = memory_messages(view, "Appellee")[1]["content"]
    shown, task = update.split("\n\n# Task\n")
    assert stage_entry("LC") not in shown, "the update shows the memory as the turns do (their cached prefix)"
    assert stage_entry("LC") in task, "and gives the entries left out in its task: it revises the memory whole"


def test_a_short_memory_is_shown_whole_without_read_memory():
    memory = {"notes": [stage_entry("LC")], "facts": ["The tenant paid the deposit in cash."]}
    view = lawyer_view(memory)
    prompt = turn_prompt(view)

    assert stage_entry("LC") in prompt and "The tenant paid the deposit in cash." in prompt
    assert "read_memory" not in prompt
    assert "read_memory" not in turn_tools(view, act="argue", artifact=None, library=False)


def test_a_single_entry_longer_than_the_budget_is_cut_short_not_dropped():
    entry = "The landlord changed the locks on 2 April without notice. " * 60
    shown = memory_shown({"facts": [entry]})
    (cut,) = shown.entries["facts"]
    assert cut.endswith("…") and entry.startswith(cut.removesuffix("…"))
    assert shown.cut and shown.tokens <= MEMORY_TOKENS


def test_a_memory_update_opens_as_the_seats_turns_do_and_once_written_carries_the_window():
    """Stable-first (issue #46): the update's prompt begins with the whole of its last turn's
    before the dialogue; once written it carries the window, not the stage again."""
    lines = [
        {
            "seq": seq,
            "phase": "debate",
            "act": "argue",
            "seat": "plaintiff_lawyer" if seq % 2 else "judge",
            "speaker": "Appellee" if seq % 2 else "Judge",
            "text": f"Point {seq}. " * 40,
        }
        for seq in range(1, 13)
    ]
    view = replace(
        lawyer_view({"notes": [stage_entry("LC")]}),
        fields={"goals": {"plaintiff": {"goal": "Recover the rent"}}},
        artifacts=[{"kind": "complaint", "title": "Complaint", "text": "The tenant owes rent."}],
        dialogue=lines,
    )
    turn = turn_messages(view, speaker="Appellee", act="argue", artifact=None)
    reading = memory_messages(view, "Appellee")
    written = memory_messages(view, "Appellee", written=True)
    assert reading[0] == turn[0] == written[0], "the system message is the seat's, the same in every call"
    stage_part = turn[1]["content"].split("\n\n# Dialogue")[0]
    assert reading[1]["content"].startswith(stage_part) and written[1]["content"].startswith(stage_part)
    assert "Recover the rent" in stage_part and stage_entry("LC") in stage_part
    assert '"Point 1. ' in reading[1]["content"], "the update reads the stage whole"
    assert '"Point 1. ' not in written[1]["content"] and '"Point 12. ' in written[1]["content"]
