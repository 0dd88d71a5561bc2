"""``score_trials --strategy-ablation``: SimCourt's Table 2 for the Strategy module, the
prediction metrics of criminal trials run with it and with ``--no-strategy`` side by side."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from tests.conftest import DEMO_CASES
from tests.llm_server import default_brain
from trials.services import cases_import

pytestmark = pytest.mark.django_db
CASE = "zh-criminal-dangerous-driving"
STRATEGY_HEADING = "你的庭审策略（仅你可见）"


def judge_follows_strategy(request: dict):
    """The judge's judgment: the true sentence when its prompt carries a strategy, a heavier
    one when it does not (so the two rows of the table differ)."""
    last = request["messages"][-1]
    if last["role"] == "user" and "现在请写出完整的《刑事判决书》" in last["content"]:
        months, fine = ("二", "四千") if STRATEGY_HEADING in last["content"] else ("六", "八千")
        return f"刑事判决书\n判决如下：被告人刘某某犯危险驾驶罪，判处拘役{months}个月，并处罚金人民币{fine}元。"
    return default_brain(request)


def test_score_trials_compares_trials_with_and_without_strategy(openai_settings, llm_server, capsys, tmp_path):
    llm_server.brain = judge_follows_strategy
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    for extra in ((), ("--no-strategy",)):
        call_command("simulate", CASE, "--backend", "openai", "--json", *extra)
        json.loads(capsys.readouterr().out)
    call_command("score_trials", "--all", "--out", str(tmp_path / "scores.json"), "--strategy-ablation")
    out = capsys.readouterr().out
    table = out[out.index("Strategy ablation") :].splitlines()
    with_row = next(line for line in table if line.startswith("SimCourt"))
    without_row = next(line for line in table if line.startswith("w/o Strategy"))
    assert with_row.split()[1:3] == ["1", "0.000±0.000"]
    assert without_row.split()[2:4] == ["1", "2.000±0.000"]
