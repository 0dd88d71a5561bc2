"""MILE interaction quality (MASER §3 and B.1, docs/sources.md): interactivity, professionality
and logicality of the target lawyer's dialogue, judged on two-turn windows (the other party's
turn and the lawyer's reply) of the dialogue stages (LC, CD/DD, AD/AR).

MILE has a judge model score each window 1-10. The same ``Scorer`` interface does it here:
the LLM judge, or offline the rule-based scorer over a reference that spells out what each
aspect looks for: the other party's words to engage with (interactivity); the legal
vocabulary and citations of the case's own legal references (professionality); for
logicality, a reply that follows on from the other party's words "without repeating any of
the previously discussed topics" (B.1), the lawyer's earlier replies in the stage given as
what was already said, so a reply that says again what the lawyer said before scores less,
never more. A reply counts as far as it is about this case (``grounding.substance``): one
without legal content of the case scores 0 on every aspect, whoever rates it. Scores are
normalised to [0,1].
"""

from __future__ import annotations

from itertools import pairwise
from statistics import fmean
from typing import Any

from court.engine.state import TrialState, TurnRecord
from scoring.capabilities import stage_author, subject_of
from scoring.grounding import substance
from scoring.items import seat_of_subject
from scoring.scorers import Criterion, Scorer

DIALOGUE_STAGES = ("LC", "CD", "DD", "AD", "AR")
ASPECTS = {
    "interactivity": "engages with what the other party just said: answers it, asks what is unclear",
    "professionality": "precise legal terms, cited law, a professional strategy",
    "logicality": "a logical reply to what the other party just said, without repeating what was already discussed",
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


def window_criteria(state: TrialState) -> list[Criterion]:
    """Three criteria per window, ``MILE.INDEX.ASPECT``; logicality carries the lawyer's
    earlier replies of the same stage as what was already said."""
    criteria: list[Criterion] = []
    earlier: dict[str, list[str]] = {}
    for index, (before, reply) in enumerate(windows(state)):
        said = earlier.setdefault(reply.stage, [])
        references = {
            "interactivity": before.text,
            "professionality": _legal_vocabulary(state),
            "logicality": before.text,
        }
        criteria += [
            Criterion(
                f"MILE.{index}.{aspect}",
                f"{aspect}: {ASPECTS[aspect]}",
                references[aspect],
                reply.text,
                "\n".join(said) if aspect == "logicality" else "",
            )
            for aspect in ASPECTS
        ]
        said.append(reply.text)
    return criteria


def interaction_quality(state: TrialState, scorer: Scorer) -> dict[str, Any]:
    """Each aspect's mean over the windows, in [0,1], and the number of windows; None for
    every aspect when the subject had no dialogue."""
    criteria = window_criteria(state)
    count = len(criteria) // len(ASPECTS)
    if not count:
        return {aspect: None for aspect in ASPECTS} | {"windows": 0}
    grounds = [substance(reply.text, state.case, state.language).value for _, reply in windows(state)]
    ratings = scorer.rate([criterion for criterion in criteria if grounds[_index(criterion)]], state.language)
    result: dict[str, Any] = {
        aspect: fmean(
            ratings[f"MILE.{index}.{aspect}"].score / 10 * grounds[index] if grounds[index] else 0.0
            for index in range(count)
        )
        for aspect in ASPECTS
    }
    return result | {"windows": count}


def _index(criterion: Criterion) -> int:
    return int(criterion.id.split(".")[1])
