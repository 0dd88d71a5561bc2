"""MILE interaction quality (MASER §3 and B.1, docs/sources.md): interactivity, professionality
and logicality of the target lawyer's dialogue, judged on two-turn windows (the other party's
turn and the lawyer's reply) of the dialogue stages (LC, CD/DD, AD/AR).

MILE has a judge model score each window 1-10. The same ``Scorer`` interface does it here:
the LLM judge, or offline the rule-based scorer over a reference that spells out what each
aspect looks for (the other party's words to engage with; the legal vocabulary and
citations of the case's own legal references; for logicality, continuity with the lawyer's
own previous reply, the share of its terms carried forward). Scores are normalised to [0,1].
"""

from __future__ import annotations

from itertools import pairwise
from statistics import fmean
from typing import Any

from trials.engine.state import TrialState, TurnRecord
from trials.scoring.capabilities import seat_of_subject, stage_author, subject_of
from trials.scoring.scorers import Criterion, Scorer

DIALOGUE_STAGES = ("LC", "CD", "DD", "AD", "AR")
ASPECTS = {
    "interactivity": "engages with what the other party just said: answers it, asks what is unclear",
    "professionality": "precise legal terms, cited law, a professional strategy",
    "logicality": "a coherent reply that follows on from the lawyer's previous reply",
}


def windows(state: TrialState) -> list[tuple[TurnRecord, TurnRecord]]:
    """(the other party's turn, the target lawyer's reply) in the dialogue stages the
    subject played."""
    seat, subject = seat_of_subject(state), subject_of(state)
    pairs = []
    for stage in DIALOGUE_STAGES:
        if subject == "human" and stage_author(state, stage) == "agent":
            continue
        turns = [turn for turn in state.turns if turn.stage == stage]
        pairs += [(before, after) for before, after in pairwise(turns) if after.seat == seat != before.seat]
    return pairs


def _legal_vocabulary(state: TrialState) -> str:
    first = state.case.get("first_instance") or {}
    return "\n".join([state.case.get("cause_of_action", ""), *(first.get("legal_references") or [])])


def interaction_quality(state: TrialState, scorer: Scorer) -> dict[str, Any]:
    pairs = windows(state)
    if not pairs:
        return {aspect: None for aspect in ASPECTS} | {"windows": 0}
    criteria, previous = [], ""
    for index, (before, reply) in enumerate(pairs):
        references = {
            "interactivity": before.text,
            "professionality": _legal_vocabulary(state),
            "logicality": previous or before.text,
        }
        criteria += [
            Criterion(f"MILE.{index}.{aspect}", f"{aspect}: {ASPECTS[aspect]}", references[aspect], reply.text)
            for aspect in ASPECTS
        ]
        previous = reply.text
    ratings = scorer.rate(criteria, state.language)
    result: dict[str, Any] = {
        aspect: fmean(ratings[f"MILE.{index}.{aspect}"].score / 10 for index in range(len(pairs))) for aspect in ASPECTS
    }
    return result | {"windows": len(pairs)}
