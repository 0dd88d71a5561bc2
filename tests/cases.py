"""Cases as the tests need them: a seed stored as it is, bypassing import validation (for
seeds planted with canaries or payloads a case file would not carry)."""

from __future__ import annotations

from trials.models import Case


def case_stored(seed: dict) -> Case:
    return Case.objects.create(
        id=seed["id"],
        procedure=seed["procedure"],
        title=seed["title"],
        language=seed["language"],
        cause_of_action=seed["cause_of_action"],
        seed=seed,
    )
