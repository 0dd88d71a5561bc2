"""Reads for the annotation app."""

from __future__ import annotations

from annotation.agreement import RatingsFrame
from annotation.models import Rating


def ratings_frame(*, rubric_id: str) -> RatingsFrame:
    rows = Rating.objects.filter(rubric_id=rubric_id).values_list("trajectory_id", "item", "rater", "source", "score")
    return RatingsFrame.from_rows(rows.iterator(chunk_size=20000))
