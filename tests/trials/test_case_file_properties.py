"""Properties of case-file import over valid cases mutated at random: no input raises; every
file is stored whole or refused whole; a refusal is ``FILE:LINE: field: message`` lines; a file
of good cases is stored."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from legalsim.json_input import read_records
from tests.conftest import CIVIL_CASE, demo_case_seeds
from tests.json_mutations import PROBLEM, assert_well_formed, damaged, dumps, encoded, lines_of, mutated_record, written
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
