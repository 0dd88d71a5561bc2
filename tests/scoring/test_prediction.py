"""SimCourt criminal judgment prediction and AgentsCourt legal-article matching, against
hand-computed examples and the criminal demo cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from court.documents import document_compose
from court.legaltext.penalties import LIFE_OR_DEATH_MONTHS, charge_brackets
from court.legaltext.sentences import NOTHING_READ, sentence_extract
from scoring.prediction import (
    GENERIC_RANGES,
    Sentence,
    article_prf,
    case_score,
    case_statutory_range,
    imprisonment_hit,
    ljp_metrics,
    ljp_summary,
    sentence_from_case,
    simcourt_hit,
    simcourt_range,
    statutory_brackets,
)

DEMO_CASES = Path(__file__).resolve().parents[2] / "demo" / "cases"


def demo_case(name: str) -> dict:
    return json.loads((DEMO_CASES / f"{name}.json").read_text(encoding="utf-8"))


def test_the_demo_cases_real_sentence_is_normalised():
    # zh: 拘役, probation given as 3 (months); en: probation given as false; penalty defaults to fixed_term
    assert sentence_from_case(demo_case("zh-criminal-dangerous-driving")) == Sentence(
        2, True, 3, 4000, "criminal_detention"
    )
    assert sentence_from_case(demo_case("en-criminal-telecom-fraud")) == Sentence(32, False, 0, 15000, "fixed_term")
    assert sentence_from_case({"sentence": {"imprisonment_months": 7, "probation": False, "fine": 0}}).penalty == (
        "fixed_term"
    )
    assert case_statutory_range(demo_case("en-criminal-telecom-fraud")) == (36, 120)


@pytest.mark.parametrize(
    ("sentence", "months"),
    [
        ({"penalty": "life_imprisonment", "imprisonment_months": None, "probation": True}, None),
        ({"penalty": "death_suspended"}, None),
        ({"penalty": "death", "imprisonment_months": None}, None),
        ({"penalty": "exempt", "imprisonment_months": None}, 0),
        ({"penalty": "acquitted"}, 0),
        ({"penalty": "public_surveillance", "imprisonment_months": 6}, 6),
    ],
)
def test_a_penalty_without_a_term_is_non_numeric_or_zero(sentence: dict, months):
    assert sentence_from_case({"sentence": sentence}).imprisonment_months == months
    assert sentence_from_case({"sentence": sentence}).penalty == sentence["penalty"]


def test_charges_resolve_in_either_language_and_unknown_ones_fall_back_only_in_the_project_rule():
    fraud = ((0, 36), (36, 120), (120, LIFE_OR_DEATH_MONTHS))  # art. 266 tops out at life imprisonment
    assert statutory_brackets(["诈骗罪"]) == statutory_brackets(["Fraud"]) == statutory_brackets(["诈骗"]) == fraud
    assert statutory_brackets(["危险驾驶罪"]) == ((1, 6),)
    assert statutory_brackets(["非法狩猎罪"]) == GENERIC_RANGES
    assert charge_brackets(["非法狩猎罪"]) == ()


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


def term(months: float, penalty: str = "fixed_term") -> Sentence:
    return Sentence(months, False, 0, 0.0, penalty)


def kind(penalty: str) -> Sentence:
    return Sentence(None if penalty in ("life_imprisonment", "death_suspended", "death") else 0, False, 0, 0.0, penalty)


@pytest.mark.parametrize(
    ("predicted", "actual", "charges", "case_range", "hit"),
    [
        # SimCourt's formula (1): L <= P <= U with the case's own range
        (term(40), term(32), ["Fraud"], (36, 120), True),
        (term(32), term(32), ["Fraud"], (36, 120), False),  # a truth reduced below its range: the exact guess misses
        # no range in the case: the charge's bracket holding the truth (32 in 三年以下 [0, 36])
        (term(30), term(32), ["诈骗罪"], None, True),
        (term(40), term(32), ["诈骗罪"], None, False),
        # life or death count as 1,000 months
        (kind("life_imprisonment"), kind("life_imprisonment"), ["故意杀人罪"], (120, 1000), True),
        (kind("death_suspended"), kind("life_imprisonment"), ["故意杀人罪"], (120, 1000), True),
        (kind("death"), term(150), ["故意伤害罪"], None, True),  # 150 in [120, 1000] of art. 234
        (kind("life_imprisonment"), term(30), ["故意伤害罪"], None, False),
        # an acquittal case never hits
        (kind("acquitted"), kind("acquitted"), ["诈骗罪"], (0, 36), False),
        # a prediction without a number never hits
        (NOTHING_READ, term(10), ["盗窃罪"], None, False),
        # no range at all: reported, not guessed
        (term(8), term(8), ["非法狩猎罪"], None, None),
        (kind("life_imprisonment"), kind("life_imprisonment"), ["故意杀人罪"], None, None),
    ],
)
def test_simcourt_hit_is_the_prediction_inside_the_range(predicted, actual, charges, case_range, hit):
    assert simcourt_hit(predicted, actual, simcourt_range(actual, charges, case_range)) is hit


def test_the_two_rules_differ_on_relative_error_for_what_has_no_number():
    nothing = case_score(NOTHING_READ, Sentence(10, False, 0, 3000.0, "fixed_term"), ["盗窃罪"], None, "simcourt")
    # simcourt: nothing read counts as 0 months and no fine: |0 - 10| / 10 = 1, |0 - 3000| / 3000 = 1
    assert (nothing.hit, nothing.imprisonment_rel_error, nothing.fine_rel_error) == (False, 1.0, 1.0)
    assert (nothing.statutory_range_months, nothing.range_source) == ((0, 36), "charges")
    project = case_score(NOTHING_READ, Sentence(10, False, 0, 3000.0, "fixed_term"), ["盗窃罪"], None, "project")
    assert (project.hit, project.imprisonment_rel_error, project.fine_rel_error) == (False, None, None)
    # a life prediction against 100 months: |1000 - 100| / 100 = 9 under simcourt, left out under project
    life = kind("life_imprisonment")
    assert case_score(life, term(100), ["故意伤害罪"], None, "simcourt").imprisonment_rel_error == 9.0
    assert case_score(life, term(100), ["故意伤害罪"], None, "project").imprisonment_rel_error is None
    # a true life sentence is left out of the error under both
    assert case_score(term(100), life, ["故意伤害罪"], (120, 1000), "simcourt").imprisonment_rel_error is None
    assert case_score(term(8), term(8), ["非法狩猎罪"], None, "simcourt").range_source == "no range"


def test_ljp_summary_has_the_contract_keys_with_population_sds():
    scores = [
        case_score(term(3), Sentence(2, True, 3, 4000.0, "criminal_detention"), [], (1, 6), "simcourt"),
        case_score(term(40), term(32), [], (36, 120), "simcourt"),
    ]
    articles = {"precision": 0.5, "recall": 0.25, "f1": 1 / 3}
    summary = ljp_summary(scores, articles)
    assert list(summary) == [
        "n",
        "imprisonment_hit_rate",
        "imprisonment_rel_error",
        "imprisonment_rel_error_sd",
        "probation_accuracy",
        "probation_rel_error",
        "probation_rel_error_sd",
        "fine_accuracy",
        "fine_rel_error",
        "fine_rel_error_sd",
        "articles_precision",
        "articles_recall",
        "articles_f1",
    ]
    # errors |3 - 2| / 2 = 0.5 and |40 - 32| / 32 = 0.25: mean 0.375, population sd 0.125
    assert summary["imprisonment_rel_error"] == 0.375 and summary["imprisonment_rel_error_sd"] == 0.125
    # probation: predicted none against 3 months (wrong; |0 - 3| / 3 = 1), none against none (right)
    assert (summary["probation_accuracy"], summary["probation_rel_error"], summary["probation_rel_error_sd"]) == (
        0.5,
        1.0,
        0.0,
    )
    # fine: predicted 0 against 4000 (wrong, error 1) and against 0 (right, T = 0 left out)
    assert (summary["fine_accuracy"], summary["fine_rel_error"]) == (0.5, 1.0)
    assert (summary["n"], summary["imprisonment_hit_rate"], summary["articles_f1"]) == (2, 1.0, 1 / 3)


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
