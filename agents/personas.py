"""LCPF client personas (LegalWorld A.4, Table 6; docs/sources.md) and the medium-level
redistribution rule.

When more than 60% of a split's cases are ``medium`` on a dimension, medium labels are
reassigned to ``high`` or ``low`` at random (seeded), taking cases from the causes of action
that hold the most medium labels first so the split stays cause-balanced, until the medium
share falls below 60%. The level distribution before and after is returned for the log.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

DIMENSIONS = ("legal_literacy", "disclosure_willingness", "emotional_stability", "narrative_proficiency")
LEVELS = ("high", "medium", "low")
MEDIUM_SHARE_LIMIT = 0.6
SPLIT_SEED = 20251217


@dataclass(frozen=True)
class Redistribution:
    personas: dict[str, dict[str, str]]
    before: dict[str, dict[str, int]]
    after: dict[str, dict[str, int]]


def _distribution(personas: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, int]]:
    return {
        dimension: dict(Counter(persona.get(dimension, "medium") for persona in personas.values()))
        for dimension in DIMENSIONS
    }


def personas_redistribute(
    personas: Mapping[str, Mapping[str, str]], causes: Mapping[str, str], *, seed: int = SPLIT_SEED
) -> Redistribution:
    """Apply the redistribution rule to ``{case_id: persona}`` with ``{case_id: cause}``."""
    rng = random.Random(seed)
    result = {case_id: {dim: persona.get(dim, "medium") for dim in DIMENSIONS} for case_id, persona in personas.items()}
    total = len(result)
    for dimension in DIMENSIONS:
        medium = sorted(case_id for case_id, persona in result.items() if persona[dimension] == "medium")
        by_cause: dict[str, list[str]] = {}
        for case_id in medium:
            by_cause.setdefault(causes.get(case_id, ""), []).append(case_id)
        while total and len(medium) / total >= MEDIUM_SHARE_LIMIT:
            cause = max(sorted(by_cause), key=lambda name: len(by_cause[name]))
            case_id = by_cause[cause].pop(rng.randrange(len(by_cause[cause])))
            result[case_id][dimension] = rng.choice(("high", "low"))
            medium.remove(case_id)
    return Redistribution(personas=result, before=_distribution(personas), after=_distribution(result))
