"""``score_complaint --pred FILE``: complaints written elsewhere, scored against the library's
reference complaints; a line that cannot be scored is reported, not scored."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.complaint import FIELDS, reference_text
from tests.conftest import DEMO_CASES
from trials.models import Case
from trials.services import cases_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def library():
    cases_import(paths=[DEMO_CASES])
    return {case.pk: case.seed for case in Case.objects.all()}


def jsonl(tmp_path, *records) -> str:
    path = tmp_path / "complaints.jsonl"
    path.write_text("\n".join(json.dumps(record, ensure_ascii=False) for record in records) + "\n", encoding="utf-8")
    return str(path)


def test_the_reference_scores_the_top_of_every_field_and_an_empty_complaint_zero(library, tmp_path, capsys):
    pred = jsonl(
        tmp_path,
        {"case_id": "zh-civil-private-lending", "complaint": reference_text(library["zh-civil-private-lending"])},
        {"case_id": "en-civil-traffic-accident", "complaint": ""},
    )
    call_command("score_complaint", "--pred", pred, "--json")
    top, empty = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert list(top) == ["case_id", "fields", "standardability", "professionalism"]
    assert top["case_id"] == "zh-civil-private-lending" and list(top["fields"]) == list(FIELDS)
    assert all(value >= 0.95 for value in [*top["fields"].values(), top["standardability"], top["professionalism"]])
    assert empty["case_id"] == "en-civil-traffic-accident"
    assert set(empty["fields"].values()) == {0} and empty["standardability"] == empty["professionalism"] == 0


def test_without_json_a_table_of_the_fields_is_printed(library, tmp_path, capsys):
    pred = jsonl(
        tmp_path,
        {"case_id": "zh-civil-sales-contract", "complaint": reference_text(library["zh-civil-sales-contract"])},
        {"case_id": "en-civil-commercial-lease", "complaint": "To the court: pay me."},
    )
    call_command("score_complaint", "--pred", pred)
    header, first, second, mean = capsys.readouterr().out.splitlines()
    assert header.split() == [
        "plaintiff",
        "defendant",
        "facts",
        "reasons",
        "claims",
        "evidence",
        "standard",
        "profess.",
    ]
    assert first.split() == ["zh-civil-sales-contract", *["1.00"] * 8]
    assert second.startswith("en-civil-commercial-lease") and mean.startswith("mean")


def test_a_case_without_a_reference_complaint_is_reported_not_scored(library, tmp_path, capsys):
    pred = jsonl(
        tmp_path,
        {"case_id": "zh-criminal-dangerous-driving", "complaint": "起诉状"},
        {"case_id": "no-such-case", "complaint": "起诉状"},
        {"case_id": "zh-civil-labour-dispute", "complaint": reference_text(library["zh-civil-labour-dispute"])},
        {"case_id": "zh-civil-labour-dispute", "complaint": "again"},
        {"complaint": 3},
    )
    with pytest.raises(CommandError, match="4 line"):
        call_command("score_complaint", "--pred", pred, "--json")
    captured = capsys.readouterr()
    (scored,) = (json.loads(line) for line in captured.out.splitlines())
    assert scored["case_id"] == "zh-civil-labour-dispute"
    reported = captured.err
    assert (
        ":1: case_id: case 'zh-criminal-dangerous-driving' is criminal; only a civil case has a reference" in reported
    )
    assert ":2: case_id: no case 'no-such-case' in the library" in reported
    assert ":4: case_id: duplicate 'zh-civil-labour-dispute' (first on line 3)" in reported
    assert ":5: case_id: must be a non-empty string" in reported and ":5: complaint: must be a string" in reported


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        call_command("score_complaint", "--pred", str(tmp_path / "nothing.jsonl"))
