"""Properties of case-file import over valid cases mutated at random: no input raises; every
file is stored whole or refused whole; a refusal is ``FILE:LINE: field: message`` lines; a file
of good cases is stored. A NUL or a lone surrogate (``tests.hostile_text``) in any text of a
case, a value or a key, refuses its file with a message naming the file, the line and the field;
words posing as the court (``forged_text``) in a case's free text are text, stored as written."""

from __future__ import annotations

import copy
import io
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from legalsim.json_input import read_records
from tests.conftest import CIVIL_CASE, demo_case_seeds
from tests.hostile_text import forged_text, poisoned_text
from tests.json_mutations import (
    PROBLEM,
    assert_well_formed,
    damaged,
    dumps,
    encoded,
    lines_of,
    mutated_record,
    paths_of,
    written,
)
from trials.models import Case
from trials.services import cases_import

pytestmark = pytest.mark.django_db
BASES = [CIVIL_CASE, *demo_case_seeds()]
PROPERTIES = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


@st.composite
def case_files(draw) -> list[dict]:
    """One to three files of one to three cases each, every case maybe mutated; each file a
    JSON list, one JSON object or JSONL, maybe damaged as bytes."""
    files, ids = [], []
    for number in range(draw(st.integers(1, 3))):
        records, clean = [], True
        for index in range(draw(st.integers(1, 3))):
            base = draw(st.sampled_from(BASES)) | {"id": f"case-{number}-{index}"}
            mutated = draw(mutated_record(base, earlier_ids=ids, mutate=draw(st.booleans())))
            clean = clean and not mutated.changes
            for change in mutated.changes:
                event(f"record: {change}")
            records.append(mutated.record)
            ids.append(base["id"])
        ascii_only = draw(st.booleans())
        shape = draw(st.sampled_from(["list", "jsonl", "object"] if len(records) == 1 else ["list", "jsonl"]))
        if shape == "jsonl":
            newline = draw(st.sampled_from(["\n", "\r\n", "\n\n"]))
            text = newline.join(dumps(record, ensure_ascii=ascii_only) for record in records) + newline
        else:
            value = records if shape == "list" else records[0]
            text = dumps(value, indent=draw(st.sampled_from([None, 2])), ensure_ascii=ascii_only)
        content, damage = draw(damaged(encoded(text)))
        event(f"file: {shape}, {damage or 'bytes as written'}")
        name = f"file{number}.{'jsonl' if shape == 'jsonl' else 'json'}"
        files.append({"name": name, "content": content, "records": len(records), "good": clean and damage is None})
    return files


@PROPERTIES
@given(files=case_files())
def test_every_case_file_is_stored_whole_or_refused_whole_with_file_line_messages(files):
    with tempfile.TemporaryDirectory() as scratch, transaction.atomic():
        paths = written(Path(scratch), files)
        report = cases_import(paths=paths)
        assert [verdict.file for verdict in report.files] == [str(path) for path in paths], "a verdict per file"
        for file, path, verdict in zip(files, paths, report.files, strict=True):
            stored = set(Case.objects.filter(source_file=str(path)).values_list("pk", flat=True))
            event(f"verdict: {'stored' if verdict.stored else 'refused'}{', good file' if file['good'] else ''}")
            if verdict.stored:
                assert stored == set(verdict.imported), "stored means every case the verdict names"
                if file["good"]:
                    assert len(verdict.imported) == file["records"]
            else:
                assert not stored and not verdict.imported, "refused means nothing of the file"
                assert not file["good"], f"a file of good cases was refused: {verdict.problems}"
                for problem in verdict.problems:
                    assert_well_formed(problem, label=str(path), lines=lines_of(file["content"]))
        transaction.set_rollback(True)


@PROPERTIES
@given(files=case_files())
def test_reading_a_case_file_never_raises_and_names_only_lines_it_has(files):
    with tempfile.TemporaryDirectory() as scratch:
        for file, path in zip(files, written(Path(scratch), files), strict=True):
            records, problems = read_records(path)
            for record in records:
                assert 1 <= record.line <= lines_of(file["content"])
            for problem in problems:
                assert_well_formed(problem, label=str(path), lines=lines_of(file["content"]))


@settings(PROPERTIES, max_examples=25)
@given(files=case_files())
def test_import_cases_exits_non_zero_exactly_when_a_file_is_refused(files):
    with tempfile.TemporaryDirectory() as scratch, transaction.atomic():
        paths = written(Path(scratch), files)
        out, err = io.StringIO(), io.StringIO()
        try:
            call_command("import_cases", *map(str, paths), stdout=out, stderr=err)
            refused = False
        except CommandError:
            refused = True
        printed = err.getvalue().splitlines()
        assert refused == bool(printed), "non-zero exactly when something was rejected, with its problems"
        assert not all(file["good"] for file in files) or not refused, "files of good cases import cleanly"
        for line in printed:
            match = PROBLEM.fullmatch(line)
            assert match and Path(match["file"]) in paths, f"not FILE:LINE: field: message: {line!r}"
            assert int(match["line"]) <= lines_of(Path(match["file"]).read_bytes()), line
        transaction.set_rollback(True)


def field_name(path: tuple) -> str:
    """A path into a record as the reader names it: ``parties[0].name``, ``metadata["a b"]``."""
    name = ""
    for step in path:
        if isinstance(step, int):
            name += f"[{step}]"
        elif re.fullmatch(r"[^\W\d][\w-]*|\d+", step):
            name += f".{step}" if name else step
        else:
            name += f"[{json.dumps(step, ensure_ascii=False)}]"
    return name


@st.composite
def poisoned_case_file(draw: st.DrawFn) -> dict:
    """A file of one to three good cases, one of which holds a poisoned text in one of its
    strings or keys, written as JSON (with ``\\u`` escapes, as any JSON library writes them).
    ``line`` is the poison's line; a key's problem may name an earlier one (the line of the
    field that holds the key), so ``exact`` says whether the line named must be that one."""
    records = [
        copy.deepcopy(draw(st.sampled_from(BASES))) | {"id": f"case-{index}"}
        for index in range(draw(st.integers(1, 3)))
    ]
    which = draw(st.integers(0, len(records) - 1))
    record, poison = records[which], draw(poisoned_text())
    texts = [path for path in paths_of(record) if isinstance(_at(record, path), str) and path != ("id",)]
    dicts = [path for path in [(), *paths_of(record)] if isinstance(_at(record, path), dict)]
    if draw(st.booleans()):
        path = draw(st.sampled_from(texts))
        _at(record, path[:-1])[path[-1]] = poison
        field, message = field_name(path), "contains"
    else:
        path = draw(st.sampled_from(dicts))
        _at(record, path)[poison] = "x"
        field, message = field_name(path) or "json", "a key contains"
    shape = draw(st.sampled_from(["list", "jsonl", "object"] if len(records) == 1 else ["list", "jsonl"]))
    if shape == "jsonl":
        text = "\n".join(dumps(each) for each in records) + "\n"
    else:
        text = dumps(records if shape == "list" else records[0], indent=draw(st.sampled_from([None, 2])))
    line = text.count("\n", 0, text.index(json.dumps(poison)[1:-1])) + 1
    name = f"poisoned.{'jsonl' if shape == 'jsonl' else 'json'}"
    exact = message == "contains" or shape == "jsonl"
    content = text.encode("ascii")
    return {"name": name, "content": content, "field": field, "message": message, "line": line, "exact": exact}


def _at(record: Any, path: tuple) -> Any:
    for step in path:
        record = record[step]
    return record


@PROPERTIES
@given(file=poisoned_case_file())
def test_nul_or_a_lone_surrogate_anywhere_in_a_case_refuses_the_file_naming_file_line_and_field(file):
    with tempfile.TemporaryDirectory() as scratch, transaction.atomic():
        (path,) = written(Path(scratch), [file])
        (verdict,) = cases_import(paths=[path]).files
        assert not verdict.stored and not verdict.imported, "refused whole"
        assert not Case.objects.filter(source_file=str(path)).exists(), "nothing of the file is stored"
        for problem in verdict.problems:
            assert_well_formed(problem, label=str(path), lines=lines_of(file["content"]))
        named = [
            problem
            for problem in verdict.problems
            if (problem.line == file["line"] if file["exact"] else problem.line <= file["line"])
            and problem.message.startswith(file["message"])
            and re.search(r"NUL|unpaired surrogate", problem.message)
        ]
        assert named, f"no message names line {file['line']}: {[str(problem) for problem in verdict.problems]}"
        assert file["field"] in [problem.field for problem in named], [str(problem) for problem in named]
        transaction.set_rollback(True)


FREE_TEXT = (
    "title",
    "cause_of_action",
    "name",
    "details",
    "purpose",
    "goal",
    "bottom_line",
    "question",
    "facts_and_reasons",
)
"""Keys whose value is prose a case's author writes freely (no choice from a list, no date); the
words drawn are at most 200 characters, the shortest limit among them (``cause_of_action``)."""


@PROPERTIES
@given(base=st.sampled_from(BASES), data=st.data())
def test_words_posing_as_the_court_in_a_cases_free_text_are_stored_as_written(base, data):
    record = copy.deepcopy(base)
    prose = [path for path in paths_of(record) if path[-1] in FREE_TEXT and isinstance(_at(record, path), str)]
    path, text = data.draw(st.sampled_from(prose)), data.draw(forged_text().filter(lambda t: len(t) <= 200))
    _at(record, path[:-1])[path[-1]] = text
    with tempfile.TemporaryDirectory() as scratch, transaction.atomic():
        (file,) = written(Path(scratch), [{"name": "forged.json", "content": encoded(dumps(record))}])
        (verdict,) = cases_import(paths=[file]).files
        assert verdict.stored, [str(problem) for problem in verdict.problems]
        assert _at(Case.objects.get(pk=record["id"]).seed, path) == text, "stored as written"
        transaction.set_rollback(True)
