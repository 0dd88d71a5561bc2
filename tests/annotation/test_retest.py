"""Test-retest pairs: each rating with the same rater's previous one of another study."""

from __future__ import annotations

from annotation.retest import RetestPairs

ROWS = [
    # rater, trajectory, item, study, score; in the order the studies were run
    ("ann", "t1", "LC.process_coherence", 1, 5.0),
    ("ann", "t1", "LC.process_coherence", 2, 6.0),
    ("ann", "t1", "LC.process_coherence", 3, 8.0),
    ("ann", "t1", "FIT.process_coherence", 3, 4.0),
    ("ann", "t2", "FIT.process_coherence", 1, 9.0),
    ("bo", "t2", "FIT.process_coherence", 2, 3.0),
]


def pairs_of(pairs: RetestPairs) -> list[tuple]:
    return list(zip(pairs.rater, pairs.item, pairs.first, pairs.second, strict=True))


def test_three_studies_make_two_pairs_and_other_raters_or_items_none():
    assert pairs_of(RetestPairs.from_rows(ROWS)) == [
        ("ann", "LC.process_coherence", 5.0, 6.0),
        ("ann", "LC.process_coherence", 6.0, 8.0),
    ]


def test_a_study_keeps_only_the_pairs_it_took_part_in():
    assert pairs_of(RetestPairs.from_rows(ROWS, study_id=1)) == [("ann", "LC.process_coherence", 5.0, 6.0)]
    assert pairs_of(RetestPairs.from_rows(ROWS, study_id=3)) == [("ann", "LC.process_coherence", 6.0, 8.0)]
