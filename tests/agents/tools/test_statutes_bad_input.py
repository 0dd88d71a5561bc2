"""Bad input to the statute search (and so to the agents' and students' ``search_statutes``
tool) gets a clear answer or a clear error, never an unexpected exception."""

from __future__ import annotations

import json
import time

import pytest

from agents.tools.statutes import MAX_QUERY_CHARS, MAX_TOP_K, StatuteQueryError, statute_search
from agents.tools.toolbox import ToolBox
from court.engine.machine import trial_start
from court.engine.visibility import build_view
from tests.conftest import demo_case_seeds

LOAN = "借款到期未还，原告要求被告归还本金并支付利息"


@pytest.mark.parametrize("query", ["", "   \n\t  "])
def test_an_empty_query_is_refused_with_a_message_saying_what_to_give(query):
    with pytest.raises(StatuteQueryError, match="empty"):
        statute_search(query, cause_of_action="民间借贷纠纷")


def test_an_english_query_for_a_chinese_case_is_refused_with_a_message_asking_for_chinese():
    with pytest.raises(ValueError, match="Chinese"):
        statute_search("The borrower failed to repay the loan and interest", cause_of_action="民间借贷纠纷")


def test_a_query_that_is_not_text_is_refused_with_a_message():
    with pytest.raises(StatuteQueryError, match="text"):
        statute_search(12345)  # type: ignore[arg-type]


def test_a_ten_thousand_character_query_is_searched_on_its_beginning_and_answers_quickly():
    long_query = ("被告人张某盗窃他人财物，数额较大，后主动投案。" * 500)[:10_000]
    started = time.perf_counter()
    hits = statute_search(long_query, cause_of_action="盗窃罪")
    assert time.perf_counter() - started < 20
    assert hits and hits[0].citation == "《中华人民共和国刑法》第二百六十四条"
    assert [hit.citation for hit in hits] == [
        hit.citation for hit in statute_search(long_query[:MAX_QUERY_CHARS], cause_of_action="盗窃罪")
    ]


def test_a_cause_the_table_does_not_know_searches_the_whole_corpus():
    hits = statute_search(LOAN, cause_of_action="宇宙飞船租赁纠纷")
    assert hits and any(hit.law == "中华人民共和国民法典" for hit in hits)
    assert statute_search(LOAN, cause_of_action="Spaceship lease dispute") == statute_search(LOAN)


def test_top_k_is_kept_within_its_bounds_and_a_word_for_it_is_refused():
    assert len(statute_search(LOAN, top_k=0)) == 1
    assert len(statute_search(LOAN, top_k=10_000)) <= MAX_TOP_K
    with pytest.raises(StatuteQueryError, match="top_k"):
        statute_search(LOAN, top_k="five")  # type: ignore[arg-type]


def _statute_tool(arguments: dict) -> dict:
    lending = next(case for case in demo_case_seeds() if case["id"] == "zh-civil-private-lending")
    box = ToolBox(build_view(trial_start(case=lending, target_side="plaintiff"), "plaintiff_lawyer", phase="intake"))
    return json.loads(box.call("search_statutes", json.dumps(arguments)))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"query": ""}, "empty"),
        ({"query": "repay the loan with interest"}, "Chinese"),
    ],
)
def test_the_statute_tool_tells_the_agent_what_was_wrong_with_its_query(arguments, message):
    answer = _statute_tool(arguments)
    assert answer["ok"] is False and message in answer["error"]


def test_the_statute_tool_answers_a_long_query_and_an_unknown_cause():
    assert _statute_tool({"query": "借款" * 5_000})["ok"] is True
    answer = _statute_tool({"query": LOAN, "cause_of_action": "宇宙飞船租赁纠纷"})
    assert answer["ok"] is True and answer["result"]
