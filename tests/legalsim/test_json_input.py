"""The one reader of imported JSON and JSONL: whatever the bytes, records or ``FILE:LINE``
problems, never an exception; lines exact however long the file."""

from __future__ import annotations

import codecs
import json

import pytest

from legalsim.json_input import MAX_DEPTH, read_document, read_records


def read(tmp_path, name: str, content: str | bytes) -> tuple[list, list[str]]:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    records, problems = read_records(path)
    return records, [str(problem).removeprefix(f"{path}:") for problem in problems]


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [1000, 100_000])
def test_a_record_nested_too_deep_for_the_parser_is_refused_on_its_line_and_the_rest_is_read(tmp_path, depth):
    content = '[\n{"id": "a"},\n{"id": "deep",\n "x": ' + nested(depth) + '},\n{"id": "c"}\n]'
    records, problems = read(tmp_path, "deep.json", content)
    assert problems == [f"4: json: nested deeper than {MAX_DEPTH} levels"]
    assert [(record.line, record.data["id"]) for record in records] == [(2, "a"), (5, "c")]


def test_objects_nested_1000_deep_in_a_jsonl_line_are_refused_and_the_other_lines_read(tmp_path):
    deep = '{"a":' * 1000 + "1" + "}" * 1000
    records, problems = read(tmp_path, "deep.jsonl", f'{{"id": "a"}}\n{deep}\n{{"id": "c"}}\n')
    assert problems == [f"2: json: nested deeper than {MAX_DEPTH} levels"]
    assert [record.line for record in records] == [1, 3]


def test_nesting_is_limited_to_max_depth_levels_even_where_the_parser_copes(tmp_path):
    records, problems = read(tmp_path, "ok.jsonl", nested(MAX_DEPTH) + "\n" + nested(MAX_DEPTH + 1) + "\n")
    assert [record.line for record in records] == [1]
    assert problems == [f"2: json: nested deeper than {MAX_DEPTH} levels"]


def test_a_file_that_ends_inside_a_deep_record_says_so(tmp_path):
    _, problems = read(tmp_path, "cut.json", '[{"id": "a"},\n' + "[" * 5000)
    assert problems == [
        f"2: json: nested deeper than {MAX_DEPTH} levels",
        "2: json: invalid JSON: the file ends inside this record",
    ]


def test_record_lines_are_where_each_record_starts(tmp_path):
    records = [{"id": f"r{index}", "text": "x\n" * index, "items": list(range(index))} for index in range(40)]
    content, starts = "[\n", []
    for index, record in enumerate(records):
        content += "\n" * (index % 2) + " " * (index % 3)  # blank lines and indents between records
        starts.append(content.count("\n") + 1)
        content += json.dumps(record, indent=index % 3 or None) + (",\n" if index < 39 else "\n]\n")
    read_back, problems = read(tmp_path, "many.json", content)
    assert not problems
    assert [record.line for record in read_back] == starts
    assert [record.data for record in read_back] == records


def test_jsonl_lines_split_on_newline_only(tmp_path):
    rows = [{"text": "line\u2028separator"}, {"text": "next\x85line"}, {"text": "paragraph\u2029end"}]
    content = (
        json.dumps(rows[0], ensure_ascii=False)
        + "\r\n\n"
        + "\n".join(json.dumps(row, ensure_ascii=False) for row in rows[1:])
    )
    records, problems = read(tmp_path, "unicode.jsonl", content)
    assert not problems
    assert [(record.line, record.data) for record in records] == [(1, rows[0]), (3, rows[1]), (4, rows[2])]


def test_every_bad_jsonl_line_is_reported(tmp_path):
    records, problems = read(tmp_path, "bad.jsonl", '{"id": 1}\nnot json\n{"id": 3} {"id": 4}\n\n{"id": 5\n')
    assert [record.line for record in records] == [1]
    assert problems == [
        "2: json: invalid JSON: Expecting value (column 1)",
        "3: json: invalid JSON: extra data after the record (column 11)",
        "5: json: invalid JSON: Expecting ',' delimiter (column 9)",
    ]


@pytest.mark.parametrize(
    ("literal", "message"),
    [
        ("NaN", "NaN is not allowed: JSON has no NaN or Infinity"),
        ("Infinity", "Infinity is not allowed: JSON has no NaN or Infinity"),
        ("-Infinity", "-Infinity is not allowed: JSON has no NaN or Infinity"),
        ("1e400", "1e400 is too large for a number"),
        ("9" * 400, "999999999999...(400 characters) is too large for a number"),
        ("-" + "9" * 5000, "-99999999999...(5001 characters) is too large for a number"),
    ],
)
def test_numbers_json_cannot_carry_or_a_float_cannot_hold_are_refused_where_they_are(tmp_path, literal, message):
    records, problems = read(
        tmp_path, "n.json", f'[\n{{"id": "a",\n "sentence": {{\n  "fine": {literal}}}}},\n{{"id": "b"}}\n]'
    )
    assert problems == [f"4: sentence.fine: {message}"]
    assert [record.data["id"] for record in records] == ["b"]


def test_the_largest_numbers_a_float_holds_are_kept(tmp_path):
    records, problems = read(tmp_path, "big.jsonl", '{"a": 1e308}\n{"a": -1.7976931348623157e308}\n{"a": 1e-400}\n')
    assert not problems and [record.data["a"] for record in records] == [1e308, -1.7976931348623157e308, 0.0]


@pytest.mark.parametrize(
    ("escaped", "message"),
    [
        ("\\u0000", "contains a NUL character (\\u0000), which cannot be stored"),
        ("\\ud800", "contains an unpaired surrogate (\\ud800), which is not text"),
        ("\\uDC00x", "contains an unpaired surrogate (\\udc00), which is not text"),
    ],
)
def test_strings_that_cannot_be_stored_are_refused_in_values_and_keys(tmp_path, escaped, message):
    _, problems = read(tmp_path, "s.jsonl", f'{{"parties": [{{"name": "a{escaped}"}}]}}\n{{"a{escaped}": 1}}\n')
    assert problems == [f"1: parties[0].name: {message}", f"2: json: a key {message}"]


def test_a_surrogate_pair_is_one_character_and_kept(tmp_path):
    records, problems = read(tmp_path, "emoji.jsonl", '{"text": "\\ud83d\\ude00"}\n')
    assert not problems and records[0].data == {"text": "\U0001f600"}


def test_a_utf8_byte_order_mark_is_dropped(tmp_path):
    records, problems = read(tmp_path, "bom.json", codecs.BOM_UTF8 + b'{"id": "a"}')
    assert not problems and records[0].data == {"id": "a"}


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (
            '{"id": "a"}'.encode("utf-16"),
            "1: file: is UTF-16 text (it starts with a UTF-16 byte-order mark); save it as UTF-8",
        ),
        (
            '{"id": "a"}'.encode("utf-32"),
            "1: file: is UTF-32 text (it starts with a UTF-32 byte-order mark); save it as UTF-8",
        ),
        (
            '{"id": "a"}'.encode("utf-16-le"),
            "1: file: has a NUL byte, so it is not a text file (is it UTF-16?); save it as UTF-8 (column 2)",
        ),
        (
            '{\n"title": "Café"}'.encode("latin-1"),
            "2: file: is not UTF-8 text: byte 0xe9 cannot be decoded; save it as UTF-8 (column 14)",
        ),
        (
            b'{"a": 1,\n "b": "x\x00y"}',
            "2: file: has a NUL byte, so it is not a text file (is it UTF-16?); save it as UTF-8 (column 9)",
        ),
        (b"", "1: file: is empty; expected a JSON object or list"),
    ],
)
def test_a_file_that_is_not_utf8_text_is_refused_at_the_first_bad_byte(tmp_path, content, problem):
    assert read(tmp_path, "enc.json", content) == ([], [problem])


def test_a_missing_file_is_a_problem_not_an_exception(tmp_path):
    records, problems = read_records(tmp_path / "absent.json")
    assert records == [] and [str(problem) for problem in problems] == [
        f"{tmp_path / 'absent.json'}:1: file: cannot be read: No such file or directory"
    ]


def test_a_document_is_one_value_even_when_it_is_a_list(tmp_path):
    path = tmp_path / "doc.json"
    path.write_text('[{"id": 1}, {"id": 2}]')
    assert read_document(path) == ([{"id": 1}, {"id": 2}], [])
    path.write_text('{"rows":\n' + '{"a":' * 1000 + "1" + "}" * 1001)
    data, problems = read_document(path)
    assert data is None
    assert [str(problem) for problem in problems] == [f"{path}:2: json: nested deeper than {MAX_DEPTH} levels"]


DEEP = "[" * 100_000 + "]" * 100_000


def test_a_model_reply_nested_too_deep_is_an_unreadable_reply_not_a_crash():
    """JSON from a model is parsed with ``loads_untrusted``: a reply the parser cannot read
    for its depth is a ``ValueError`` like any other bad reply (it was a RecursionError that
    the judge, the scorer, the supervisor and the tools did not catch)."""
    from agents.supervisor import parse_verdict
    from annotation.judge import parse_scores
    from annotation.rubric import RUBRIC_DIR, rubric_load
    from legalsim.json_input import loads_untrusted
    from legalsim.llm import ReplyFormatError

    with pytest.raises(ValueError, match="nested deeper"):
        loads_untrusted(DEEP)
    with pytest.raises(ValueError):
        parse_scores('{"scores": ' + DEEP + "}", rubric_load(RUBRIC_DIR / "legalworld16.json"))
    with pytest.raises(ReplyFormatError):
        parse_verdict("{" + '"a":' * 5000 + "1" + "}" * 5000)
