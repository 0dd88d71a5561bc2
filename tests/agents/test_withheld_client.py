"""MASER's clients (issue #33): a client with Big-5 traits, legal sense 1 and a withheld detail
never volunteers the detail, tells it when the lawyer asks about it, and until then no other
seat's view or prompt holds it (a canary detail)."""

from __future__ import annotations

import json

from agents.prompts import turn_messages
from agents.scripted.agent import ScriptedAgent
from agents.supervisor import supervisor_messages
from court.engine.machine import trial_start
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.runner import End, trial_run
from court.engine.steps import Reply
from court.procedures import procedure_for
from tests.conftest import DEMO_CASES

CANARY = "原告于2023年3月1日通过招商银行转账20万元至被告尾号7731的账户"
ASKS = "钱是怎么交给对方的？有没有转账记录？"


def maser_case() -> dict:
    case = json.loads((DEMO_CASES / "zh-civil-private-lending.json").read_text(encoding="utf-8"))
    facts = case["first_instance"]["facts_and_reasons"]
    case["first_instance"]["facts_and_reasons"] = facts.replace("原告当日通过招商银行转账20万元至被告账户", CANARY)
    assert CANARY in case["first_instance"]["facts_and_reasons"]
    case["personas"]["plaintiff"] = {
        "big5": {"extraversion": "low", "agreeableness": "low", "conscientiousness": "high"},
        "legal_sense": 1,
        "withheld": [{"detail": CANARY, "mode": "omit", "asked_by": ["转账", "怎么交"]}],
    }
    return case


class Recording:
    """A seat that plays as the scripted backend (or says ``lines[act]``) and keeps every view it got."""

    def __init__(self, lines: dict[str, str] | None = None) -> None:
        self.lines, self.views = lines or {}, []

    def respond(self, request: TurnRequest, *, on_delta=None) -> Reply:
        self.views.append(request.view)
        if request.step.act in self.lines:
            return Reply(text=self.lines[request.step.act])
        return ScriptedAgent().respond(request)

    def update_memory(self, request: MemoryRequest):
        return ScriptedAgent().update_memory(request)

    def drain_calls(self) -> list[dict]:
        return []


def consultation(lawyer_lines: dict[str, str]) -> tuple[list[str], dict[str, Recording]]:
    state = trial_start(case=maser_case(), target_side="plaintiff", last_stage="LC")
    seats = {
        seat: Recording(lawyer_lines if seat == "plaintiff_lawyer" else None) for seat in procedure_for("civil").seats
    }
    assert isinstance(trial_run(state, seats), End)
    client_turns = [turn.text for turn in state.turns if turn.seat == "plaintiff_client"]
    return client_turns, seats


def test_the_client_tells_the_withheld_detail_only_once_the_lawyer_asks_about_it():
    told, _ = consultation({"ask_follow_up": ASKS})
    assert CANARY not in told[0], "the first account leaves the detail out"
    assert CANARY in told[1] and told[1].startswith("您问到的这一点"), told[1]


def test_a_lawyer_who_never_asks_never_hears_it_and_never_sees_it():
    told, seats = consultation({"ask_follow_up": "asdf", "answer_question": "asdf", "summarise_advice": "asdf"})
    assert not any(CANARY in text for text in told)
    for seat, recording in seats.items():
        for view in recording.views:
            seen = json.dumps([view.fields, view.artifacts, view.dialogue, view.memory], ensure_ascii=False)
            prompt = json.dumps(turn_messages(view, speaker=seat, act="x", artifact=None), ensure_ascii=False)
            if seat == "plaintiff_client":
                assert CANARY in seen and "暂不透露的细节" in prompt, "the client knows it and is told to hold it"
            else:
                assert CANARY not in seen and CANARY not in prompt, seat


def test_once_told_the_lawyer_sees_the_detail_in_the_case_file_again():
    _, seats = consultation({"ask_follow_up": ASKS})
    lawyer_views = seats["plaintiff_lawyer"].views
    assert CANARY not in json.dumps(lawyer_views[0].fields, ensure_ascii=False)
    assert CANARY in json.dumps(lawyer_views[-1].fields, ensure_ascii=False)


def test_legal_sense_one_speaks_plainly_and_the_prompt_gives_the_papers_definition():
    told, seats = consultation({"ask_follow_up": ASKS})
    assert "说白了" in told[1], "level 1: no legal terms, just what happened and what they want"
    client_view = seats["plaintiff_client"].views[0]
    prompt = turn_messages(client_view, speaker="plaintiff_client", act="describe_dispute", artifact=None)[0]["content"]
    assert "法律意识为第1级" in prompt and "完全不懂法律" in prompt


def test_the_supervisor_checks_the_lawyer_against_the_agenda_and_the_client_against_the_withheld_detail():
    _, seats = consultation({"ask_follow_up": ASKS})
    lawyer = supervisor_messages(seats["plaintiff_lawyer"].views[0], "律师", "请讲。")
    client = supervisor_messages(seats["plaintiff_client"].views[0], "当事人", "好的。")
    assert "律师按法律议程询问" in lawyer[0]["content"] and "争议焦点" in lawyer[1]["content"]
    assert "争议焦点" not in client[1]["content"], "the agenda is the lawyer's"
    assert CANARY in client[1]["content"] and CANARY not in lawyer[1]["content"]
