"""Each thing said once in a prompt (issue #35, item 4; ``PROMPT_VERSION`` 6): the tools a call
can use and no others, evidence without its keys and side repeated in every item, the memory
without its empty keys, and a memory update's follow-up that does not read the stage's closing
document a second time."""

from __future__ import annotations

import json

from agents.prompts import memory_messages, turn_messages
from agents.tools.toolbox import tool_definitions, turn_tools
from court.engine.visibility import SeatView

EVIDENCE = {
    "plaintiff": [
        {"side": "plaintiff", "name": "Lease contract dated 1 March 2022", "purpose": "the early-termination clause"}
    ],
    "defendant": [{"side": "defendant", "name": "Leak photographs", "purpose": "the premises were unusable"}],
}
NEW_EVIDENCE = {"defendant": [{"side": "defendant", "name": "Plumber's invoice", "purpose": "the leak was reported"}]}
JUDGMENT = "CIVIL JUDGMENT\nThe court orders: the defendant shall pay RMB 96,000 within ten days."


def view(
    *,
    role: str = "lawyer",
    stage: str = "FIT",
    fields: dict | None = None,
    artifacts: list | None = None,
    dialogue: list | None = None,
    memory: dict | None = None,
) -> SeatView:
    return SeatView(
        seat=f"plaintiff_{role}" if role in ("lawyer", "client") else role,
        role=role,
        side="plaintiff" if role in ("lawyer", "client") else "court",
        stage=stage,
        unit=stage,
        phase="debate",
        procedure="civil",
        language="en",
        case={"title": "Harbour View v. Green Leaf", "cause_of_action": "lease", "parties": []},
        fields=fields or {},
        artifacts=artifacts or [],
        dialogue=dialogue or [],
        memory=memory,
    )


def turn(seq: int, act: str, text: str, seat: str = "defendant_lawyer", speaker: str = "Defendant") -> dict:
    return {"seq": seq, "phase": "debate", "act": act, "seat": seat, "speaker": speaker, "text": text}


def prompt(messages: list[dict]) -> str:
    return "\n".join(message["content"] for message in messages)


COMPLAINT = {"kind": "complaint", "title": "Civil complaint", "text": "...", "side": "plaintiff"}


def test_a_turn_is_offered_the_tools_its_seat_can_use_and_no_others():
    client = view(role="client", artifacts=[COMPLAINT])
    assert turn_tools(client, act="answer_judge", artifact=None, library=True) == ("read_artifact",)
    lawyer = view()
    spoken = turn_tools(lawyer, act="argue", artifact=None, library=True)
    assert spoken == ("search_statutes", "check_citations"), "no document to read, none to write, no memory tools"
    drafting = turn_tools(view(stage="CD"), act="draft_complaint", artifact="complaint", library=True)
    assert "export_document" in drafting
    (export,) = [
        tool
        for tool in tool_definitions(drafting, document="complaint")
        if tool["function"]["name"] == "export_document"
    ]
    assert export["function"]["parameters"]["properties"]["kind"]["enum"] == ["complaint"]
    assert "first_instance_judgment" not in json.dumps(export), "only the sections of the document being written"


def test_each_piece_of_evidence_is_said_once_and_at_the_appeal_hearing_the_first_instances_by_name():
    fields = {"evidence": EVIDENCE, "new_evidence": NEW_EVIDENCE}
    first = prompt(turn_messages(view(fields=fields), speaker="Plaintiff", act="argue", artifact=None))
    assert '"Lease contract dated 1 March 2022: the early-termination clause"' in first
    assert '"side"' not in first and '"name"' not in first, "the side and the keys are not repeated per item"
    appeal = prompt(turn_messages(view(stage="SIT", fields=fields), speaker="Appellee", act="argue", artifact=None))
    assert '"Lease contract dated 1 March 2022"' in appeal and "the early-termination clause" not in appeal
    assert "Plumber's invoice: the leak was reported" in appeal, "the appeal's new evidence keeps its purpose"


def test_the_memory_shows_what_was_written_without_its_empty_keys():
    memory = {"facts": ["The keys were returned on 30 April 2024"], "claims": [], "notes": []}
    text = prompt(turn_messages(view(memory=memory), speaker="Plaintiff", act="argue", artifact=None))
    assert '{"facts": ["The keys were returned on 30 April 2024"]}' in text


def test_a_memory_updates_follow_up_names_the_closing_document_instead_of_reading_it_again():
    lines = [turn(seq, "argue", f"argument {seq}") for seq in range(1, 4)]
    lines.append(turn(4, "pronounce_judgment", JUDGMENT, seat="judge", speaker="Presiding judge"))
    stage_end = view(dialogue=lines, memory={"facts": ["the lease ran to 2025"]})
    first = prompt(memory_messages(stage_end, "Plaintiff"))
    assert "The court orders: the defendant shall pay RMB 96,000" in first, "the update reads the stage whole"
    follow_up = prompt(memory_messages(stage_end, "Plaintiff", written=True))
    assert "RMB 96,000" not in follow_up
    assert "[4] Presiding judge: (the document written here, read whole in this memory update's first step" in follow_up
    assert '[3] Defendant: "argument 3"' in follow_up, "the last lines before it are still given"
    assert "the lease ran to 2025" in follow_up, "the memory as the update's first call showed it"
