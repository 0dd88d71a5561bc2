"""``simulate_split --no-strategy``: a batch records whether its model seats keep SimCourt's
strategies, and every trial it runs follows it (the ablation ``score_trials`` compares)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from agents.strategy import PLAN_MARK
from tests.conftest import DEMO_CASES
from trials.models import Batch
from trials.services import cases_import

pytestmark = pytest.mark.django_db
CASE = "zh-criminal-dangerous-driving"


def planning(requests: list[dict]) -> int:
    return sum(any(mark in request["messages"][1]["content"] for mark in PLAN_MARK) for request in requests)


def test_a_batch_without_strategy_runs_its_trials_without_it(
    openai_settings, llm_server, tmp_path, capsys, tasks_in_process
):
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    split = tmp_path / "one.txt"
    split.write_text(CASE)
    call_command("simulate_split", split=str(split), backend="openai", no_strategy=True)
    assert planning(llm_server.requests) == 0
    call_command("simulate_split", split=str(split), backend="openai")
    assert planning(llm_server.requests) > 0
    without, with_strategy = Batch.objects.order_by("pk")
    assert (without.strategy, with_strategy.strategy) == (False, True)
    assert [run.trial.engine_state.strategy_module for run in without.runs.all()] == [False]
    assert [run.trial.engine_state.strategy_module for run in with_strategy.runs.all()] == [True]
