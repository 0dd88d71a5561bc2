"""A rubric's ratings as parallel numpy arrays, filled chunk by chunk: the rows of a database
cursor (or any iterable) are coded a chunk at a time, so ten million ratings cost their
arrays (about 33 bytes a rating), never a list of ten million tuples."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from operator import itemgetter
from typing import Any

import numpy as np

CHUNK_ROWS = 10_000
"""Rows coded at a time: enough that numpy does the work, few enough that a chunk's Python
objects die young (a long-lived batch of rows wakes the garbage collector's full scans)."""

Row = tuple[str, str, str, str, "float | None"]


@dataclass
class RatingsFrame:
    """Ratings of one rubric as parallel arrays; strings are coded once, here, in the order
    they first appear. Scores only: ``n_na`` counts, per item, the people's N/A answers (one
    per rater and trajectory)."""

    trajectories: list[str]
    items: list[str]
    raters: list[str]
    trajectory: np.ndarray
    item: np.ndarray
    rater: np.ndarray
    is_llm: np.ndarray
    score: np.ndarray
    n_na: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_rows(cls, rows: Iterable[Row], chunk_size: int | None = None) -> RatingsFrame:
        """Rows of (trajectory_id, item, rater, source, score), ``None`` for N/A; read
        ``chunk_size`` rows at a time (a database cursor's ``iterator()`` streams them)."""
        return cls.from_columns(_column_chunks(rows, chunk_size or CHUNK_ROWS))

    @classmethod
    def from_columns(cls, chunks: Iterable[Sequence[Sequence[Any]]]) -> RatingsFrame:
        """Chunks of five columns (trajectory ids, items, raters, sources, scores), each a
        sequence or array; the same frame as ``from_rows`` of the same rows."""
        builder = _FrameBuilder()
        for trajectory, item, rater, source, score in chunks:
            builder.add(trajectory, item, rater, source, score)
        return builder.frame()

    def last_per_rater(self) -> RatingsFrame:
        """One row per (trajectory, item, rater, source), the last: a rater who rated an item
        of a trajectory in several studies counts once, with the score given last."""
        key = ((self.trajectory * max(len(self.items), 1) + self.item) * max(len(self.raters), 1) + self.rater) * 2
        key = key + self.is_llm
        ordered = np.sort(key)
        if not np.any(ordered[1:] == ordered[:-1]):
            return self
        _values, first_from_end = np.unique(key[::-1], return_index=True)
        keep = np.sort(key.size - 1 - first_from_end)
        return replace(
            self,
            trajectory=self.trajectory[keep],
            item=self.item[keep],
            rater=self.rater[keep],
            is_llm=self.is_llm[keep],
            score=self.score[keep],
        )

    def judges(self) -> list[str]:
        return sorted({self.raters[code] for code in np.unique(self.rater[self.is_llm])})


COLUMNS = tuple(itemgetter(position) for position in range(5))


def _column_chunks(rows: Iterable[Row], size: int) -> Iterator[list[list[Any]]]:
    iterator = iter(rows)
    while batch := list(islice(iterator, size)):
        yield [list(map(column, batch)) for column in COLUMNS]


class _Codes(dict[str, int]):
    """Codes of strings in the order they are first looked up: a new string gets the next."""

    def __missing__(self, value: str) -> int:
        code = self[value] = len(self)
        return code


def _code(table: _Codes, column: Iterable[str], size: int) -> np.ndarray:
    return np.fromiter(map(table.__getitem__, column), dtype=np.int64, count=size)


class _Growing:
    """A column that grows in place: its buffer doubles by ``ndarray.resize`` (a ``realloc``,
    which moves no pages for a large block), so filling it touches each value once."""

    def __init__(self, dtype: type) -> None:
        self.buffer = np.empty(CHUNK_ROWS, dtype=dtype)
        self.size = 0

    def extend(self, values: np.ndarray) -> None:
        end = self.size + values.size
        if end > self.buffer.size:
            self.buffer.resize(max(2 * self.buffer.size, end), refcheck=False)
        self.buffer[self.size : end] = values
        self.size = end

    def array(self) -> np.ndarray:
        self.buffer.resize(self.size, refcheck=False)
        return self.buffer


class _FrameBuilder:
    """Codes chunks of rows into growing columns."""

    def __init__(self) -> None:
        self.tables = (_Codes(), _Codes(), _Codes())
        self.columns = tuple(_Growing(dtype) for dtype in (np.int64, np.int64, np.int64, bool, float))
        self.not_applicable: set[tuple[str, str, str]] = set()

    def add(self, *columns: Sequence[Any]) -> None:
        trajectory, item, rater, source, score = columns
        scores = np.asarray(score, dtype=float)
        is_llm = np.fromiter(map("llm".__eq__, source), dtype=bool, count=scores.size)
        missing = np.isnan(scores)
        names = (trajectory, item, rater)
        if missing.any():
            people = np.flatnonzero(missing & ~is_llm)
            self.not_applicable.update(zip(*(_take(column, people) for column in names), strict=True))
            kept = np.flatnonzero(~missing)
            names = tuple(_take(column, kept) for column in names)
            scores, is_llm = scores[kept], is_llm[kept]
        for table, growing, column in zip(self.tables, self.columns[:3], names, strict=True):
            growing.extend(_code(table, column, scores.size))
        self.columns[3].extend(is_llm)
        self.columns[4].extend(scores)

    def frame(self) -> RatingsFrame:
        trajectory, item, rater, is_llm, score = (column.array() for column in self.columns)
        return RatingsFrame(
            trajectories=list(self.tables[0]),
            items=list(self.tables[1]),
            raters=list(self.tables[2]),
            trajectory=trajectory,
            item=item,
            rater=rater,
            is_llm=is_llm,
            score=score,
            n_na=dict(Counter(item for _trajectory, item, _rater in self.not_applicable)),
        )


def _take(column: Sequence[Any], positions: np.ndarray) -> np.ndarray:
    return np.asarray(column, dtype=object)[positions]


def codes_in(keys: np.ndarray, space: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``keys`` (integers from 0 to ``space`` - 1), sorted, and each key's
    position among them: counted while the space is small, sorted beyond."""
    if space <= 4 * keys.size + 1024:
        present = np.bincount(keys, minlength=space) > 0
        return np.flatnonzero(present), (np.cumsum(present) - 1)[keys]
    distinct, inverse = np.unique(keys, return_inverse=True)
    return distinct, inverse.reshape(-1)


def distinct_keys(keys: np.ndarray, space: int) -> np.ndarray:
    """``codes_in``'s distinct keys alone."""
    if space <= 4 * keys.size + 1024:
        return np.flatnonzero(np.bincount(keys, minlength=space))
    return np.unique(keys)


SAMPLE = 100_000


def value_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct ``values``, sorted, and each value's position among them. Scores take few
    values, usually all of them among the first ``SAMPLE``: a binary search among those then
    replaces sorting every score."""
    seen = np.unique(values[:SAMPLE])
    if seen.size:
        position = np.minimum(np.searchsorted(seen, values), seen.size - 1)
        if np.array_equal(seen[position], values):
            return seen, position
    distinct, inverse = np.unique(values, return_inverse=True)
    return distinct, inverse.reshape(-1)
