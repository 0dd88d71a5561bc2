from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from trials.models import Case
from trials.services import cases_import

pytestmark = pytest.mark.django_db


def problems_of(path) -> list[str]:
    return [str(problem) for problem in cases_import(paths=[path]).problems]


def test_valid_case_is_imported_with_unknown_keys_kept_in_extra(civil_seed, write_json):
    civil_seed["court_division"] = "Civil Division 2"
    report = cases_import(paths=[write_json("one.json", civil_seed)])
    assert report.imported == ["test-civil-loan"] and not report.problems
    case = Case.objects.get(pk="test-civil-loan")
    assert case.procedure == "civil" and case.language == "en"
    assert case.seed["extra"] == {"court_division": "Civil Division 2"}


def test_bad_json_is_reported_with_its_line(write_json):
    path = write_json("broken.json", '[\n  {"id": "a",\n   "title": }\n]')
    assert problems_of(path) == [f"{path}:3: json: invalid JSON: Expecting value (column 13)"]


def test_each_bad_record_is_reported_with_line_and_field_and_nothing_is_stored(civil_seed, write_json):
    missing_title = {key: value for key, value in civil_seed.items() if key != "title"} | {"id": "no-title"}
    wrong_type = civil_seed | {"id": "bad-claims", "first_instance": {**civil_seed["first_instance"], "claims": 7}}
    unknown_procedure = civil_seed | {"id": "admin-case", "procedure": "administrative"}
    path = write_json("mixed.json", [civil_seed, missing_title, wrong_type, unknown_procedure])
    lines = path.read_text().splitlines()
    record_starts = [number for number, line in enumerate(lines, 1) if line == "  {"]

    problems = problems_of(path)

    assert f"{path}:{record_starts[1]}: title: is required" in problems
    claims_line = next(n for n, line in enumerate(lines, 1) if '"claims": 7' in line)
    assert f"{path}:{claims_line}: first_instance.claims: must be a list of strings" in problems
    procedure_line = next(n for n, line in enumerate(lines, 1) if '"administrative"' in line)
    assert f"{path}:{procedure_line}: procedure: must be one of civil, criminal, got 'administrative'" in problems
    assert not Case.objects.exists(), "a file with a bad record must store nothing, not even its good records"


def test_duplicate_id_in_one_run_is_rejected(civil_seed, write_json):
    first = write_json("first.json", civil_seed)
    second = write_json("second.jsonl", json.dumps(civil_seed) + "\n")
    report = cases_import(paths=[first, second])
    assert report.imported == ["test-civil-loan"]
    assert [str(problem) for problem in report.problems] == [
        f"{second}:1: id: duplicate id 'test-civil-loan' (first in {first}:1)"
    ]


def test_reimporting_a_case_replaces_it(civil_seed, write_json):
    cases_import(paths=[write_json("v1.json", civil_seed)])
    cases_import(paths=[write_json("v2.json", civil_seed | {"title": "Renamed"})])
    assert Case.objects.get(pk="test-civil-loan").title == "Renamed"


def test_party_sides_must_cover_the_procedure(civil_seed, write_json):
    civil_seed["parties"] = civil_seed["parties"][:1]
    assert any(
        "parties: needs at least one defendant party" in problem
        for problem in problems_of(write_json("p.json", civil_seed))
    )


def test_criminal_sentence_fields_are_typed(write_json):
    case = {
        "id": "crim",
        "procedure": "criminal",
        "title": "People v. Wu",
        "language": "en",
        "cause_of_action": "Theft",
        "parties": [
            {"side": "prosecution", "name": "District Procuratorate", "kind": "organization"},
            {"side": "defendant", "name": "Wu", "kind": "person"},
        ],
        "sentence": {"imprisonment_months": "six", "probation": False, "fine": -1, "statutory_range_months": [36, 0]},
    }
    problems = problems_of(write_json("crim.json", case))
    assert any(
        problem.endswith("sentence.imprisonment_months: must be a whole number of months >= 0") for problem in problems
    )
    assert any(problem.endswith("sentence.fine: must be a number >= 0") for problem in problems)
    assert any(
        problem.endswith("sentence.statutory_range_months: must be [lower, upper] whole months, 0 <= lower <= upper")
        for problem in problems
    )


def test_command_exits_non_zero_and_prints_every_problem(civil_seed, write_json, capsys):
    good = write_json("good.json", civil_seed | {"id": "good"})
    bad = write_json("bad.jsonl", '{"id": "x"}\nnot json\n')
    with pytest.raises(CommandError, match="rejected 1 file"):
        call_command("import_cases", str(good), str(bad))
    err = capsys.readouterr().err
    assert f"{bad}:2: json: invalid JSON" in err
    assert Case.objects.filter(pk="good").exists(), "files are atomic one by one: the good file still lands"
