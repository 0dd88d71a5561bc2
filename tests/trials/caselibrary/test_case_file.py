from __future__ import annotations

import copy
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


def deep_file(write_json, name: str, civil_seed: dict) -> str:
    """A list whose second record holds a value nested 1,000 deep (the parser's own limit)."""
    return write_json(
        name, "[\n" + json.dumps(civil_seed) + ',\n{"id": "deep",\n "extra": ' + "[" * 1000 + "]" * 1000 + "}\n]\n"
    )


@pytest.mark.parametrize("deep_first", [True, False])
def test_a_file_nested_1000_deep_is_refused_with_its_line_and_the_other_file_is_stored(
    civil_seed, write_json, capsys, deep_first
):
    deep = deep_file(write_json, "deep.json", civil_seed)
    good = write_json("good.json", civil_seed | {"id": "good"})
    with pytest.raises(CommandError, match=f"rejected 1 file\\(s\\), nothing stored from them: {deep}"):
        call_command("import_cases", *(map(str, [deep, good] if deep_first else [good, deep])))
    assert capsys.readouterr().err.splitlines() == [f"{deep}:4: json: nested deeper than 64 levels"]
    assert list(Case.objects.values_list("pk", flat=True)) == ["good"], "nothing of the deep file, all of the good one"


def test_objects_nested_1000_deep_in_jsonl_are_refused_line_by_line(civil_seed, write_json):
    deep = '{"a":' * 1000 + "1" + "}" * 1000
    path = write_json("deep.jsonl", f"{json.dumps(civil_seed)}\n{deep}\n{json.dumps(civil_seed | {'id': 'x'})}\n")
    report = cases_import(paths=[path])
    assert [str(problem) for problem in report.problems] == [f"{path}:2: json: nested deeper than 64 levels"]
    assert report.rejected_files == [str(path)] and not Case.objects.exists()


def test_every_file_gets_a_verdict_in_order(civil_seed, write_json):
    first = write_json("first.json", [civil_seed | {"id": "a"}, civil_seed | {"id": "b"}])
    broken = write_json("broken.json", "[" * 5000)
    last = write_json("last.jsonl", json.dumps(civil_seed | {"id": "c"}) + "\n")
    report = cases_import(paths=[first, broken, last])
    assert [(file.file, file.stored, file.imported) for file in report.files] == [
        (str(first), True, ["a", "b"]),
        (str(broken), False, []),
        (str(last), True, ["c"]),
    ]
    assert [str(problem) for problem in report.files[1].problems] == [
        f"{broken}:1: json: nested deeper than 64 levels",
        f"{broken}:1: json: invalid JSON: the file ends inside this record",
    ]


def test_lines_stay_exact_in_a_long_file_of_many_records(civil_seed, write_json):
    """Each record's line is counted on from the one before (linear, item 9), never guessed."""
    records = []
    for index in range(300):
        record = civil_seed | {"id": f"case-{index:03d}"}
        if index % 37 == 5:
            del record["title"]
        if index % 53 == 7:
            record["procedure"] = "maritime"
        records.append(record)
    path = write_json("long.json", records)
    lines = path.read_text().splitlines()
    starts = [number for number, line in enumerate(lines, 1) if line == "  {"]
    procedure_lines = [number for number, line in enumerate(lines, 1) if '"procedure": "maritime"' in line]
    expected = sorted(
        [f"{path}:{starts[index]}: title: is required" for index in range(300) if index % 37 == 5]
        + [f"{path}:{line}: procedure: must be one of civil, criminal, got 'maritime'" for line in procedure_lines],
        key=lambda problem: int(problem.split(":")[1]),
    )
    assert [str(problem) for problem in cases_import(paths=[path]).problems] == expected

    jsonl = write_json("long.jsonl", "\n\n".join(json.dumps(record) for record in records) + "\n")
    problems = [str(problem) for problem in cases_import(paths=[jsonl]).problems]
    assert [problem for problem in problems if "title" in problem] == [
        f"{jsonl}:{2 * index + 1}: title: is required" for index in range(300) if index % 37 == 5
    ]


def test_a_database_that_refuses_a_case_refuses_its_file_and_the_next_file_is_stored(
    civil_seed, write_json, monkeypatch
):
    from django.db import DataError

    from trials import services

    store = services.case_store

    def refusing_store(case: dict, *, source_file: str):
        if case["id"] == "boom":
            raise DataError("value too long for type character varying(300)")
        return store(case, source_file=source_file)

    monkeypatch.setattr(services, "case_store", refusing_store)
    refused = write_json("refused.json", [civil_seed | {"id": "fine"}, civil_seed | {"id": "boom"}])
    good = write_json("good.json", civil_seed | {"id": "good"})
    report = cases_import(paths=[refused, good])
    boom_line = next(n for n, line in enumerate(refused.read_text().splitlines(), 1) if line == "  {" and n > 2)
    assert [str(problem) for problem in report.problems] == [
        f"{refused}:{boom_line}: record: could not be stored: value too long for type character varying(300)"
    ]
    assert list(Case.objects.values_list("pk", flat=True)) == ["good"], "the refused file is rolled back whole"


def test_titles_longer_than_the_library_stores_are_refused(civil_seed, write_json):
    path = write_json("long-title.json", civil_seed | {"title": "T" * 301, "cause_of_action": "C" * 201})
    problems = problems_of(path)
    assert f"{path}:4: title: must be at most 300 characters, got 301" in problems
    assert f"{path}:6: cause_of_action: must be at most 200 characters, got 201" in problems


def test_values_of_the_wrong_type_are_problems_not_crashes(civil_seed, write_json):
    """Found by the property suite: each of these raised TypeError."""
    odd = copy.deepcopy(civil_seed) | {"id": "odd", "procedure": [], "extra": ["not", "an", "object"]}
    odd["parties"][0]["side"] = ["plaintiff"]
    civil_seed["first_instance"]["defenses"] = ["paid", {"amount": 30000}]
    problems = [problem.split(": ", 1)[1] for problem in problems_of(write_json("types.json", [odd, civil_seed]))]
    assert "procedure: must be one of civil, criminal, got []" in problems
    assert "parties[0].side: must be one of plaintiff, defendant, prosecution, got ['plaintiff']" in problems
    assert "extra: must be an object" in problems
    assert "first_instance.defenses: must be a list of strings" in problems


def test_a_key_that_is_not_a_plain_name_is_quoted_and_a_message_stays_on_one_line(civil_seed, write_json):
    numbers = write_json(
        "numbers.json", json.dumps(civil_seed | {"": float("nan"), "a.b": {"c": 1}}).replace('"c": 1', '"c": 1e999')
    )
    assert problems_of(numbers) == [
        f'{numbers}:1: [""]: NaN is not allowed: JSON has no NaN or Infinity',
        f'{numbers}:1: ["a.b"].c: 1e999 is too large for a number',
    ]
    civil_seed["metadata"] = {"court\nname": 5}
    problems = problems_of(write_json("names.json", civil_seed))
    assert any(problem.endswith(": metadata.court\\nname: must be a string") for problem in problems), problems
    assert all("\n" not in problem for problem in problems)
