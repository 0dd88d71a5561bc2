"""SimCourt's Strategy module and stage-end reflection for the model seats of a criminal trial,
through the real openai client and the loopback server (``agents.strategy``)."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.core.management import call_command
from django.urls import reverse

from agents.prompts import ROLE_BRIEFS
from agents.strategy import PLAN_MARK
from court.engine.state import TrialState
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.llm_server import default_brain, is_memory_update
from tests.users import person
from trials.live.services import transcript_for
from trials.models import Trial
from trials.services import cases_import, trial_agents

pytestmark = pytest.mark.django_db
CASE = "zh-criminal-dangerous-driving"
PLANNERS = ("judge", "prosecutor", "attorney", "defendant")
MEMORY_SEATS = ("prosecutor", "attorney", "defendant")
STRATEGY_HEADING = "你的庭审策略（仅你可见）"


def seat_of(request: dict) -> str:
    """The criminal seat a request is for: each seat's role brief opens its system message."""
    system = request["messages"][0]["content"]
    return next(seat for seat in ROLE_BRIEFS if ROLE_BRIEFS[seat][0] in system)


def task_of(request: dict) -> str:
    """The request's prompt (a tool result's request carries it too): its first user message."""
    return next(message["content"] for message in request["messages"] if message["role"] == "user")


def is_planning(request: dict) -> bool:
    return any(mark in task_of(request) for mark in PLAN_MARK)


def opening(requests: list[dict]) -> list[dict]:
    """The first request of each call (a tool result starts no call)."""
    return [request for request in requests if request["messages"][-1]["role"] == "user"]


def kind_of(request: dict) -> str:
    if is_planning(request):
        return "strategy" if "庭审开始前" in request["messages"][-1]["content"] else "reflection"
    return "memory" if is_memory_update(request) else "turn"


def simulate(capsys, *args: str) -> Trial:
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    call_command("simulate", CASE, "--backend", "openai", "--json", *args)
    return Trial.objects.get(pk=json.loads(capsys.readouterr().out)["trial_id"])


def spoke_in(trial: Trial, seat: str) -> list[str]:
    return list(dict.fromkeys(trial.turns.filter(seat=seat).order_by("seq").values_list("stage", flat=True)))


def test_each_planner_writes_a_strategy_before_its_first_turn_and_reflects_at_each_stage_end(
    openai_settings, llm_server, capsys
):
    trial = simulate(capsys)
    assert trial.status == Trial.Status.FINISHED
    calls = [(seat_of(request), kind_of(request)) for request in opening(llm_server.requests)]
    for seat in PLANNERS:
        own = [kind for who, kind in calls if who == seat]
        assert own[0] == "strategy" and own.count("strategy") == 1, seat
        reflected = list(trial.llm_calls.filter(seat=seat, act="reflection").values_list("stage", flat=True))
        stages = spoke_in(trial, seat)
        assert reflected == stages, seat
        if seat in MEMORY_SEATS:  # each reflection comes just before the seat's memory summary of that stage
            assert all(own[index + 1] == "memory" for index, kind in enumerate(own) if kind == "reflection")
        assert own.count("reflection") == len(reflected)
    assert ("stenographer", "strategy") not in calls
    stored = trial.engine_state.strategies
    assert set(stored) == set(PLANNERS)
    assert all(entry["text"] and not entry["warning"] for entries in stored.values() for entry in entries)


def test_the_criminal_judge_reflects_when_each_stage_ends_without_writing_memory(openai_settings, llm_server, capsys):
    """The judge keeps no memory, so the engine asks it for no stage-end step; it still revises
    its strategy once each stage it sat in has ended, before anyone speaks in the next."""
    trial = simulate(capsys)
    stages = spoke_in(trial, "judge")
    entries = trial.engine_state.strategies["judge"]
    assert [(entry["stage"], entry["kind"]) for entry in entries] == [
        (stages[0], "strategy"),
        *((stage, "reflection") for stage in stages),
    ], "a reflection stored with each stage it closed, the judgment included"
    assert list(trial.llm_calls.filter(seat="judge", act="reflection").values_list("stage", flat=True)) == stages
    assert "judge" not in trial.engine_state.memory
    assert not trial.llm_calls.filter(seat="judge", act="update_memory").exists()
    calls = [(seat_of(request), kind_of(request)) for request in opening(llm_server.requests)]
    reflections = [index for index, (seat, kind) in enumerate(calls) if (seat, kind) == ("judge", "reflection")]
    order = [stage["stage"] for stage in transcript_for(trial.engine_state, None)]
    for stage, index in zip(stages, reflections, strict=True):
        heard = order[: order.index(stage) + 1]
        turns = trial.turns.filter(stage__in=heard, author="agent").count()
        assert sum(kind == "turn" for _seat, kind in calls[:index]) == turns, (
            f"the judge reflects on {stage} after its last turn and before the next stage's first"
        )


def test_no_strategy_makes_no_strategy_or_reflection_call(openai_settings, llm_server, capsys):
    trial = simulate(capsys, "--no-strategy")
    assert trial.status == Trial.Status.FINISHED
    assert not any(is_planning(request) for request in llm_server.requests)
    assert not trial.llm_calls.filter(act__in=("strategy", "reflection")).exists()
    state = trial.engine_state
    assert not state.strategy_module and state.strategies == {}


def canary_brain(counter: Counter):
    """Every strategy and reflection a canary naming its seat, numbered."""

    def brain(request: dict):
        if is_planning(request) and request["messages"][-1]["role"] == "user":
            seat = seat_of(request)
            counter[seat] += 1
            return f"CANARY-{seat}-{counter[seat]}: press the weakest point first."
        return default_brain(request)

    return brain


def test_a_seats_strategy_reaches_its_own_later_prompts_and_no_other_seats(openai_settings, llm_server, capsys):
    written: Counter = Counter()
    llm_server.brain = canary_brain(written)
    trial = simulate(capsys)
    for request in llm_server.requests:
        seat, text = seat_of(request), json.dumps(request["messages"], ensure_ascii=False)
        foreign = [other for other in PLANNERS if other != seat and f"CANARY-{other}-" in text]
        assert not foreign, f"{seat}'s prompt carries the strategy of {foreign}"
    latest: Counter = Counter()
    for request in opening(llm_server.requests):
        seat, kind = seat_of(request), kind_of(request)
        if kind in ("strategy", "reflection"):
            latest[seat] += 1
        elif seat in PLANNERS:
            assert f'"CANARY-{seat}-{latest[seat]}:' in task_of(request), (
                f"{seat}'s {kind} prompt has its latest strategy"
            )
    final = {seat: f"CANARY-{seat}-{written[seat]}" for seat in PLANNERS}

    state = trial.engine_state
    own = transcript_for(state, ["attorney"])
    shown = {entry["seat"] for stage in own for entry in stage["strategies"]}
    assert shown == {"attorney"}, "a participant reads only their own seat's strategy"
    teacher = person("prof", Role.INSTRUCTOR)
    from django.test import Client

    client = Client()
    client.force_login(teacher)
    page = client.get(reverse("trials:trial_transcript", args=[trial.pk])).content.decode()
    assert all(f"CANARY-{seat}-1" in page and final[seat] in page for seat in PLANNERS)


def test_a_model_with_no_strategy_to_give_does_not_stop_the_trial(openai_settings, llm_server, capsys):
    def brain(request: dict):
        if is_planning(request) and request["messages"][-1]["role"] == "user":
            return "#### --- ****"
        return default_brain(request)

    llm_server.brain = brain
    trial = simulate(capsys)
    assert trial.status == Trial.Status.FINISHED
    entries = trial.engine_state.strategies
    assert set(entries) == set(PLANNERS)
    assert all(not entry["text"] and entry["warning"] for seat in PLANNERS for entry in entries[seat])
    assert not any(STRATEGY_HEADING in json.dumps(r["messages"], ensure_ascii=False) for r in llm_server.requests)


def test_a_resumed_trial_gives_each_agent_its_stored_strategy(openai_settings, llm_server, capsys):
    trial = simulate(capsys, "--until", "investigation")
    stored = trial.engine_state.strategies
    agents = trial_agents(trial)
    assert {seat: agents[seat].strategy for seat in PLANNERS} == {seat: stored[seat] for seat in PLANNERS}
    assert agents["stenographer"].strategy == []


def test_a_state_stored_before_the_strategy_module_loads_with_it_off():
    state = TrialState(case={"language": "zh"}, procedure="criminal", target_side="defendant")
    old = {key: value for key, value in state.to_dict().items() if key not in ("strategy_module", "strategies")}
    loaded = TrialState.from_dict(old)
    assert loaded.strategy_module is False and loaded.strategies == {}
    state.strategies = {"attorney": [{"stage": "preparation", "kind": "strategy", "text": "t", "warning": ""}]}
    assert TrialState.from_dict(json.loads(json.dumps(state.to_dict()))).strategies == state.strategies
