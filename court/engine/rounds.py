"""How many rounds a phase runs: its own count, or once per item of a list read from the
trial (the questions the client brings to the consultation, the seats asked whether they
appeal)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from court.engine.state import TrialState
from court.procedures.structure import Phase


def consultation_questions_for(case: Mapping[str, Any], side: str) -> list[str]:
    """The questions ``side``'s client brings to LC; unsided ones belong to the target side."""
    return [
        item["question"]
        for item in case.get("consultation") or []
        if item.get("side", side) == side and item.get("question")
    ]


def phase_rounds(state: TrialState, phase: Phase) -> int:
    if phase.repeat_per == "consultation_questions":
        return max(1, len(consultation_questions_for(state.case, state.target_side)))
    if phase.repeat_per == "appeal_deciders":
        return len(state.appeal_deciders)
    return phase.rounds
