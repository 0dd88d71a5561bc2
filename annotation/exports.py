"""Ratings exports: the long ratings-file layout (re-importable) and the wide layout of the
LegalWorld release (``case_id, rater_id, status, submitted_at, {stage}_{metric},
{stage}_{metric}_reason, ...``) so studies can be compared. Rows stream from the database.

An N/A answer (an item of a stage the trajectory lacks) is written ``NA``, as ratings files
say it. Ratings that belong to a study (questionnaires') add a ``study`` column (its name),
so a rater who rated a trajectory in two studies keeps both ratings, apart. When an item of
a study was adjudicated (``annotation.adjudication``), the resolved score goes beside the
people's raw ones: long rows add ``adjudicated_score`` and ``adjudicated_reason`` (which
``import_ratings`` does not read), wide rows ``{item}_adjudicated``, whenever some rating
exported has one.

Text cells are escaped against formula injection (``legalsim.spreadsheet``): a reason such as
``=HYPERLINK(...)`` is written as ``'=HYPERLINK(...)`` (and ``ok;=1+1`` as ``ok;'=1+1``), and
``import_ratings`` strips those quotes again, so the long layout re-imports to the very same
reasons."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from annotation.models import Adjudication, Assignment, Rating, Rubric, Study, Trajectory
from annotation.ratings_file import RATING_KEYS, STUDY_KEY
from annotation.selectors import ratings_in_scope
from annotation.stages import NA
from legalsim.spreadsheet import CsvWriter

LAYOUTS = ("long", "wide")
PROGRESS_EVERY = 5000
ADJUDICATED_KEYS = ("adjudicated_score", "adjudicated_reason")


@dataclass(frozen=True)
class Resolved:
    """The adjudicated items in an export's scope, by (study id, trajectory, item). In one
    study's export every person's rating of the item sits beside its resolution, those
    imported for the study's raters outside any study included."""

    adjudications: dict[tuple[int, str, str], Adjudication]
    study_id: int | None

    @classmethod
    def of(cls, rubric: Rubric, study: Study | None) -> Resolved | None:
        """``None`` when nothing in scope was adjudicated: the export has no such columns."""
        stored = (
            Adjudication.objects.filter(study=study) if study else Adjudication.objects.filter(study__rubric=rubric)
        )
        found = {(entry.study_id, entry.trajectory_id, entry.item): entry for entry in stored}
        return cls(found, study.pk if study else None) if found else None

    def unit(self, study_id: int | None, trajectory_id: str, item: str) -> Adjudication | None:
        return self.adjudications.get((self.study_id or study_id, trajectory_id, item))

    def beside(self, rating: Rating) -> list:
        """A long row's adjudicated score and reason (empty for a judge's rating)."""
        entry = self.unit(rating.study_id, rating.trajectory_id, rating.item) if rating.source == "human" else None
        return [_number(entry.score), entry.reason] if entry else ["", ""]


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
    studies = _study_names(ratings)
    layout_rows = ratings_wide_rows if layout == "wide" else ratings_long_rows
    header, rows = layout_rows(rubric=rubric, ratings=ratings, studies=studies, resolved=Resolved.of(rubric, study))
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


def _study_names(ratings) -> dict[int, str] | None:
    """Study id -> name when some of the ratings belong to a study (the exports then carry a
    ``study`` column); ``None`` when none does."""
    if not ratings.filter(study__isnull=False).exists():
        return None
    return dict(Study.objects.values_list("pk", "name"))


def ratings_long_rows(
    *, rubric: Rubric, ratings, studies: dict[int, str] | None = None, resolved: Resolved | None = None
) -> tuple[list[str], Iterator[tuple[list, int]]]:
    """The ratings-file layout, one rating per row; each row comes with the ratings read so far."""
    ratings = ratings.order_by("trajectory_id", "rater", "item", "id")
    rows = (
        [
            rating.trajectory_id,
            rubric.pk,
            rating.item,
            rating.rater,
            rating.source,
            _number(rating.score),
            rating.reason,
            *([studies.get(rating.study_id, "")] if studies is not None else []),
            *(resolved.beside(rating) if resolved else []),
        ]
        for rating in ratings.iterator(chunk_size=5000)
    )
    header = [*RATING_KEYS, *([STUDY_KEY] if studies is not None else []), *(ADJUDICATED_KEYS if resolved else ())]
    return header, ((row, read) for read, row in enumerate(rows, 1))


def ratings_wide_rows(
    *, rubric: Rubric, ratings, studies: dict[int, str] | None = None, resolved: Resolved | None = None
) -> tuple[list[str], Iterator[tuple[list, int]]]:
    """One row per (trajectory, rater, study) with every item's score, reason and active time
    (and its adjudicated score, when some item in scope has one)."""
    items = list(rubric.definition.item_ids)
    columns = [item.replace(".", "_") for item in items]
    study = [STUDY_KEY] if studies is not None else []
    header = ["case_id", "trajectory_id", "rater_id", *study, "status", "submitted_at"]
    for column in columns:
        header += [
            column,
            f"{column}_reason",
            f"{column}_active_seconds",
            *([f"{column}_adjudicated"] if resolved else []),
        ]
    return header, _wide(rubric, items, ratings, studies, resolved)


def _wide(
    rubric: Rubric, items: list[str], ratings, studies: dict[int, str] | None, resolved: Resolved | None
) -> Iterator[tuple[list, int]]:
    case_of = dict(Trajectory.objects.values_list("pk", "case_id"))
    submitted = {
        (row["trajectory_id"], row["rater__username"], row["study"]): row["submitted_at"]
        for row in Assignment.objects.filter(study__rubric=rubric, status=Assignment.Status.SUBMITTED).values(
            "trajectory_id", "rater__username", "study", "submitted_at"
        )
    }
    current: tuple[str, str, int | None] | None = None
    answers: dict[str, Rating] = {}
    read = 0
    ordered = ratings.order_by("trajectory_id", "rater", "study_id")
    for read, rating in enumerate(ordered.iterator(chunk_size=5000), 1):
        key = (rating.trajectory_id, rating.rater, rating.study_id)
        if current is not None and key != current:
            yield _wide_row(current, answers, items, case_of, submitted, studies, resolved), read - 1
            answers = {}
        current = key
        answers[rating.item] = rating
    if current is not None:
        yield _wide_row(current, answers, items, case_of, submitted, studies, resolved), read


def _wide_row(key, answers, items, case_of, submitted, studies, resolved) -> list:
    trajectory_id, rater, study_id = key
    when = submitted.get(key)
    row = [case_of.get(trajectory_id, trajectory_id), trajectory_id, rater]
    if studies is not None:
        row.append(studies.get(study_id, ""))
    row += ["submitted" if when else "imported", when.isoformat() if when else ""]
    for item in items:
        rating = answers.get(item)
        row += (
            [_number(rating.score), rating.reason, rating.active_seconds if rating.active_seconds is not None else ""]
            if rating
            else ["", "", ""]
        )
        if resolved:
            entry = resolved.unit(study_id, trajectory_id, item)
            row.append(_number(entry.score) if entry else "")
    return row


def _number(score: float | None) -> int | float | str:
    if score is None:
        return NA
    return int(score) if score == int(score) else score
