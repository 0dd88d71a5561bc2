from __future__ import annotations

from agents.personas import DIMENSIONS, personas_redistribute


def library(n_medium: int, n_other: int) -> tuple[dict, dict]:
    personas, causes = {}, {}
    for index in range(n_medium + n_other):
        level = "medium" if index < n_medium else "high"
        personas[f"case{index:02d}"] = {dimension: level for dimension in DIMENSIONS}
        causes[f"case{index:02d}"] = ("lending", "labour", "sales")[index % 3]
    return personas, causes


def medium_share(personas: dict, dimension: str) -> float:
    return sum(persona[dimension] == "medium" for persona in personas.values()) / len(personas)


def test_over_sixty_percent_medium_is_brought_below_the_limit():
    personas, causes = library(n_medium=16, n_other=4)
    result = personas_redistribute(personas, causes)
    for dimension in DIMENSIONS:
        assert medium_share(result.personas, dimension) < 0.6
        assert medium_share(result.personas, dimension) >= 0.5, "only as many as needed are moved"
        assert result.before[dimension] == {"medium": 16, "high": 4}
        assert set(result.after[dimension]) <= {"high", "medium", "low"}


def test_reassignment_is_spread_over_causes_and_reproducible():
    personas, causes = library(n_medium=18, n_other=0)
    first = personas_redistribute(personas, causes)
    assert first.personas == personas_redistribute(personas, causes).personas
    moved = [case for case, persona in first.personas.items() if persona["legal_literacy"] != "medium"]
    moved_causes = [causes[case] for case in moved]
    assert (
        max(moved_causes.count(cause) for cause in set(moved_causes))
        - min(moved_causes.count(cause) for cause in set(moved_causes))
        <= 1
    )


def test_a_split_already_below_the_limit_is_left_alone():
    personas, causes = library(n_medium=5, n_other=5)
    assert personas_redistribute(personas, causes).personas == personas
