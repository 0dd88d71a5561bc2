"""Ratings read a chunk at a time, from a list or from the database, make the same report."""

from __future__ import annotations

import numpy as np
import pytest

from annotation import agreement_frame
from annotation.agreement import RatingsFrame, agreement_compute
from annotation.bootstrap import bootstrap_attach
from annotation.rubric import RUBRIC_DIR, rubric_load

RUBRIC = rubric_load(RUBRIC_DIR / "legalworld16.json")


def study_rows(seed: int = 3, trajectories: int = 14) -> list[tuple]:
    """Two to four people per trajectory, some of their answers N/A, one judge; trajectory
    t13 has N/A answers only; ids sort alike in every database collation."""
    rng = np.random.default_rng(seed)
    rows = []
    for trajectory in range(trajectories):
        name = f"t{trajectory:02d}"
        quality = rng.integers(4, 11, size=len(RUBRIC.item_ids))
        for rater in sorted(rng.choice(6, size=rng.integers(2, 5), replace=False)):
            for index, item in enumerate(RUBRIC.item_ids):
                missing = trajectory == 13 or rng.random() < 0.05
                score = None if missing else float(np.clip(quality[index] + rng.integers(-2, 3), 0, 10))
                rows.append((name, item, f"r{rater}", "human", score))
        if trajectory != 13:
            for index, item in enumerate(RUBRIC.item_ids):
                rows.append((name, item, "judge", "llm", float(quality[index]) - rng.choice([0, 1, 1.5])))
    return rows


def frame_arrays(frame: RatingsFrame) -> dict:
    return {
        "names": (frame.trajectories, frame.items, frame.raters),
        "columns": [column.tolist() for column in (frame.trajectory, frame.item, frame.rater, frame.is_llm)],
        "score": frame.score.tolist(),
        "n_na": frame.n_na,
    }


@pytest.mark.parametrize("chunk_size", [1, 7, 100])
def test_rows_read_in_chunks_make_the_frame_read_at_once(chunk_size):
    rows = study_rows()
    whole = RatingsFrame.from_rows(rows, chunk_size=len(rows))
    assert frame_arrays(RatingsFrame.from_rows(rows, chunk_size=chunk_size)) == frame_arrays(whole)
    assert "t13" not in whole.trajectories, "a trajectory with N/A answers only is in no figure"
    assert sum(whole.n_na.values()) == sum(1 for row in rows if row[4] is None)
    assert whole.trajectory.size == sum(1 for row in rows if row[4] is not None)


def test_columns_make_the_frame_their_rows_make():
    rows = study_rows()
    chunks = [tuple(zip(*rows[start : start + 50], strict=True)) for start in range(0, len(rows), 50)]
    columns = [(list(t), np.array(i, dtype=object), list(r), list(s), list(v)) for t, i, r, s, v in chunks]
    assert frame_arrays(RatingsFrame.from_columns(columns)) == frame_arrays(RatingsFrame.from_rows(rows))


@pytest.mark.django_db
def test_the_report_from_the_database_in_chunks_equals_the_report_from_memory(monkeypatch):
    """The report page's path (``agreement_build``: ratings streamed from the database and
    coded 64 at a time) and the in-memory path, given the rows in the order the database
    returns them (which sets the trajectories' order, so the draws), give the same figures,
    intervals and notes."""
    from annotation.models import Rating, Rubric
    from annotation.selectors import agreement_build

    rows = study_rows()
    Rating.objects.bulk_create(
        Rating(rubric_id=RUBRIC.id, trajectory_id=t, item=i, rater=r, source=s, score=v) for t, i, r, s, v in rows
    )
    monkeypatch.setattr(agreement_frame, "CHUNK_ROWS", 64)
    stored = agreement_build(rubric=Rubric.objects.get(pk=RUBRIC.id), judge=None, replicates=300).report

    ordered = Rating.objects.order_by("trajectory_id", "item", "rater", "id")
    in_memory = list(ordered.values_list("trajectory_id", "item", "rater", "source", "score"))
    assert sorted(in_memory, key=lambda row: row[:3]) == sorted(rows, key=lambda row: row[:3])
    frame = RatingsFrame.from_rows(in_memory, chunk_size=len(in_memory))
    memory = agreement_compute(rubric=RUBRIC, frame=frame)
    bootstrap_attach(memory, rubric=RUBRIC, frame=frame, replicates=300)
    for key in ("judge", "groups", "overall", "items", "bootstrap", "notes"):
        assert stored[key] == memory.report[key], key
    assert stored["overall"]["n_na"] == sum(1 for row in rows if row[4] is None)
    assert stored["overall"]["ci95"]["mean_diff"] is not None
