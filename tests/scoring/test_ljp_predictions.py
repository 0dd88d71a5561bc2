"""``ljp_metrics --pred``: a published system's predictions scored against the library's
criminal cases, under the project's hit rule and SimCourt's, with figures computed by hand."""

from __future__ import annotations

import json
from math import sqrt

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.conftest import DEMO_CASES
from trials.services import cases_import

pytestmark = pytest.mark.django_db

LAW = "《中华人民共和国刑法》"


def criminal_case(case_id: str, charge: str, sentence: dict, references: list[str]) -> dict:
    return {
        "id": case_id,
        "procedure": "criminal",
        "title": f"某某检察院诉某甲{charge}案",
        "language": "zh",
        "cause_of_action": charge,
        "parties": [
            {"side": "prosecution", "name": "某某区人民检察院", "kind": "organization", "details": "公诉机关"},
            {"side": "defendant", "name": "某甲", "kind": "person", "details": "男"},
        ],
        "indictment": "……",
        "charges": [charge],
        "sentence": sentence,
        "legal_references": references,
    }


TEST_CASES = [
    criminal_case(
        "t-life",
        "故意杀人罪",
        {"penalty": "life_imprisonment", "imprisonment_months": None, "probation": False, "fine": 0}
        | {"statutory_range_months": [120, 1000]},
        [f"{LAW}第二百三十二条"],
    ),
    criminal_case("t-acquitted", "诈骗罪", {"penalty": "acquitted", "probation": False, "fine": 0}, []),
    criminal_case("t-hunting", "非法狩猎罪", {"imprisonment_months": 8, "probation": 12, "fine": 2000}, []),
    criminal_case(
        "t-theft", "盗窃罪", {"imprisonment_months": 10.0, "probation": False, "fine": 3000}, [f"{LAW}第二百六十四条"]
    ),
]

PREDICTIONS = [
    # demo: 拘役二个月, 缓刑三个月, 罚金四千元, range [1, 6]; references 刑法 133, 67, 72 and 刑事诉讼法 15
    {
        "case_id": "zh-criminal-dangerous-driving",
        "judgment": f"本院认为……依照{LAW}第一百三十三条之一第一款、{LAW}第七十二条之规定，判决如下：被告人刘某某犯危险驾驶罪，"
        "判处拘役三个月，缓刑六个月，并处罚金人民币五千元。",
    },
    # demo: 32 months, no probation, fine 15,000, range [36, 120]
    {"case_id": "en-criminal-telecom-fraud", "imprisonment_months": 40, "probation_months": 24, "fine": 20000},
    {
        "case_id": "t-life",
        "judgment": f"依照{LAW}第二百三十二条、{LAW}第四十八条之规定，判决如下：被告人某甲犯故意杀人罪，"
        "判处死刑，缓期二年执行，剥夺政治权利终身。",
    },
    {"case_id": "t-acquitted", "imprisonment_months": 6, "fine": 1000, "model": "ignored"},
    {"case_id": "t-hunting", "imprisonment_months": 40, "probation_months": 12, "fine": None},
    {"case_id": "t-theft", "judgment": "本院认为，被告人应当从轻处罚。"},
]


@pytest.fixture
def library(write_json):
    cases_import(
        paths=[DEMO_CASES / "zh-criminal-dangerous-driving.json", DEMO_CASES / "en-criminal-telecom-fraud.json"]
    )
    report = cases_import(paths=[write_json("test-cases.json", TEST_CASES)])
    assert not report.problems


def run(tmp_path, lines: list, *extra: str) -> dict:
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("".join(f"{json.dumps(line, ensure_ascii=False)}\n" for line in lines), encoding="utf-8")
    out = tmp_path / "ljp.json"
    call_command("ljp_metrics", "--pred", str(predictions), "--out", str(out), *extra)
    return json.loads(out.read_text(encoding="utf-8"))


def mean_sd(values: list[float]) -> tuple[float, float]:
    mean = sum(values) / len(values)
    return mean, sqrt(sum((value - mean) ** 2 for value in values) / len(values))


def assert_figures(report: dict, figures: dict) -> None:
    for key, value in figures.items():
        assert report[key] == pytest.approx(value), key


def test_the_project_rule_reproduces_the_hand_computed_figures(library, tmp_path):
    report = run(tmp_path, PREDICTIONS)
    # hits: [1, 6] holds 3; [36, 120] holds 40; two non-numeric sentences; 6 and 0 in 诈骗罪's [0, 36];
    # 40 and 8 in no common generic tier; nothing read against 10 → 4 of 6
    imprisonment = mean_sd([abs(3 - 2) / 2, abs(40 - 32) / 32, abs(40 - 8) / 8])  # life, T = 0, nothing read: out
    probation = mean_sd([abs(6 - 3) / 3, abs(12 - 12) / 12])  # only the true probations (3 and 12 months)
    fine = mean_sd([abs(5000 - 4000) / 4000, abs(20000 - 15000) / 15000])  # T = 0 and no predicted fine: out
    assert_figures(
        report,
        {
            "n": 6,
            "imprisonment_hit_rate": 4 / 6,
            "imprisonment_rel_error": imprisonment[0],
            "imprisonment_rel_error_sd": imprisonment[1],
            # probation: right, wrong (24 months against none), right ×4
            "probation_accuracy": 5 / 6,
            "probation_rel_error": probation[0],
            "probation_rel_error_sd": probation[1],
            # fine: right, right, right (none/none), wrong (1000 against none), wrong ×2 (none against a fine)
            "fine_accuracy": 3 / 6,
            "fine_rel_error": fine[0],
            "fine_rel_error_sd": fine[1],
            # articles of the three judgments: 刑法133, 刑法72 | 刑法232, 刑法48 | none; references 4 + 1 + 1
            "articles_precision": 3 / 4,
            "articles_recall": 3 / 6,
            "articles_f1": 2 * 3 / (4 + 6),
        },
    )
    assert report["hit_rule"] == "project" and report["no_range"] == []


def test_simcourts_rule_reproduces_the_hand_computed_figures(library, tmp_path):
    report = run(tmp_path, PREDICTIONS, "--hit-rule", "simcourt")
    # hits: 3 in [1, 6]; 40 in [36, 120]; 死缓 as 1000 in [120, 1000]; the acquittal case never hits;
    # 非法狩猎罪 has no range (left out); nothing read against 10 months misses → 3 of 5
    imprisonment = mean_sd([0.5, 0.25, abs(40 - 8) / 8, abs(0 - 10) / 10])  # nothing read counts as 0 months
    fine = mean_sd([0.25, 5000 / 15000, abs(0 - 2000) / 2000, abs(0 - 3000) / 3000])
    assert_figures(
        report,
        {
            "n": 6,
            "imprisonment_hit_rate": 3 / 5,
            "imprisonment_rel_error": imprisonment[0],
            "imprisonment_rel_error_sd": imprisonment[1],
            "probation_accuracy": 5 / 6,
            "probation_rel_error": 0.5,
            "probation_rel_error_sd": 0.5,
            "fine_accuracy": 0.5,
            "fine_rel_error": fine[0],
            "fine_rel_error_sd": fine[1],
        },
    )
    assert report["no_range"] == ["t-hunting"]
    rows = {row["case_id"]: row for row in report["cases"]}
    assert (rows["t-hunting"]["hit"], rows["t-hunting"]["range_source"]) == (None, "no range")
    assert rows["t-theft"]["statutory_range_months"] == [0, 36] and rows["t-theft"]["range_source"] == "charges"


def test_each_case_row_says_what_was_read(library, tmp_path):
    rows = {row["case_id"]: row for row in run(tmp_path, PREDICTIONS)["cases"]}
    driving = rows["zh-criminal-dangerous-driving"]
    assert driving["read_from"] == "judgment" and driving["line"] == 1
    assert driving["read"] == {
        "imprisonment_months": 3,
        "probation": True,
        "probation_months": 6,
        "fine": 5000.0,
        "penalty": "criminal_detention",
        "fine_administrative": False,
    }
    assert driving["truth"]["penalty"] == "criminal_detention" and driving["articles"] == {
        "matched": 2,
        "predicted": 2,
        "reference": 4,
    }
    assert rows["t-life"]["read"]["penalty"] == "death_suspended"
    assert rows["en-criminal-telecom-fraud"]["read_from"] == "fields"
    assert rows["t-theft"]["read"]["penalty"] is None and rows["t-theft"]["truth"]["imprisonment_months"] == 10


def test_unknown_cases_and_unreadable_lines_are_all_reported_and_nothing_is_written(library, tmp_path):
    predictions = tmp_path / "bad.jsonl"
    predictions.write_text(
        "\n".join(
            [
                json.dumps({"case_id": "zh-criminal-dangerous-driving", "imprisonment_months": 2}),
                json.dumps({"case_id": "no-such-case", "imprisonment_months": 2}),
                "{not json",
                json.dumps({"case_id": "t-theft", "imprisonment_months": "ten"}),
                json.dumps({"case_id": "t-life"}),
                json.dumps({"case_id": "t-hunting", "judgment": "判处有期徒刑一年", "fine": 0}),
                json.dumps({"case_id": "zh-criminal-dangerous-driving", "penalty": "prison"}),
                json.dumps(["t-theft"]),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    out = tmp_path / "ljp.json"
    with pytest.raises(CommandError) as raised:
        call_command("ljp_metrics", "--pred", str(predictions), "--out", str(out))
    message = str(raised.value)
    for expected in (
        f"{predictions}:2: case_id: no case 'no-such-case' in the library",
        f"{predictions}:3: json: invalid JSON",
        f"{predictions}:4: imprisonment_months: must be a number >= 0 or null, got 'ten'",
        f"{predictions}:5: record: needs judgment or the sentence fields",
        f"{predictions}:6: judgment: give the judgment or the sentence (fine), not both",
        f"{predictions}:7: penalty: must be one of fixed_term, criminal_detention",
        f"{predictions}:8: record: must be a JSON object",
    ):
        assert expected in message
    assert f"{predictions}:1:" not in message
    assert not out.exists()


def test_a_case_predicted_twice_or_a_civil_case_is_refused(library, tmp_path, civil_seed, write_json):
    cases_import(paths=[write_json("civil.json", civil_seed)])
    lines = [
        {"case_id": "t-theft", "imprisonment_months": 10},
        {"case_id": "t-theft", "imprisonment_months": 12},
        {"case_id": "test-civil-loan", "imprisonment_months": 1},
    ]
    with pytest.raises(CommandError) as raised:
        run(tmp_path, lines)
    assert ":2: case_id: duplicate 't-theft' (first on line 1)" in str(raised.value)
    assert ":3: case_id: case 'test-civil-loan' is civil; only criminal cases have a sentence to predict" in str(
        raised.value
    )
