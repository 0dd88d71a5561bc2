"""Objections as the court rules on them: grounds that fit the act objected to are sustained
with the reason, the rest overruled with why (a reading of the indictment is no leading
question), and only a person opposing the speaker, in a hearing, may object at all."""

from __future__ import annotations

import json

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import next_step, step_apply, trial_start
from court.engine.objecting import apply_objection
from court.engine.objections import FITS, GROUNDS, ground_fits, objectors
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.state import TrialState
from court.engine.steps import Speak, UpdateMemory
from court.engine.visibility import build_view
from court.procedures import procedure_for
from tests.conftest import DEMO_CASES

AGENT = ScriptedAgent()


def played_until(case_id: str, act: str, *, human_seats: dict[str, str]) -> TrialState:
    """A trial played by scripted agents up to and including the first turn of ``act``."""
    case = json.loads((DEMO_CASES / f"{case_id}.json").read_text(encoding="utf-8"))
    target = "defendant" if case["procedure"] == "criminal" else "plaintiff"
    state = trial_start(case=case, target_side=target, human_seats=human_seats)
    while not (state.turns and state.turns[-1].act == act):
        step = next_step(state)
        if isinstance(step, Speak):
            step_apply(state, step, respond(state, step))
        elif isinstance(step, UpdateMemory):
            step_apply(
                state, step, AGENT.update_memory(MemoryRequest(step, build_view(state, step.seat, phase="memory")))
            )
        else:
            step_apply(state, step)
    return state


def respond(state: TrialState, step: Speak):
    return AGENT.respond(TurnRequest(step, build_view(state, step.seat, phase=step.phase)))


def ruling(state: TrialState, *, seat: str, ground: str) -> str:
    """The scripted judge's ruling on ``seat``'s objection to the last turn."""
    apply_objection(state, seat=seat, ground=ground, detail="", speaker_seat=state.turns[-1].seat)
    step = next_step(state)
    assert (step.seat, step.act) == ("judge", "rule_objection"), "the judge rules before anything else"
    return respond(state, step).text


def test_reading_the_indictment_is_no_leading_question():
    state = played_until("en-criminal-telecom-fraud", "read_indictment", human_seats={"attorney": "ann"})
    assert objectors(state, state.turns[-1]) == ["attorney"]
    said = ruling(state, seat="attorney", ground="leading")
    assert said.startswith("Overruled") and "Read the indictment" in said and "only a question" in said
    assert state.turns[-1].text == "Objection: leading question."


def test_a_leading_question_to_the_defendant_is_sustained_with_the_reason():
    state = played_until("en-criminal-telecom-fraud", "question_defendant", human_seats={"attorney": "ann"})
    said = ruling(state, seat="attorney", ground="leading")
    assert said == (
        "Sustained: the question suggests its own answer (‘Did you understand the nature of what you were doing?’). "
        "Counsel will put it open-ended. The question is struck."
    )


def test_the_chinese_court_rules_in_chinese():
    state = played_until("zh-criminal-dangerous-driving", "read_indictment", human_seats={"attorney": "ann"})
    said = ruling(state, seat="attorney", ground="hearsay")
    assert said.startswith("反对无效") and "宣读起诉书" in said
    assert state.turns[-1].text == "反对！理由：传闻证据。"


def test_only_a_person_opposing_the_speaker_in_a_hearing_may_object():
    nobody = played_until("en-criminal-telecom-fraud", "read_indictment", human_seats={})
    assert objectors(nobody, nobody.turns[-1]) == [], "agents do not object"
    own_side = played_until("en-criminal-telecom-fraud", "read_indictment", human_seats={"prosecutor": "pat"})
    assert objectors(own_side, own_side.turns[-1]) == []
    consultation = played_until("en-civil-traffic-accident", "ask_question", human_seats={"defendant_lawyer": "dan"})
    assert objectors(consultation, consultation.turns[-1]) == [], "a consultation is no hearing"


@pytest.mark.parametrize("procedure", ["civil", "criminal"])
def test_every_ground_but_other_reaches_some_act_and_no_formal_step_is_reached(procedure):
    acts = {slot.act for stage in procedure_for(procedure).stages for phase in stage.phases for slot in phase.slots}
    formal = {"read_indictment", "confirm_identity", "acknowledge_rights", "confirm_appearance", "open_court"}
    for ground in GROUNDS:
        reached = FITS[ground] & acts
        assert bool(reached) == (ground != "other"), (ground, reached)
        assert not any(ground_fits(ground, act) for act in formal & acts), ground
