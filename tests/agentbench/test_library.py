"""The research tools: the trial agents' tools over the demo library, and read_case."""

from __future__ import annotations

import json

from agentbench.library import ResearchTools


def test_read_case_finds_a_case_by_its_number_inside_a_question():
    tools = ResearchTools.demo()

    found = json.loads(tools.call("read_case", "案号（2024）苏0106民初1187号的判决引用了哪些法条？"))

    assert found["ok"] is True
    assert found["result"]["id"] == "zh-civil-private-lending"
    assert "《中华人民共和国民法典》第六百七十六条" in found["result"]["legal_references"]


def test_a_bad_call_comes_back_as_a_failure_observation_never_an_exception():
    tools = ResearchTools.demo()

    unknown_case = json.loads(tools.call("read_case", "no such case"))
    unknown_tool = json.loads(tools.call("delete_everything", "x"))
    not_chinese = json.loads(tools.call("search_statutes", "interest"))

    assert unknown_case == {"ok": False, "error": "no library case has the id, title or case number 'no such case'"}
    assert unknown_tool["ok"] is False and "available: search_statutes" in unknown_tool["error"]
    assert not_chinese["ok"] is False and "Chinese" in not_chinese["error"]


def test_search_cases_searches_the_demo_library_through_the_agents_toolbox():
    tools = ResearchTools.demo()

    found = json.loads(tools.call("search_cases", "饮酒后驾驶小型轿车追尾"))

    assert found["ok"] is True
    assert found["result"]["cases"][0]["id"] == "zh-criminal-dangerous-driving"
