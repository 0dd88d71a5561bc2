"""The LLM judge prompts in the case's language (issue #18): a Chinese trajectory is judged
with Chinese instructions and the Chinese rubric, an English one in English; the JSON keys
of the answer are the same in both."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import call_command

from annotation.judge import STRICT
from annotation.models import Rating, Rubric, Trajectory
from tests.conftest import DEMO_CASES
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.django_db
CHINESE = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(autouse=True)
def _in_process(tasks_in_process):
    return tasks_in_process


def scores_reply(request: dict) -> str:
    items = Rubric.objects.get(pk="legalworld16").definition.item_ids
    return json.dumps({"scores": {item: {"score": 8, "reason": "程序完整"} for item in items}}, ensure_ascii=False)


@pytest.fixture
def trajectories():
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json", DEMO_CASES / "en-civil-traffic-accident.json"])
    return {case.language: trial_simulate(case=case, backend="scripted").trajectory for case in Case.objects.all()}


def test_a_chinese_trajectory_is_judged_with_a_chinese_prompt(openai_settings, llm_server, trajectories):
    llm_server.brain = scores_reply
    chinese = trajectories["zh"]
    assert Trajectory.objects.get(pk=chinese.id).language == "zh"
    call_command("judge_trajectories", chinese.id, "--model", "judge-model")
    system, user = (message["content"] for message in llm_server.requests[0]["messages"])
    assert system.startswith("你是模拟诉讼的评测专家")
    assert "评分项：" in system and "评分锚点：" in system
    assert "阶段真实性" not in system  # groups are not sent, items and anchors are
    assert "程序合规性" in system and "程序完整或基本完整" in system
    assert "Procedural compliance" not in system and "Anchors" not in system and "You are" not in system
    assert '"scores"' in system and '"score"' in system and '"reason"' in system  # the keys never change
    assert CHINESE.search(user)
    assert Rating.objects.filter(trajectory_id=chinese.id, source="llm").count() == 16


def test_the_stricter_regeneration_of_a_chinese_trajectory_is_in_chinese(openai_settings, llm_server, trajectories):
    replies = iter(["整体来看庭审很真实。", None])
    llm_server.brain = lambda request: next(replies) or scores_reply(request)
    call_command("judge_trajectories", trajectories["zh"].id, "--model", "judge-model")
    strict = llm_server.requests[1]["messages"]
    assert "只返回 JSON" in strict[0]["content"] and "只返回 JSON" in strict[1]["content"]
    assert STRICT not in strict[0]["content"]


def test_an_english_trajectory_keeps_the_english_prompt(openai_settings, llm_server, trajectories):
    llm_server.brain = scores_reply
    call_command("judge_trajectories", trajectories["en"].id, "--model", "judge-model")
    system = llm_server.requests[0]["messages"][0]["content"]
    assert system.startswith("You are an expert evaluator") and "Anchors: " in system
    assert "Procedural compliance" in system and not CHINESE.search(system)
