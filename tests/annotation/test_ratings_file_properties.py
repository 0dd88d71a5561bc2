"""Properties of ratings-file import (JSONL and CSV) over valid ratings mutated at random: no
input raises; every file is stored whole or refused whole; a refusal is ``FILE:LINE: field:
message`` lines; a file of good ratings is stored exactly as written, whatever its text."""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from annotation.models import Rating, Rubric
from annotation.ratings_file import RATING_KEYS, read_ratings
from annotation.services import ratings_import
from tests.json_mutations import Raw, assert_well_formed, damaged, dumps, encoded, lines_of, mutated_record, written

pytestmark = pytest.mark.django_db
PROPERTIES = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ITEMS = (
    "LC.procedural_compliance",
    "FIT.process_coherence",
    "judge.role_distinguishability",
    "client.stance_authenticity",
)
# Any text a rater may write: every character but NUL and unpaired surrogates (which no
# database stores), line separators and quotes included. A leading quote is left out: the CSV
# importer reads "'=..." as the export's escape of "=..." (formula injection; docs/design.md,
# "Exports are data, never formulas").
reasons = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=30).filter(
    lambda text: not text.startswith("'")
)


@st.composite
def ratings(draw, file_number: int) -> dict:
    source = draw(st.sampled_from(["human", "llm"]))
    score = draw(st.integers(0, 10)) if source == "human" else draw(st.floats(0, 10, allow_nan=False))
    return {
        "trajectory_id": f"t{file_number}-{draw(st.integers(0, 3))}",
        "rubric": "legalworld16",
        "item": draw(st.sampled_from(ITEMS)),
        "rater": draw(st.sampled_from(["ann", "bo", "judge-model"])),
        "source": source,
        "score": score,
        "reason": draw(reasons),
    }


def csv_cell(value: object) -> str:
    if isinstance(value, Raw):
        return value.text
    return "" if value is None else value if isinstance(value, str) else dumps(value)


@st.composite
def ratings_files(draw) -> list[dict]:
    """One to three files of one to five ratings, each maybe mutated or repeated; JSONL or CSV,
    maybe with a column missing, maybe damaged as bytes."""
    files = []
    for number in range(draw(st.integers(1, 3))):
        rows, keys, clean = [], set(), True
        for _ in range(draw(st.integers(1, 5))):
            row = draw(ratings(number))
            key = (row["trajectory_id"], row["item"], row["rater"], row["source"])
            if key in keys:
                continue
            keys.add(key)
            mutated = draw(mutated_record(row, earlier_ids=[], mutate=draw(st.integers(0, 3)) == 0))
            for change in mutated.changes:
                event(f"row: {change}")
            clean = clean and not mutated.changes
            rows.append(mutated.record)
        if draw(st.integers(0, 5)) == 0:
            rows.append(dict(draw(st.sampled_from(rows))))
            clean = False
            event("row: repeated")
        shape = draw(st.sampled_from(["jsonl", "csv"]))
        if shape == "jsonl":
            newline = draw(st.sampled_from(["\n", "\r\n", "\n\n"]))
            ascii_only = draw(st.booleans())
            text = newline.join(dumps(row, ensure_ascii=ascii_only) for row in rows) + newline
        else:
            columns = list(RATING_KEYS)
            if draw(st.integers(0, 8)) == 0:
                columns.remove(draw(st.sampled_from(columns)))
                clean = False
                event("file: a column missing")
            out = io.StringIO()
            writer = csv.writer(out)
            writer.writerow(columns)
            writer.writerows([csv_cell(row.get(column)) for column in columns] for row in rows)
            text = out.getvalue()
        content, damage = draw(damaged(encoded(text)))
        event(f"file: {shape}, {damage or 'bytes as written'}")
        files.append(
            {"name": f"ratings{number}.{shape}", "content": content, "rows": rows, "good": clean and not damage}
        )
    return files


@PROPERTIES
@given(files=ratings_files())
def test_every_ratings_file_is_stored_whole_or_refused_whole_with_file_line_messages(files):
    with tempfile.TemporaryDirectory() as scratch, transaction.atomic():
        paths = written(Path(scratch), files)
        report = ratings_import(paths=paths)
        stored_total = 0
        for file, path in zip(files, paths, strict=True):
            stored = Rating.objects.filter(imported_from=str(path))
            problems = [problem for problem in report.problems if problem.path == str(path)]
            if str(path) in report.rejected_files:
                event("verdict: refused")
                assert not stored.exists(), "refused means nothing of the file"
                assert problems, "a refused file says why"
                assert not file["good"], f"a file of good ratings was refused: {[str(p) for p in problems]}"
                for problem in problems:
                    assert_well_formed(problem, label=str(path), lines=lines_of(file["content"]))
            else:
                event(f"verdict: stored{', good file' if file['good'] else ''}")
                assert not problems
                stored_total += stored.count()
                if file["good"]:
                    expected = sorted(
                        (row["trajectory_id"], row["item"], row["rater"], row["source"], row["score"], row["reason"])
                        for row in file["rows"]
                    )
                    assert sorted(
                        stored.values_list("trajectory_id", "item", "rater", "source", "score", "reason")
                    ) == (expected), "a good file is stored exactly as written"
        assert report.imported == stored_total
        transaction.set_rollback(True)


@PROPERTIES
@given(files=ratings_files())
def test_reading_a_ratings_file_never_raises_and_names_only_lines_it_has(files):
    rubrics = {rubric.id: rubric.definition for rubric in Rubric.objects.all()}
    with tempfile.TemporaryDirectory() as scratch:
        for file, path in zip(files, written(Path(scratch), files), strict=True):
            rows, problems = read_ratings(path, rubrics)
            for row in rows:
                assert 1 <= row.line <= lines_of(file["content"])
            for problem in problems:
                assert_well_formed(problem, label=str(path), lines=lines_of(file["content"]))
