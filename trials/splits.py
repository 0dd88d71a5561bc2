"""Case splits (LegalWorld B.3, Table 7; docs/sources.md): Full, and the cause-balanced Medium
and Light.

Medium takes the 100 most frequent causes of action, 10 cases each, sampled without
replacement under the fixed seed; Light keeps Medium's 20 most frequent causes with five
cases each, again under the seed. Over a library smaller than the paper's, a cause with
fewer cases contributes what it has. Ties in frequency go to the cause that sorts first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from agents.personas import SPLIT_SEED

SPLITS = ("light", "medium", "full")
MEDIUM = (100, 10)
LIGHT = (20, 5)


def split_sample(cases: Iterable[tuple[str, str]], split: str, *, seed: int = SPLIT_SEED) -> list[str]:
    """The case ids of ``split`` from ``(case_id, cause_of_action)`` pairs, cause by cause."""
    by_cause: dict[str, list[str]] = {}
    for case_id, cause in sorted(cases):
        by_cause.setdefault(cause, []).append(case_id)
    if split == "full":
        return [case_id for ids in by_cause.values() for case_id in ids]
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")
    frequency = Counter({cause: len(ids) for cause, ids in by_cause.items()})
    ranked = sorted(frequency, key=lambda cause: (-frequency[cause], cause))
    medium = _stratified(ranked[: MEDIUM[0]], by_cause, MEDIUM[1], random.Random(seed))
    if split == "medium":
        return [case_id for cause in ranked[: MEDIUM[0]] for case_id in medium[cause]]
    light = _stratified(ranked[: LIGHT[0]], medium, LIGHT[1], random.Random(seed))
    return [case_id for cause in ranked[: LIGHT[0]] for case_id in light[cause]]


def _stratified(
    causes: list[str], pool: dict[str, list[str]], per_cause: int, rng: random.Random
) -> dict[str, list[str]]:
    return {cause: sorted(rng.sample(pool[cause], min(per_cause, len(pool[cause])))) for cause in causes}
