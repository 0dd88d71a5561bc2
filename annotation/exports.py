"""Ratings exports: the long ratings-file layout (re-importable) and the wide layout of the
LegalWorld release (``case_id, rater_id, status, submitted_at, {stage}_{metric},
{stage}_{metric}_reason, ...``) so studies can be compared. Rows stream from the database."""

from __future__ import annotations

from collections.abc import Iterator

from annotation.models import Assignment, Rating, Rubric, Trajectory
from annotation.ratings_file import RATING_KEYS


def ratings_long_rows(*, rubric: Rubric) -> tuple[list[str], Iterator[list]]:
    ratings = Rating.objects.filter(rubric=rubric).order_by("trajectory_id", "rater", "item")
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
    return list(RATING_KEYS), rows


def ratings_wide_rows(*, rubric: Rubric) -> tuple[list[str], Iterator[list]]:
    items = list(rubric.definition.item_ids)
    columns = [item.replace(".", "_") for item in items]
    header = ["case_id", "trajectory_id", "rater_id", "status", "submitted_at"]
    for column in columns:
        header += [column, f"{column}_reason", f"{column}_active_seconds"]
    return header, _wide(rubric, items)


def _wide(rubric: Rubric, items: list[str]) -> Iterator[list]:
    case_of = dict(Trajectory.objects.values_list("pk", "case_id"))
    submitted = {
        (row["trajectory_id"], row["rater__username"]): row["submitted_at"]
        for row in Assignment.objects.filter(study__rubric=rubric, status=Assignment.Status.SUBMITTED).values(
            "trajectory_id", "rater__username", "submitted_at"
        )
    }
    ratings = Rating.objects.filter(rubric=rubric, source=Rating.Source.HUMAN).order_by("trajectory_id", "rater")
    current: tuple[str, str] | None = None
    answers: dict[str, Rating] = {}
    for rating in ratings.iterator(chunk_size=5000):
        key = (rating.trajectory_id, rating.rater)
        if current is not None and key != current:
            yield _wide_row(current, answers, items, case_of, submitted)
            answers = {}
        current = key
        answers[rating.item] = rating
    if current is not None:
        yield _wide_row(current, answers, items, case_of, submitted)


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
