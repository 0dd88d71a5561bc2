"""MASER's complaint fields (scoring/complaint.py): a reference complaint scores the top
of every field against itself and an empty one 0; each field drops when, and only when, what
it measures is taken out of the complaint."""

from __future__ import annotations

import copy
import json

import pytest

from legalsim.llm import LLMClient
from scoring.complaint import FIELDS, complaint_score, reference_complaint, reference_text
from scoring.complaint_text import complaint_read, particulars
from scoring.scorers import LLMScorer, RuleBasedScorer
from tests.conftest import DEMO_CASES, demo_case_seeds
from tests.llm_server import LoopbackLLM

LENDING = json.loads((DEMO_CASES / "zh-civil-private-lending.json").read_text(encoding="utf-8"))
TRAFFIC = json.loads((DEMO_CASES / "en-civil-traffic-accident.json").read_text(encoding="utf-8"))
CIVIL = [seed for seed in demo_case_seeds() if seed["procedure"] == "civil"]


def scored(text: str, case: dict = LENDING) -> dict:
    return complaint_score(text, reference_complaint(case), RuleBasedScorer())


def flat(score: dict) -> dict[str, float]:
    return score["fields"] | {key: score[key] for key in ("standardability", "professionalism")}


def without_line(text: str, start: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(start))


@pytest.mark.parametrize("case", CIVIL, ids=[seed["id"] for seed in CIVIL])
def test_the_reference_complaint_scores_the_top_of_every_field_against_itself(case):
    values = flat(scored(reference_text(case), case))
    assert set(values) == {*FIELDS, "standardability", "professionalism"}
    assert all(value >= 0.95 for value in values.values()), values


@pytest.mark.parametrize("case", [LENDING, TRAFFIC], ids=["zh", "en"])
def test_an_empty_complaint_scores_zero_on_every_field(case):
    assert set(flat(scored("", case)).values()) == {0.0}
    assert set(flat(scored("  \n ", case)).values()) == {0.0}


def test_a_criminal_case_or_one_without_claims_has_no_reference_complaint():
    criminal = next(seed for seed in demo_case_seeds() if seed["procedure"] == "criminal")
    bare = copy.deepcopy(LENDING)
    bare["first_instance"]["claims"] = []
    assert reference_complaint(criminal) is None and reference_complaint(bare) is None
    assert reference_text(bare) == ""


def test_the_plaintiffs_particulars_count_each_one_stated_identically():
    reference = reference_text(LENDING)
    full = scored(reference)["fields"]
    wrong_year = scored(reference.replace("男，1979年出生", "男，1980年出生"))["fields"]
    name_only = scored(reference.replace("原告：陈某某，男，1979年出生，个体经营者，住江苏省南京市", "原告：陈某某"))
    assert full["plaintiff_info"] == 1.0
    assert wrong_year["plaintiff_info"] == 0.75, "name, gender and address still match; the birth date does not"
    assert name_only["fields"]["plaintiff_info"] == 0.25
    assert wrong_year["defendant_info"] == name_only["fields"]["defendant_info"] == 1.0


def test_the_defendants_particulars_need_the_defendant_named():
    other = scored(reference_text(LENDING).replace("周某某", "吴某某"))["fields"]
    assert other["defendant_info"] == 0.0 and other["plaintiff_info"] == 1.0


def test_particulars_are_read_in_both_languages_and_compare_normalised():
    assert particulars("陈某某", "男，1979年3月5日出生，汉族，住江苏省南京市", "zh") == {
        "name": "陈某某",
        "gender": "male",
        "birth_date": "1979-03-05",
        "ethnicity": "汉族",
        "address": "江苏省南京市",
    }
    assert particulars("Liu Fang", "female, born on 5 March 1962, Han ethnicity, resident in Beijing", "en") == {
        "name": "liu fang",
        "gender": "female",
        "birth_date": "1962-03-05",
        "ethnicity": "han",
        "address": "beijing",
    }


def test_facts_drop_when_the_facts_are_left_out():
    reference = reference_text(LENDING)
    facts = LENDING["first_instance"]["facts_and_reasons"]
    reasons_only = reference.replace(
        facts, "原告认为，双方借贷关系合法有效，被告逾期不还，应当返还本金并支付逾期利息。"
    )
    score = scored(reasons_only)["fields"]
    assert score["facts"] < 0.3 and score["reasons"] >= 0.95


def test_reasons_drop_when_the_legal_reasons_are_left_out():
    reference = reference_text(LENDING)
    score = scored(reference.replace("原告认为，双方借贷关系合法有效，被告逾期不还，应当返还本金并支付逾期利息。", ""))
    assert score["fields"]["reasons"] < 0.5 and score["fields"]["facts"] >= 0.95


def test_claims_drop_when_the_claims_are_left_out():
    reference = reference_text(LENDING)
    claims = [claim for claim in LENDING["first_instance"]["claims"]]
    text = "\n".join(line for line in reference.splitlines() if not any(claim in line for claim in claims))
    score = scored(text)["fields"]
    assert score["claims"] < 0.5 and score["facts"] >= 0.95


def test_evidence_drops_when_the_evidence_is_left_out():
    text = without_line(reference_text(LENDING), ("1. 借条", "2. 招商银行", "3. 微信"))
    assert scored(text)["fields"]["evidence"] < 0.5


def test_standardability_counts_the_sections_present_in_the_templates_order():
    reference = reference_text(TRAFFIC)
    assert complaint_read(reference, "en").order == [
        "plaintiff",
        "defendant",
        "claims",
        "facts_and_reasons",
        "evidence",
        "court",
        "signature",
    ]
    no_signature = without_line(reference, "Complainant:")
    claims_last = reference.replace("Claims:", "Relief:") + "\nClaims:\nas above"
    assert scored(no_signature, TRAFFIC)["standardability"] == pytest.approx(6 / 7, abs=1e-3)
    assert scored(claims_last, TRAFFIC)["standardability"] == pytest.approx(6 / 7, abs=1e-3), "claims out of order"
    assert scored("Some words about a road accident in Beijing.", TRAFFIC)["standardability"] == 0.0


def test_a_sentence_of_the_facts_that_starts_like_a_heading_starts_no_section():
    read = complaint_read("事实与理由：\n被告于2023年借款。\n证据显示被告未还款。\n诉讼请求：\n判令被告还款", "zh")
    assert read.order == ["facts_and_reasons", "claims"]
    assert read.sections["facts_and_reasons"] == "被告于2023年借款。\n证据显示被告未还款。"


def test_professionalism_drops_for_colloquial_writing():
    reference = reference_text(LENDING)
    chatty = reference.replace("至今分文未还。", "至今分文未还，我觉得他就是想赖账吧。").replace(
        "应当返还本金", "反正得还钱啊，应当返还本金"
    )
    assert scored(reference)["professionalism"] == 1.0
    assert scored(chatty)["professionalism"] < 0.9
    assert scored("我觉得他欠我钱吧。")["professionalism"] == 0.0


def judge(request: dict) -> str:
    """An LLM judge that gives every criterion 7."""
    asked = json.loads(request["messages"][-1]["content"])
    return json.dumps({"scores": {item["id"]: {"score": 7, "reason": "fair"} for item in asked}})


def test_with_a_model_configured_the_judge_rates_the_long_fields_and_professionalism():
    with LoopbackLLM(judge) as server:
        scorer = LLMScorer(client=LLMClient(base_url=server.base_url, api_key="", backoff_s=0), model="judge-x")
        score = complaint_score(reference_text(LENDING), reference_complaint(LENDING), scorer)
        (request,) = server.requests
    asked = {item["id"] for item in json.loads(request["messages"][-1]["content"])}
    assert asked == {f"complaint.{field}" for field in ("facts", "reasons", "claims", "evidence", "professionalism")}
    assert request["model"] == "judge-x"
    fields = score["fields"]
    assert fields["facts"] == fields["claims"] == score["professionalism"] == 0.7
    assert fields["plaintiff_info"] == 1.0 and score["standardability"] == 1.0, "matching and the template stay exact"


def test_the_judge_is_not_asked_about_an_empty_complaint():
    with LoopbackLLM(judge) as server:
        scorer = LLMScorer(client=LLMClient(base_url=server.base_url, api_key="", backoff_s=0), model="judge-x")
        score = complaint_score("", reference_complaint(LENDING), scorer)
        assert server.requests == []
    assert set(flat(score).values()) == {0.0}


def test_a_case_whose_plaintiff_lists_no_evidence_has_no_evidence_to_miss():
    bare = copy.deepcopy(LENDING)
    bare["first_instance"]["evidence"] = [
        item for item in bare["first_instance"]["evidence"] if item["side"] != "plaintiff"
    ]
    assert scored(reference_text(bare), bare)["fields"]["evidence"] == 1.0
    assert scored("", bare)["fields"]["evidence"] == 0.0


def defendants_case(*defendants: tuple[str, str]) -> dict:
    case = copy.deepcopy(LENDING)
    plaintiff = next(party for party in case["parties"] if party["side"] == "plaintiff")
    parties = [
        {"side": "defendant", "name": name, "kind": "person", "details": details} for name, details in defendants
    ]
    case["parties"] = [plaintiff, *parties]
    return case


def test_a_birth_date_standing_alone_in_a_party_entry_is_the_birth_date():
    assert particulars("张三", "男，1970年3月17日，汉族，地址：西虹市", "zh")["birth_date"] == "1970-03-17"
    assert particulars("张三", "男，1969年XX月XX日，汉族", "zh")["birth_date"] == "1969"
    assert "birth_date" not in particulars("张三", "男，汉族，2020年5月1日借款", "zh")


def test_namesakes_and_representatives_each_get_their_own_entry():
    case = defendants_case(
        ("王某", "性别：男，出生日期：1970年1月1日，地址：甲区"),
        ("王某", "性别：女，出生日期：1980年2月2日，地址：乙区"),
        ("某某公司", "地址：丙区"),
    )
    complaint = "\n".join(
        [
            "民事起诉状",
            "被告一：某某公司分公司，地址：丁区，负责人：王某。",
            "被告二：王某，男，1970年1月1日，地址：甲区。",
            "被告三：王某，女，1980年2月2日，地址：乙区。",
            "被告四：某某公司，地址：丙区。",
        ]
    )
    assert scored(complaint, case)["fields"]["defendant_info"] == 1.0
    swapped = complaint.replace("甲区", "乙区", 1)
    assert scored(swapped, case)["fields"]["defendant_info"] < 1.0
