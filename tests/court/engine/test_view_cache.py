"""What ``build_view`` keeps between turns (court/engine/view_cache.py) never shows a seat
anything but what a view built afresh would: at every step of whole civil and criminal
trials, for every seat, the view read through the caches equals the view worked out with
them emptied."""

from __future__ import annotations

import json

import pytest

from court.engine import view_cache, visibility
from court.engine.machine import next_step, step_apply, trial_start
from court.engine.participants import MemoryRequest, TurnRequest
from court.engine.steps import End, Speak, UpdateMemory
from court.engine.visibility import build_view
from court.procedures import procedure_for
from tests.conftest import DEMO_CASES
from trials.services import agent_participants


def fresh_view(state, seat: str, phase: str):
    visibility._sight.cache_clear()
    view_cache.document_read.cache_clear()
    view_cache._sources.cache_clear()
    return build_view(state, seat, phase=phase)


@pytest.mark.parametrize(
    ("name", "person"),
    [
        ("en-civil-commercial-lease.json", None),
        ("zh-civil-private-lending.json", None),
        ("zh-civil-private-lending.json", "defendant_lawyer"),
        ("en-civil-traffic-accident.json", "plaintiff_lawyer"),
        ("en-criminal-telecom-fraud.json", None),
    ],
)
def test_every_view_of_a_trial_is_the_view_built_afresh(name, person):
    """With a person seated the appeal follows the trial's own judgment, so the sources change
    mid-trial (the agents answer in the person's seat here: the engine asks both alike)."""
    case = json.loads((DEMO_CASES / name).read_text(encoding="utf-8"))
    target = "plaintiff" if case["procedure"] == "civil" else "defendant"
    state = trial_start(case=case, target_side=target, human_seats={person: "student"} if person else None)
    agents = agent_participants(case["procedure"], "scripted", target_side=target)
    seats = procedure_for(case["procedure"]).seats
    checked = 0
    while not isinstance(step := next_step(state), End):
        outcome = None
        if isinstance(step, Speak | UpdateMemory):
            phase = step.phase if isinstance(step, Speak) else "memory"
            cached = {seat: build_view(state, seat, phase=phase) for seat in seats}
            assert cached == {seat: fresh_view(state, seat, phase) for seat in seats}
            checked += len(seats)
            view = build_view(state, step.seat, phase=phase)
            agent = agents[step.seat]
            outcome = (
                agent.respond(TurnRequest(step, view))
                if isinstance(step, Speak)
                else agent.update_memory(MemoryRequest(step, view))
            )
        step_apply(state, step, outcome)
    assert checked > 100
