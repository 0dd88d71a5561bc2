"""Ratings exports: the long ratings-file layout (re-importable) and the wide layout of the
LegalWorld release (``case_id, rater_id, status, submitted_at, {stage}_{metric},
{stage}_{metric}_reason, ...``) so studies can be compared. Rows stream from the database.

Text cells are escaped against formula injection (``legalsim.spreadsheet``): a reason such as
``=HYPERLINK(...)`` is written as ``'=HYPERLINK(...)``, and ``import_ratings`` strips that
quote again, so the long layout re-imports to the very same reasons."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TextIO

from annotation.models import Assignment, Rating, Rubric, Study, Trajectory
from annotation.ratings_file import RATING_KEYS
from annotation.selectors import ratings_in_scope
from legalsim.spreadsheet import CsvWriter

LAYOUTS = ("long", "wide")
PROGRESS_EVERY = 5000


def ratings_csv_write(
    handle: TextIO,
    *,
    rubric: Rubric,
    layout: str,
    study: Study | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the ratings (of a study, or of the whole rubric) as CSV; returns the rows written.

    ``progress(done, total)`` counts ratings read, so a long export can show a progress bar.
    """
    ratings = ratings_in_scope(rubric_id=rubric.pk, study=study)
    if layout == "wide":
        ratings = ratings.filter(source=Rating.Source.HUMAN)
    total = ratings.count()
    header, rows = (ratings_wide_rows if layout == "wide" else ratings_long_rows)(rubric=rubric, ratings=ratings)
    writer = CsvWriter(handle)
    writer.writerow(header)
    written = 0
    for written, (row, read) in enumerate(rows, 1):
        writer.writerow(row)
        if progress is not None and written % PROGRESS_EVERY == 0:
            progress(read, total)
    if progress is not None:
        progress(total, total)
    return written


def ratings_long_rows(*, rubric: Rubric, ratings) -> tuple[list[str], Iterator[tuple[list, int]]]:
    """The ratings-file layout, one rating per row; each row comes with the ratings read so far."""
    ratings = ratings.order_by("trajectory_id", "rater", "item")
    rows = (
        [
            rating.trajectory_id,
            rubric.pk,
            rating.item,
            rating.rater,
            rating.source,
            _number(rating.score),
            rating.reason,
        ]
        for rating in ratings.iterator(chunk_size=5000)
    )
    return list(RATING_KEYS), ((row, read) for read, row in enumerate(rows, 1))


def ratings_wide_rows(*, rubric: Rubric, ratings) -> tuple[list[str], Iterator[tuple[list, int]]]:
    """One row per (trajectory, rater) with every item's score, reason and active time."""
    items = list(rubric.definition.item_ids)
    columns = [item.replace(".", "_") for item in items]
    header = ["case_id", "trajectory_id", "rater_id", "status", "submitted_at"]
    for column in columns:
        header += [column, f"{column}_reason", f"{column}_active_seconds"]
    return header, _wide(rubric, items, ratings)


def _wide(rubric: Rubric, items: list[str], ratings) -> Iterator[tuple[list, int]]:
    case_of = dict(Trajectory.objects.values_list("pk", "case_id"))
    submitted = {
        (row["trajectory_id"], row["rater__username"]): row["submitted_at"]
        for row in Assignment.objects.filter(study__rubric=rubric, status=Assignment.Status.SUBMITTED).values(
            "trajectory_id", "rater__username", "submitted_at"
        )
    }
    current: tuple[str, str] | None = None
    answers: dict[str, Rating] = {}
    read = 0
    for read, rating in enumerate(ratings.order_by("trajectory_id", "rater").iterator(chunk_size=5000), 1):
        key = (rating.trajectory_id, rating.rater)
        if current is not None and key != current:
            yield _wide_row(current, answers, items, case_of, submitted), read - 1
            answers = {}
        current = key
        answers[rating.item] = rating
    if current is not None:
        yield _wide_row(current, answers, items, case_of, submitted), read


def _wide_row(key, answers, items, case_of, submitted) -> list:
    trajectory_id, rater = key
    when = submitted.get(key)
    row = [
        case_of.get(trajectory_id, trajectory_id),
        trajectory_id,
        rater,
        "submitted" if when else "imported",
        when.isoformat() if when else "",
    ]
    for item in items:
        rating = answers.get(item)
        row += (
            [_number(rating.score), rating.reason, rating.active_seconds if rating.active_seconds is not None else ""]
            if rating
            else ["", "", ""]
        )
    return row


def _number(score: float) -> int | float:
    return int(score) if score == int(score) else score
