"""A client played by the scripted backend weighs what its counsel, a person, advised about
mediation: counsel's advice decides, the client's own goals only when counsel said neither."""

from __future__ import annotations

import pytest

from agents.scripted.agent import ScriptedAgent
from court.engine.machine import trial_start
from court.engine.runner import End, trial_run
from court.procedures.civil import CIVIL_SEATS
from tests.agents.test_offline_court import Student


def client_answer(seed: dict, advice: str) -> str | None:
    state = trial_start(
        case=seed, target_side="plaintiff", human_seats={"plaintiff_lawyer": "student"}, last_stage="FIT"
    )
    participants = {seat: ScriptedAgent() for seat in CIVIL_SEATS} | {
        "plaintiff_lawyer": Student({"summarise_advice": advice})
    }
    assert isinstance(trial_run(state, participants), End)
    answers = [
        turn.decision for turn in state.turns if turn.seat == "plaintiff_client" and turn.act == "answer_mediation"
    ]
    return answers[-1] if answers else None


@pytest.mark.parametrize(
    ("wants_mediation", "advice", "answer"),
    [
        (False, "I advise you to accept the court's mediation: the defence has proved the repayment.", "accept"),
        (True, "Do not settle: decline the mediation, the evidence is on our side.", "decline"),
        (False, "It is your decision.", "decline"),
        (True, "It is your decision.", "accept"),
    ],
)
def test_the_client_follows_counsels_advice_on_mediation(civil_seed, wants_mediation, advice, answer):
    civil_seed["goals"]["plaintiff"]["accepts_mediation"] = wants_mediation
    assert client_answer(civil_seed, advice) == answer
