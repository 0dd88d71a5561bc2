from __future__ import annotations

import gzip
import json
import time

import pytest

from agents.tools import statute_index, statutes
from agents.tools.statute_index import EXPANSION_PATH, QUESTION_CHARS, expansion_words, ranked_articles

FALLING_OBJECTS_1254 = "《中华人民共和国民法典》第一千二百五十四条"
NAME_RIGHT_1014 = "《中华人民共和国民法典》第一千零一十四条"
FLOWERPOT = "楼上阳台的花盆被风吹下来砸伤了人，谁赔？"
NAME_MISUSED = "别人冒用我的名字去办事，算不算侵权？"


@pytest.fixture
def unexpanded(monkeypatch):
    """The search as it was before the expansion: articles found by their own words only."""
    monkeypatch.setattr(statute_index, "EXPANDED", False)
    statutes._search.cache_clear()
    yield
    statutes._search.cache_clear()


def _top5(query: str) -> list[str]:
    return [hit.citation for hit in statutes.statute_search(query)]


def test_a_laypersons_question_finds_the_rule_lawyers_matched_to_questions_like_it():
    assert FALLING_OBJECTS_1254 in _top5(FLOWERPOT)
    assert NAME_RIGHT_1014 in _top5(NAME_MISUSED)


def test_without_the_training_questions_words_those_questions_miss_the_rule(unexpanded):
    assert FALLING_OBJECTS_1254 not in _top5(FLOWERPOT)
    assert NAME_RIGHT_1014 not in _top5(NAME_MISUSED)


def test_a_statement_of_facts_is_ranked_by_the_articles_own_words_only(monkeypatch):
    facts = (
        "原告与被告系邻居关系。" * (QUESTION_CHARS // 10) + "被告家阳台上的花盆被大风吹落，砸伤原告头部，原告住院治疗。"
    )
    ranked = [article["id"] for article in ranked_articles(facts, scope=None, bonus=lambda article: 0.0)]
    monkeypatch.setattr(statute_index, "EXPANDED", False)
    assert [article["id"] for article in ranked_articles(facts, scope=None, bonus=lambda article: 0.0)] == ranked


def test_the_shipped_expansion_is_learned_from_stards_train_split_and_loads_in_a_blink():
    with gzip.open(EXPANSION_PATH, "rt", encoding="utf-8") as file:
        built = json.load(file)
    assert built["split"] == "train" and "oneal2000/STARD" in built["source"]
    started = time.perf_counter()
    words = expansion_words(EXPANSION_PATH, statute_index._article_rows())
    assert time.perf_counter() - started < 1.0
    assert len(words) > 900


def test_a_benchmark_reads_the_ranking_past_the_tools_fifty_articles():
    ranking = statutes.statute_ranking(FLOWERPOT, depth=100)
    assert len(ranking) > statutes.MAX_TOP_K
    assert [hit.citation for hit in ranking[:5]] == _top5(FLOWERPOT)
