"""A Chinese case is played in Chinese (issue #18): every text the engine and the scripted
agents record (turns, rulings, documents, memory), the skill cards and the prompts built for
its seats. What stays in ASCII is the case's own (a plate number, "152mg/100ml") and what a
model must write back or call by name (tool names, memory keys, document kinds, the
``DECISION:`` line, the supervisor's JSON keys)."""

from __future__ import annotations

import json
import re

import pytest

from agents.prompts import DECISION_MARK, memory_messages, turn_messages
from agents.scripted.agent import ScriptedAgent
from agents.skills import SKILLS, skill_for
from agents.supervisor import revision_message, supervisor_messages
from agents.tools.toolbox import TOOL_SPECS
from court.documents import DOCUMENTS, document_title
from court.engine.machine import next_step, step_apply, trial_start
from court.engine.memory import MEMORY_KEYS
from court.engine.objecting import apply_objection
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.runner import trial_run
from court.engine.state import TrialState
from court.engine.steps import End, Speak, UpdateMemory
from court.engine.visibility import build_view
from court.procedures import procedure_for
from court.procedures.civil import DECISIONS
from tests.conftest import DEMO_CASES

ZH_CIVIL = sorted(path.stem for path in DEMO_CASES.glob("zh-civil-*.json"))
ZH_CRIMINAL = "zh-criminal-dangerous-driving"
AGENT = ScriptedAgent()

WORD = re.compile(r"[A-Za-z][A-Za-z'-]*(?:_[A-Za-z]+)*")
MARKERS = (
    set(TOOL_SPECS)
    | set(MEMORY_KEYS)
    | set(DOCUMENTS)
    | {"appeal_determination", DECISION_MARK.rstrip(":")}
    | {choice for choices in DECISIONS.values() for choice in choices}
    | {"JSON", "consistent", "advice", "true", "false"}
)
"""ASCII a Chinese prompt must carry: what the model writes back or calls by name."""


def seed(case_id: str) -> dict:
    return json.loads((DEMO_CASES / f"{case_id}.json").read_text(encoding="utf-8"))


def case_words(value) -> set[str]:
    """The ASCII words of the case's own Chinese texts (a plate, a unit): not the engine's."""
    if isinstance(value, dict):
        return set().union(*(case_words(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(case_words(item) for item in value))
    if isinstance(value, str) and re.search(r"[\u4e00-\u9fff]", value):
        return set(WORD.findall(value))
    return set()


def english(text: str, allowed: set[str]) -> set[str]:
    return set(WORD.findall(text.replace("\\n", "\n"))) - allowed


def recorded(state: TrialState) -> dict[str, str]:
    """Every text the trial recorded, by where it stands."""
    texts = {f"turn {turn.seq} {turn.act}": f"{turn.speaker}\n{turn.text}" for turn in state.turns}
    texts |= {f"artifact {item.kind}": f"{item.title}\n{item.text}" for item in state.artifacts}
    texts |= {
        f"memory {seat}": json.dumps(list(memory.values()), ensure_ascii=False) for seat, memory in state.memory.items()
    }
    return texts


def played(case: dict, *, human_seats: dict[str, str] | None = None) -> TrialState:
    """The whole trial, every seat (a person's too) answered by the scripted agent."""
    target = "defendant" if case["procedure"] == "criminal" else "plaintiff"
    state = trial_start(case=case, target_side=target, human_seats=human_seats)
    outcome = trial_run(state, {seat: AGENT for seat in procedure_for(case["procedure"]).seats})
    assert isinstance(outcome, End)
    return state


def assert_chinese(texts: dict[str, str], allowed: set[str]) -> None:
    leaks = {where: sorted(words) for where, text in texts.items() if (words := english(text, allowed))}
    assert not leaks, leaks


@pytest.mark.parametrize("case_id", ZH_CIVIL)
def test_a_zh_civil_life_cycle_records_no_english_word(case_id):
    case = seed(case_id)
    state = played(case)
    assert {"LC", "FIT", "AD-Det", "SIT"} <= set(state.stage_history)
    assert_chinese(recorded(state), case_words(case))


def test_a_zh_trial_with_a_person_seated_decides_the_appeal_in_chinese():
    """With a person seated the first-instance judgment decides who is asked to appeal, and
    the answers, the determination and the later stages are all Chinese."""
    case = seed("zh-civil-private-lending")
    state = played(case, human_seats={"defendant_lawyer": "dan"})
    assert any(turn.act == "answer_appeal" for turn in state.turns)
    assert_chinese(recorded(state), case_words(case))


def test_a_zh_criminal_trial_records_no_english_word():
    case = seed(ZH_CRIMINAL)
    state = played(case)
    assert {artifact.kind for artifact in state.artifacts} == {"criminal_judgment", "trial_record"}
    assert_chinese(recorded(state), case_words(case))


def played_until(case_id: str, act: str, human_seats: dict[str, str]) -> TrialState:
    case = seed(case_id)
    target = "defendant" if case["procedure"] == "criminal" else "plaintiff"
    state = trial_start(case=case, target_side=target, human_seats=human_seats)
    while not (state.turns and state.turns[-1].act == act):
        step = next_step(state)
        if isinstance(step, Speak):
            step_apply(state, step, AGENT.respond(TurnRequest(step, build_view(state, step.seat, phase=step.phase))))
        elif isinstance(step, UpdateMemory):
            view = build_view(state, step.seat, phase="memory")
            step_apply(state, step, AGENT.update_memory(MemoryRequest(step, view)))
        else:
            step_apply(state, step)
    return state


def objected(state: TrialState, *, seat: str, ground: str, detail: str = "") -> tuple[str, str]:
    """The objection to the last turn as recorded, and the scripted judge's ruling on it."""
    objection = apply_objection(state, seat=seat, ground=ground, detail=detail, speaker_seat=state.turns[-1].seat)
    step = next_step(state)
    assert step.act == "rule_objection"
    ruling = AGENT.respond(TurnRequest(step, build_view(state, step.seat, phase=step.phase))).text
    return objection.text, ruling


def test_an_objection_and_its_ruling_in_a_zh_trial_are_chinese():
    civil = played_until("zh-civil-private-lending", "state_claims", {"defendant_lawyer": "dan"})
    objection, ruling = objected(civil, seat="defendant_lawyer", ground="speculation")
    assert objection == "反对！理由：推测性陈述。"
    assert ruling.startswith("反对无效：") and "推测" in ruling, "the statement of claims conjectures nothing"
    criminal = played_until(ZH_CRIMINAL, "read_indictment", {"attorney": "ann"})
    objection, ruling = objected(criminal, seat="attorney", ground="irrelevant", detail="这与量刑无关。")
    assert objection == "反对！理由：与本案无关。这与量刑无关。"
    assert ruling.startswith("反对无效：") and "宣读起诉书" in ruling and ruling.endswith("请继续。")
    assert_chinese({"objection": objection, "ruling": ruling}, set())


def test_the_ground_named_first_is_the_objections_ground_whatever_the_objector_adds():
    state = played_until("zh-civil-private-lending", "state_claims", {"defendant_lawyer": "dan"})
    _, ruling = objected(state, seat="defendant_lawyer", ground="hearsay", detail="并且属于诱导性发问")
    assert "传闻" in ruling


def test_skill_cards_speak_the_case_language_in_prompts_and_in_the_room():
    for card in SKILLS:
        assert not english(card.render("zh"), MARKERS), card.id
        zh = card.guidance("zh")
        assert not english(zh["task"] + "".join(zh["checklist"]), MARKERS), card.id
        assert card.render("zh").startswith("### 技能：") and card.render("en").startswith(f"### Skill: {card.id}")
    card = skill_for(role="lawyer", stage="FIT", act="state_claims")
    assert card.guidance("en")["task"].startswith("Advocate in court")
    assert card.guidance("zh")["task"].startswith("出庭代理")


def prompts_of_a_zh_trial(case: dict) -> dict[str, str]:
    """Every prompt the openai backend would send in the trial: turns, memory updates and the
    supervisor's checks, by where they are sent."""
    target = "defendant" if case["procedure"] == "criminal" else "plaintiff"
    state = trial_start(case=case, target_side=target)
    prompts: dict[str, str] = {}
    while not isinstance(step := next_step(state), End):
        if isinstance(step, Speak):
            view = build_view(state, step.seat, phase=step.phase)
            messages = turn_messages(view, speaker=step.speaker, act=step.act, artifact=step.artifact)
            if view.role in ("client", "lawyer"):
                messages += supervisor_messages(view, step.speaker, "我同意。")
                messages.append(revision_message(view, "请说明借款时间。"))
            prompts[f"{step.stage} {step.seat} {step.act}"] = "\n".join(message["content"] for message in messages)
            step_apply(state, step, AGENT.respond(TurnRequest(step, view)))
        elif isinstance(step, UpdateMemory):
            view = build_view(state, step.seat, phase="memory")
            messages = memory_messages(view, step.seat)
            prompts[f"{step.stage} {step.seat} memory"] = "\n".join(message["content"] for message in messages)
            step_apply(state, step, AGENT.update_memory(MemoryRequest(step, view)))
        else:
            step_apply(state, step)
    return prompts


@pytest.mark.parametrize("case_id", ["zh-civil-labour-dispute", ZH_CRIMINAL])
def test_prompts_for_a_zh_case_carry_no_english_beyond_the_format_markers(case_id):
    case = seed(case_id)
    prompts = prompts_of_a_zh_trial(case)
    assert_chinese(prompts, MARKERS | case_words(case))
    if case["procedure"] == "civil":
        mediation = next(text for where, text in prompts.items() if where.endswith("answer_mediation"))
        assert f"`{DECISION_MARK} accept`" in mediation and f"`{DECISION_MARK} decline`" in mediation
        assert "你的席位：原告代理人" in prompts["LC plaintiff_lawyer memory"]
        assert "### 技能：起诉状撰写" in prompts["CD plaintiff_lawyer request_materials"]


def test_a_document_without_a_title_is_named_in_the_case_language():
    assert document_title("first_instance_judgment", "zh") == "民事判决书（一审）"
    assert document_title("first_instance_judgment", "en") == "Civil judgment (first instance)"
    assert document_title("appeal_determination", "zh") == "appeal_determination", "no template: the id"
