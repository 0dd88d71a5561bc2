"""``sentence.penalty`` in the case format: every principal penalty a Chinese court gives can be
written, imported, and comes back unchanged (re-imported, or edited in the browser)."""

from __future__ import annotations

import json

import pytest

from court.legaltext.penalties import PENALTIES
from trials.caselibrary.authoring import case_check, form_from_case
from trials.models import Case
from trials.services import cases_import

pytestmark = pytest.mark.django_db

SENTENCES = {
    "fixed_term": {"imprisonment_months": 30, "probation": 36, "fine": 5000, "statutory_range_months": [0, 36]},
    "criminal_detention": {"imprisonment_months": 3, "probation": False, "fine": 2000},
    "public_surveillance": {"imprisonment_months": 12, "probation": False, "fine": 0},
    "life_imprisonment": {
        "imprisonment_months": None,
        "probation": False,
        "fine": 0,
        "statutory_range_months": [120, 1000],
    },
    "death_suspended": {"imprisonment_months": None, "probation": False, "fine": 0},
    "death": {"probation": False, "fine": 0},
    "exempt": {"imprisonment_months": 0, "probation": False, "fine": 0},
    "acquitted": {"imprisonment_months": None, "probation": False, "fine": 0},
}


def criminal(case_id: str, sentence: dict) -> dict:
    return {
        "id": case_id,
        "procedure": "criminal",
        "title": "某某检察院诉某甲案",
        "language": "zh",
        "cause_of_action": "故意伤害罪",
        "parties": [
            {"side": "prosecution", "name": "某某区人民检察院", "kind": "organization", "details": "公诉机关"},
            {"side": "defendant", "name": "某甲", "kind": "person", "details": "男"},
        ],
        "indictment": "……",
        "charges": ["故意伤害罪"],
        "sentence": sentence,
    }


def problems_of(path) -> list[str]:
    return [str(problem) for problem in cases_import(paths=[path]).problems]


def test_the_table_covers_every_penalty():
    assert set(SENTENCES) == set(PENALTIES)


@pytest.mark.parametrize("penalty", PENALTIES)
def test_a_case_with_each_penalty_imports_and_round_trips(penalty, write_json, tmp_path):
    case = criminal(f"case-{penalty}", {"penalty": penalty, **SENTENCES[penalty]})
    report = cases_import(paths=[write_json("case.json", case)])
    assert report.imported == [case["id"]], report.problems
    stored = Case.objects.get(pk=case["id"]).seed
    assert stored["sentence"] == case["sentence"]

    exported = tmp_path / "exported.json"
    exported.write_text(json.dumps(stored, ensure_ascii=False), encoding="utf-8")
    assert cases_import(paths=[exported]).imported == [case["id"]]
    assert Case.objects.get(pk=case["id"]).seed == stored

    edited = case_check(form_from_case(stored))
    assert not edited.errors and edited.case["sentence"] == stored["sentence"]


def test_integral_floats_are_whole_months_and_are_stored_as_integers(write_json):
    sentence = {"imprisonment_months": 3.0, "probation": 12.0, "fine": 2000.0, "statutory_range_months": [1.0, 6.0]}
    cases_import(paths=[write_json("floats.json", criminal("floats", sentence))])
    stored = Case.objects.get(pk="floats").seed["sentence"]
    assert stored == {"imprisonment_months": 3, "probation": 12, "fine": 2000.0, "statutory_range_months": [1, 6]}
    assert all(type(stored[key]) is int for key in ("imprisonment_months", "probation"))


@pytest.mark.parametrize(
    ("sentence", "message"),
    [
        (
            {"imprisonment_months": None},
            "sentence.imprisonment_months: must be a whole number of months >= 0 for fixed_term (null only for a "
            "penalty without a term)",
        ),
        ({"imprisonment_months": 2.5}, "sentence.imprisonment_months: must be a whole number of months >= 0"),
        (
            {"penalty": "life_imprisonment", "imprisonment_months": 180},
            "sentence.imprisonment_months: must be null for life_imprisonment (it has no term in months)",
        ),
        (
            {"penalty": "acquitted", "imprisonment_months": 6},
            "sentence.imprisonment_months: must be 0 or null for acquitted, got 6",
        ),
        (
            {"penalty": "prison", "imprisonment_months": 6},
            "sentence.penalty: must be one of fixed_term, criminal_detention, public_surveillance, life_imprisonment, "
            "death_suspended, death, exempt, acquitted, got 'prison'",
        ),
        (
            {"imprisonment_months": 6, "probation": 1.5},
            "sentence.probation: must be true/false or a whole number of months",
        ),
    ],
)
def test_a_sentence_that_cannot_be_so_is_refused_with_its_field(sentence, message, write_json):
    path = write_json("bad.json", criminal("bad", sentence))
    problems = problems_of(path)
    assert any(problem.startswith(f"{path}:") and problem.endswith(message) for problem in problems), problems
    assert not Case.objects.exists()
