"""Precedent search (``agents/tools/precedents.py``) as agents call it: the ``search_cases``
tool over the case library."""

from __future__ import annotations

import json

import pytest

from agents.tools.precedent_words import tokens
from agents.tools.precedents import PrecedentIndex
from agents.tools.toolbox import ToolBox
from court.engine.machine import trial_start
from court.engine.visibility import EVALUATION_ONLY, build_view
from court.procedures.names import sentence_words
from tests.conftest import DEMO_CASES, ROOT, demo_case_seeds
from trials.caselibrary.precedent_library import precedent_search
from trials.models import Case
from trials.services import cases_import

SEEDS = ROOT / "benchmarks" / "data" / "retrieval"
FAMILIES = json.loads((ROOT / "benchmarks" / "data" / "precedents" / "families.json").read_text(encoding="utf-8"))[
    "families"
]
"""Similar = the same family of cause of action or charge (the 案由规定's cause, the Criminal
Law's chapter), a label written apart from the search."""


def facts(seed: dict) -> str:
    return seed.get("indictment") or seed["first_instance"]["facts_and_reasons"]


def toolbox(seed: dict) -> ToolBox:
    """The toolbox of the lawyer of a trial of ``seed`` (the attorney of a criminal one)."""
    if seed["procedure"] == "criminal":
        view = build_view(trial_start(case=seed, target_side="defendant"), "attorney")
    else:
        view = build_view(trial_start(case=seed, target_side="plaintiff"), "plaintiff_lawyer", phase="intake")
    return ToolBox(view, precedent_search)


def search(box: ToolBox, **arguments) -> dict:
    return json.loads(box.call("search_cases", json.dumps(arguments)))


@pytest.fixture
def library(db) -> dict[str, dict]:
    """The demo library and the retrieval seeds (case files in the import format)."""
    report = cases_import(paths=[DEMO_CASES, SEEDS])
    assert not report.problems, report.problems
    return {case.pk: case.seed for case in Case.objects.all()}


@pytest.mark.parametrize("seed", demo_case_seeds(), ids=lambda seed: seed["id"])
@pytest.mark.parametrize("cause", ["", None], ids=["facts-only", "with-the-case-cause"])
def test_each_demo_case_finds_a_case_of_its_family_by_its_facts_in_the_top_three(library, seed, cause):
    family = FAMILIES[seed["cause_of_action"]]
    others = [other for other in library.values() if other["id"] != seed["id"]]
    assert any(FAMILIES[other["cause_of_action"]] == family for other in others), "the library holds a similar case"
    arguments = {"query": facts(seed)} | ({} if cause is None else {"cause_of_action": cause})
    answer = search(toolbox(seed), **arguments)
    assert answer["ok"], answer
    found = answer["result"]["cases"]
    assert len(found) == 3 and seed["id"] not in {hit["id"] for hit in found}
    assert any(FAMILIES[hit["cause_of_action"]] == family for hit in found), [hit["id"] for hit in found]


def test_a_hit_gives_the_precedents_cause_key_facts_and_outcome(library):
    seed = library["zh-civil-private-lending"]
    hit = search(toolbox(seed), query=facts(seed))["result"]["cases"][0]
    assert hit["id"] == "zh-bench-guaranteed-loan" and hit["cause_of_action"] == "民间借贷纠纷"
    assert (
        hit["key_facts"]
        and hit["key_facts"] in library["zh-bench-guaranteed-loan"]["first_instance"]["facts_and_reasons"]
    )
    assert {"holding", "outcome", "shared_terms", "title", "procedure"} <= hit.keys()
    criminal = library["zh-criminal-dangerous-driving"]
    fraud = library["en-criminal-telecom-fraud"]
    query = "rented bank cards to a telecom fraud ring and withdrew the victims' money"
    hit = search(toolbox(criminal), query=query, cause_of_action="")["result"]["cases"][0]
    assert hit["id"] == fraud["id"] and hit["charges"] == ["Fraud"]
    assert hit["outcome"] == sentence_words(fraud["sentence"], "en"), "another case's sentence is what it is for"


def evaluation_only_texts(seed: dict) -> list[str]:
    """Every evaluation-only value of ``seed`` (`EVALUATION_ONLY` in court/engine/visibility.py), as text."""
    texts = []
    for block, name in EVALUATION_ONLY[seed["procedure"]]:
        holder = seed if block is None else seed.get(block) or {}
        items = holder if isinstance(holder, list) else [holder]
        for item in items:
            value = item.get(name) if isinstance(item, dict) else None
            if value:
                texts.append(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
    return texts


@pytest.mark.parametrize("case_id", ["zh-civil-private-lending", "zh-criminal-dangerous-driving"])
def test_the_case_being_tried_never_comes_back_not_even_as_a_copy(library, case_id):
    seed = library[case_id]
    copy = json.loads(json.dumps(seed)) | {"id": f"{case_id}-reimported"}
    Case.objects.create(
        id=copy["id"], procedure=copy["procedure"], title=copy["title"], language="zh", cause_of_action="x", seed=copy
    )
    box = toolbox(seed)
    for query in (facts(seed), seed["title"], seed["cause_of_action"], json.dumps(seed, ensure_ascii=False)):
        answer = search(box, query=query, top_k=5)
        assert answer["ok"], answer
        returned = json.dumps(answer, ensure_ascii=False)
        assert {hit["id"] for hit in answer["result"]["cases"]}.isdisjoint({case_id, copy["id"]})
        secrets = [text for text in evaluation_only_texts(seed) if len(text) > 12]
        assert secrets and not [text for text in secrets if text[:40] in returned]


@pytest.mark.parametrize("query", ["", "   ", "\x00\x00", "。，！？…", "\u200b\u202e\ufeff"])
def test_an_empty_query_is_a_clear_tool_failure(library, query):
    answer = search(toolbox(library["zh-civil-private-lending"]), query=query)
    assert answer["ok"] is False and answer["error"].startswith("bad arguments: the query")


def test_a_ten_thousand_character_query_is_cut_and_answered(library):
    seed = library["zh-civil-labour-dispute"]
    answer = search(toolbox(seed), query=(facts(seed) * 60)[:10_000])
    assert answer["ok"] and answer["result"]["cases"]
    assert "cut to its first 2000 characters" in answer["result"]["message"]


def test_an_english_query_for_a_chinese_case_reaches_chinese_precedents(library):
    answer = search(
        toolbox(library["zh-civil-private-lending"]),
        query="The defendant borrowed RMB 200,000 under an IOU and has not repaid the loan or interest.",
        cause_of_action="",
    )
    assert answer["ok"]
    assert "zh-bench-guaranteed-loan" in [hit["id"] for hit in answer["result"]["cases"]]


@pytest.mark.parametrize(
    "query",
    ["xyzzy plugh frobnicate", "zzz\x00qqq 🦄🦄 \ud800 ＡＢＣ", "'; DROP TABLE trials_case; --", "<script>x</script>"],
)
def test_a_query_nothing_matches_returns_no_case_and_says_why(library, query):
    answer = search(toolbox(library["zh-civil-private-lending"]), query=query)
    assert answer["ok"], answer
    assert answer["result"]["cases"] == [] and "shares a word with the query" in answer["result"]["message"]
    assert Case.objects.count() == len(library)


def test_odd_arguments_are_explained_not_raised(library):
    box = toolbox(library["zh-civil-private-lending"])
    assert search(box, query="借款", top_k="many")["error"].startswith("bad arguments")
    assert len(search(box, query="支付", top_k=99)["result"]["cases"]) == 5
    assert search(box)["error"].startswith("bad arguments")
    assert json.loads(ToolBox(box.view).call("search_cases", '{"query": "借款"}'))["error"] == (
        "bad arguments: the case library is not available in this run"
    )


def test_english_words_are_stemmed_and_filed_under_their_chinese_terms():
    assert tokens("The tenant rented the premises") == [
        "tenant",
        "承租人",
        "租赁",
        "rent",
        "租金",
        "租赁",
        "premis",
        "房屋",
    ]
    assert "诈骗" in tokens("诈骗罪") and tokens("2023年9月1日 支付200000元") == ["支付"]


def test_an_index_of_no_cases_answers_with_a_message():
    result = PrecedentIndex.build([]).search("借款", exclude="anything").as_dict()
    assert result["cases"] == [] and result["searched"] == 0 and "0 searched" in result["message"]


def test_the_tool_description_says_what_a_hit_returns():
    from agents.tools.toolbox import TOOL_SPECS

    description = TOOL_SPECS["search_cases"][0]
    assert all(word in description for word in ("BM25", "key facts", "outcome", "never"))
