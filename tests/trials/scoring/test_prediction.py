"""SimCourt criminal judgment prediction and AgentsCourt legal-article matching, against
hand-computed examples and the criminal demo cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trials.documents import document_compose
from trials.scoring.prediction import (
    GENERIC_RANGES,
    Sentence,
    article_prf,
    case_statutory_range,
    imprisonment_hit,
    ljp_metrics,
    sentence_extract,
    sentence_from_case,
    statutory_brackets,
)

DEMO_CASES = Path(__file__).resolve().parents[3] / "demo" / "cases"


def demo_case(name: str) -> dict:
    return json.loads((DEMO_CASES / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("orders", "sentence"),
    [
        # 一年六个月 = 12 + 6 = 18; 缓刑二年 = 24
        ("判处有期徒刑一年六个月，缓刑二年，并处罚金人民币四千元。", Sentence(18, True, 24, 4000.0)),
        # 二个月 = 2; 缓刑三个月 = 3
        ("判处拘役二个月，缓刑三个月，并处罚金4000元。", Sentence(2, True, 3, 4000.0)),
        # 二年零八个月 = 32; 一万五千 = 15000
        ("判处有期徒刑二年零八个月，并处罚金人民币一万五千元。", Sentence(32, False, 0, 15000.0)),
        ("判处有期徒刑十个月，并处罚金1.5万元。", Sentence(10, False, 0, 15000.0)),
        ("免予刑事处罚。", Sentence(0, False, 0, 0.0)),
        ("判处无期徒刑，剥夺政治权利终身。", Sentence(None, False, 0, 0.0)),
        (
            "犯盗窃罪，判处有期徒刑一年；犯诈骗罪，判处有期徒刑二年；决定执行有期徒刑二年六个月。",
            Sentence(30, False, 0, 0.0),
        ),
        ("本院认为，事实清楚。", Sentence(None, None, None, None)),
    ],
)
def test_chinese_orders_are_read_with_chinese_numerals(orders: str, sentence: Sentence):
    assert sentence_extract(orders, "zh") == sentence


@pytest.mark.parametrize(
    ("orders", "sentence"),
    [
        (
            "The defendant is sentenced to fixed-term imprisonment of two years and eight months and a fine of RMB 15,000.",
            Sentence(32, False, 0, 15000.0),
        ),
        (
            "Criminal detention of 2 months, suspended for 3 months, and a fine of RMB 4,000.",
            Sentence(2, True, 3, 4000.0),
        ),
        ("Three years' fixed-term imprisonment with probation.", Sentence(36, True, None, 0.0)),
        ("The defendant is sentenced to life imprisonment.", Sentence(None, False, 0, 0.0)),
    ],
)
def test_english_orders_are_read(orders: str, sentence: Sentence):
    assert sentence_extract(orders, "en") == sentence


def test_the_sentence_is_read_from_the_orders_not_from_the_recommendation():
    judgment = document_compose(
        "criminal_judgment",
        "zh",
        {
            "reasoning": "公诉机关建议判处拘役三个月，并处罚金五千元。",
            "orders": "被告人刘某某犯危险驾驶罪，判处拘役二个月，缓刑三个月，并处罚金人民币四千元。",
        },
    )
    assert sentence_extract(judgment, "zh") == Sentence(2, True, 3, 4000.0)


def test_the_demo_cases_real_sentence_is_normalised():
    # zh: probation given as 3 (months); en: probation given as false
    assert sentence_from_case(demo_case("zh-criminal-dangerous-driving")) == Sentence(2, True, 3, 4000.0)
    assert sentence_from_case(demo_case("en-criminal-telecom-fraud")) == Sentence(32, False, 0, 15000.0)
    assert sentence_from_case({"sentence": {"imprisonment_months": "life", "probation": True}}) == Sentence(
        None, True, None, None
    )
    assert case_statutory_range({"sentence": {"statutory_range_months": [36, 120]}}) == (36, 120)
    assert case_statutory_range(demo_case("en-criminal-telecom-fraud")) is None


def test_charges_resolve_in_either_language_and_unknown_ones_fall_back():
    fraud = ((0, 36), (36, 120), (120, 180))
    assert statutory_brackets(["诈骗罪"]) == statutory_brackets(["Fraud"]) == statutory_brackets(["诈骗"]) == fraud
    assert statutory_brackets(["危险驾驶罪"]) == ((1, 6),)
    assert statutory_brackets(["非法狩猎罪"]) == GENERIC_RANGES


@pytest.mark.parametrize(
    ("predicted", "actual", "charges", "case_range", "hit"),
    [
        (30, 32, ["Fraud"], None, True),  # both in 三年以下 [0, 36]
        (40, 32, ["诈骗罪"], None, False),  # 40 in [36, 120], 32 in [0, 36]
        (36, 40, ["诈骗罪"], None, True),  # 三年以上 includes 36: both in [36, 120]
        (7, 2, ["危险驾驶罪"], None, False),  # 拘役 tops out at 6 months
        (6, 2, ["危险驾驶罪"], None, True),
        (30, 26, ["Fraud"], (24, 27), False),  # the case's own range wins over art. 266 ([0, 36])
        (None, None, ["故意伤害罪"], None, True),  # both non-numeric (life, death)
        (180, None, ["故意伤害罪"], None, False),
    ],
)
def test_imprisonment_hit_needs_the_same_statutory_range(predicted, actual, charges, case_range, hit):
    assert imprisonment_hit(predicted, actual, charges, case_range) is hit


def test_ljp_metrics_follow_simcourt():
    records = [
        # fraud: hit; imprisonment error |30-32|/32 = 0.0625; fine error |10000-15000|/15000 = 1/3
        (Sentence(30, False, 0, 10000.0), Sentence(32, False, 0, 15000.0), ["Fraud"], None),
        # dangerous driving: hit; imprisonment |3-2|/2 = 0.5; probation months |6-3|/3 = 1.0;
        # fine: predicted none, actual 4000 → accuracy wrong, error |0-4000|/4000 = 1.0
        (Sentence(3, True, 6, 0.0), Sentence(2, True, 3, 4000.0), ["危险驾驶罪"], None),
        # exempt (T = 0): hit (12 and 0 both in [0, 36]), every error excluded (T = 0);
        # probation wrong; fine both not applicable → correct
        (Sentence(12, True, 12, 0.0), Sentence(0, False, 0, 0.0), ["盗窃罪"], None),
        # life imprisonment (T = None): miss, excluded from the imprisonment error; fine unknown → excluded
        (Sentence(180, False, 0, 0.0), Sentence(None, False, 0, None), ["故意伤害罪"], None),
    ]
    assert ljp_metrics(records) == {
        "n_cases": 4,
        # hit rate 3/4; errors [0.0625, 0.5]: mean 0.28125, population sd |0.5 - 0.0625| / 2 = 0.21875
        "imprisonment": {
            "hit_rate": 0.75,
            "relative_error_mean": pytest.approx(0.28125),
            "relative_error_sd": pytest.approx(0.21875),
            "n_error": 2,
        },
        # accuracy: right, right, wrong, right (both not applicable) → 3/4; errors [1.0]
        "probation": {"accuracy": 0.75, "relative_error_mean": 1.0, "relative_error_sd": 0.0, "n_error": 1},
        # accuracy: right, wrong, right (both not applicable), excluded → 2/3;
        # errors [1/3, 1]: mean 2/3, sd (1 - 1/3) / 2 = 1/3
        "fine": {
            "accuracy": pytest.approx(2 / 3),
            "relative_error_mean": pytest.approx(2 / 3),
            "relative_error_sd": pytest.approx(1 / 3),
            "n_error": 2,
        },
    }


def test_ljp_metrics_on_nothing_are_none():
    empty = {"relative_error_mean": None, "relative_error_sd": None, "n_error": 0}
    assert ljp_metrics([]) == {
        "n_cases": 0,
        "imprisonment": {"hit_rate": None, **empty},
        "probation": {"accuracy": None, **empty},
        "fine": {"accuracy": None, **empty},
    }


def test_a_judgment_ordering_the_real_sentence_hits_on_the_demo_case():
    case = demo_case("zh-criminal-dangerous-driving")
    judgment = document_compose(
        "criminal_judgment", "zh", {"orders": "判处拘役二个月，缓刑三个月，并处罚金人民币五千元。"}
    )
    record = (sentence_extract(judgment, "zh"), sentence_from_case(case), case["charges"], case_statutory_range(case))
    metrics = ljp_metrics([record])
    # 2 months, probation 3 months: exact; fine |5000 - 4000| / 4000 = 0.25
    assert metrics["imprisonment"]["hit_rate"] == 1.0
    assert metrics["imprisonment"]["relative_error_mean"] == 0.0
    assert metrics["probation"] == {"accuracy": 1.0, "relative_error_mean": 0.0, "relative_error_sd": 0.0, "n_error": 1}
    assert metrics["fine"]["relative_error_mean"] == pytest.approx(0.25)


def test_article_prf_is_micro_averaged_strict_matching():
    predicted = [
        "依照《中华人民共和国民法典》第六百六十七条、《民法典》第675条、《中华人民共和国民法典》第五百七十七条，判决如下",
        "",
    ]
    references = [
        [
            "《中华人民共和国民法典》第六百六十七条",
            "《中华人民共和国民法典》第六百七十五条",
            "《中华人民共和国民法典》第六百七十六条",
        ],
        ["Civil Code of the People's Republic of China, Article 585"],
    ]
    # AgentsCourt E.1's numbers: TP = 2 (667, 675), FP = 1 (577), FN = 2 (676, 585)
    #   P = 2/3, R = 2/4, F1 = 2·(2/3)·(1/2) / (2/3 + 1/2) = 4/7 = 0.5714
    assert article_prf(predicted, references) == {
        "precision": pytest.approx(2 / 3),
        "recall": pytest.approx(0.5),
        "f1": pytest.approx(4 / 7),
        "matched": 2,
        "predicted": 3,
        "reference": 4,
    }


def test_article_prf_without_references_is_undefined_and_without_predictions_is_zero():
    assert article_prf([""], [[]]) == {
        "precision": None,
        "recall": None,
        "f1": None,
        "matched": 0,
        "predicted": 0,
        "reference": 0,
    }
    assert article_prf([""], [["《中华人民共和国刑法》第二百六十六条"]])["f1"] == 0.0
