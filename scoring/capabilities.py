"""LongJud-Bench capabilities of a trial's target lawyer (LegalWorld §4.4, C.1-C.2, Table 9;
docs/sources.md).

Every scored item is normalised to [0,1]: exact-match slots are 0 or 1, semantic items are a
scorer's 0-10 divided by 10. Items are grouped by stage into the eight capabilities; the
drafting and advocacy capabilities keep their first-instance (CD/DD, FIT) and second-instance
(AD/AR, SIT) halves apart, as in Table 3. Only what the target seat was responsible for is
counted: its own turns and the documents it filed. When a person is the subject, a stage the
target seat's agent played instead (stages simulated before a student joined) is marked and
left out.

Item-to-capability mapping (Table 9): drafting's party identity, appellate role and
procedural slots feed party identification; claims/defences and the requested disposition
(first instance), the appeal request/response slot and the linkage to the first-instance
judgment (second instance) feed claim construction; facts and reasons / appeal reasons, with
the document's coherence, feed fact marshalling; the evidence list / new evidence feeds
evidence marshalling (the drafting formula's fields: ``scoring.drafting``). Trial
statements are scored per phase on three dimensions, one per advocacy capability.

A stage counts for the subject when it was the subject's to play: the consultation it gave,
the drafting stage of its side, every hearing (a phase without its statement scores 0).

What the subject says counts as far as it is about this case (``scoring.grounding``):
a statement or document without legal content of the case scores 0 on every item, whoever
rates it, and a drafting stage's exact slots count only in a document of the case. Position
consistency is judged against the side's position as the case file records it
(``references.pleaded_position``), never against the subject's own pleading, which would
make any pleading consistent with its own echo. A "not raised" list holds the reference
points the subject's side made nowhere in the trial (``items.not_raised``).
"""

from __future__ import annotations

import re
from statistics import fmean
from typing import Any

from court.engine.state import TrialState
from scoring.drafting import DRAFTING_KINDS, coherence_capped, drafting_items
from scoring.items import Item, Pending, not_raised, own_turns, rated_items, seat_of_subject, turn_links
from scoring.references import (
    CRIMINAL_COUNSEL_STAGES,
    civil_hearing_references,
    criminal_hearing_references,
    sentences,
)
from scoring.scorers import Criterion, Scorer

CAPABILITIES = (
    "issue_spotting",
    "party_identification",
    "claim_construction",
    "fact_marshalling",
    "evidence_marshalling",
    "position_consistency",
    "evidentiary_advocacy",
    "legal_reasoning",
)
HALF_OF_STAGE = {
    "CD": "first",
    "DD": "first",
    "FIT": "first",
    "AD": "second",
    "AR": "second",
    "SIT": "second",
    **dict.fromkeys(CRIMINAL_COUNSEL_STAGES, "first"),
}
"""A criminal trial has one instance: its counsel's stages are first-instance advocacy."""
LC_DIMENSIONS = ("relationship", "rule", "risk", "advice")
TRIAL_DIMENSIONS = {
    "position_consistency": "consistency between the statements and the pleaded position",
    "evidentiary_advocacy": "use of facts and evidence",
    "legal_reasoning": "sufficiency of the legal reasoning",
}
SCORED_PHASES = ("investigation", "evidence", "debate")
"""The trial phases in which counsel makes a required statement (Algorithm 1)."""


def subject_of(state: TrialState) -> str:
    """``human`` when a person held the target seat in any stage, else ``agent``."""
    seat = seat_of_subject(state)
    return "human" if any(turn.seat == seat and turn.author == "human" for turn in state.turns) else "agent"


def stage_author(state: TrialState, stage: str) -> str | None:
    """Who played the target seat in ``stage``: human, agent, or None when it did not act."""
    seat = seat_of_subject(state)
    authors = {turn.author for turn in state.turns if turn.stage == stage and turn.seat == seat}
    return "human" if "human" in authors else ("agent" if authors else None)


# --- LC: issue spotting (formula 5) ----------------------------------------------------------


def _answer_parts(reference: str) -> dict[str, str]:
    """The reference answer split by dimension: the legal relationship is stated first, risk
    and advice sentences name themselves, the rest (statutes, reasons) is the rule."""
    said = sentences(reference)
    parts: dict[str, list[str]] = {dimension: [] for dimension in LC_DIMENSIONS}
    for index, sentence in enumerate(said):
        lowered = sentence.lower()
        if "风险" in sentence or "risk" in lowered:
            parts["risk"].append(sentence)
        elif re.search(r"建议|应当尽快|recommend|advise|keep |gather|collect|you should", lowered):
            parts["advice"].append(sentence)
        elif index == 0:
            parts["relationship"].append(sentence)
        else:
            parts["rule"].append(sentence)
    if not parts["advice"] and len(said) > 1:
        parts["advice"].append(said[-1])
    return {dimension: " ".join(found) or reference for dimension, found in parts.items()}


def _lc_pending(state: TrialState) -> list[Pending]:
    from court.engine.visibility import consultation_questions_for

    questions = consultation_questions_for(state.case, state.target_side)
    references = {item.get("question"): item.get("reference_answer", "") for item in state.case.get("consultation", [])}
    answers = [turn for turn in own_turns(state, "LC") if turn.act == "answer_question"]
    pending = []
    for index, question in enumerate(questions):
        answer = answers[index] if index < len(answers) else None
        parts = _answer_parts(references.get(question, ""))
        for dimension in LC_DIMENSIONS:
            candidate = answer.text if answer else ""
            missing = not_raised(state, sentences(parts[dimension]))
            criterion = Criterion(
                f"LC.q{index + 1}.{dimension}",
                f"Consultation question {index + 1} ({question}): {dimension} of the answer",
                parts[dimension],
                candidate,
            )
            pending.append(Pending("LC", "issue_spotting", criterion, turn_links([answer] if answer else []), missing))
    return pending


# --- FIT/SIT: advocacy (formula 7) -----------------------------------------------------------


def _trial_pending(state: TrialState, stage: str) -> tuple[list[Item], list[Pending]]:
    """Counsel's statements on the three advocacy dimensions: per scored phase of a civil
    hearing (Algorithm 1), per stage of a criminal trial (its phases are short exchanges)."""
    if state.procedure == "criminal":
        references, phases = criminal_hearing_references(state), (None,)
    else:
        references, phases = civil_hearing_references(state, stage), SCORED_PHASES
    missing_items, pending = [], []
    for phase in phases:
        prefix = f"{stage}.{phase}" if phase else stage
        statements = own_turns(state, stage, phase)
        if not statements:
            invitation = next(
                (turn for turn in state.turns if turn.stage == stage and phase in (None, turn.phase)), None
            )
            links = turn_links([invitation] if invitation else [])
            missing_items += [
                Item(stage, capability, f"{prefix}.{capability}", "semantic", 0.0, "no statement here", links)
                for capability in TRIAL_DIMENSIONS
            ]
            continue
        candidate = "\n".join(turn.text for turn in statements)
        for capability, instruction in TRIAL_DIMENSIONS.items():
            missing = not_raised(state, references[capability])
            criterion = Criterion(
                f"{prefix}.{capability}",
                f"{phase or stage} {'phase' if phase else 'stage'}: {instruction}",
                "\n".join(references[capability]),
                candidate,
            )
            pending.append(Pending(stage, capability, criterion, turn_links(statements), missing))
    return missing_items, pending


# --- Assembly --------------------------------------------------------------------------------


def _stage_items(state: TrialState, stage: str) -> tuple[list[Item], list[Pending]] | None:
    """The stage's items for the subject; None when the stage was not the subject's to play
    (another side's drafting, a consultation it took no part in) or is still being drafted."""
    if stage == "LC":
        return ([], _lc_pending(state)) if own_turns(state, "LC") else None
    if stage in ("FIT", "SIT") or stage in CRIMINAL_COUNSEL_STAGES:
        return _trial_pending(state, stage)
    if stage in DRAFTING_KINDS:
        return drafting_items(state, stage)
    return None


def capability_items(state: TrialState, scorer: Scorer) -> tuple[list[Item], dict[str, str]]:
    """Every scored item of the subject, and the stages left out (stage -> why)."""
    subject = subject_of(state)
    items, skipped = [], {}
    for stage in state.stage_history:
        if stage != "LC" and stage not in HALF_OF_STAGE:
            continue
        if subject == "human" and stage_author(state, stage) == "agent":
            skipped[stage] = "played by an agent before or instead of the student; not scored for the student"
            continue
        scored = _stage_items(state, stage)
        if scored is None:
            continue
        exact, pending = scored
        items += exact + rated_items(pending, state, scorer)
    return coherence_capped(items), skipped


def capability_scores(items: list[Item]) -> dict[str, Any]:
    """The eight capabilities: issue spotting single, the others as first/second halves;
    ``None`` where the stage was not run (or not scored)."""
    scores: dict[str, Any] = {}
    for capability in CAPABILITIES:
        mine = [item for item in items if item.capability == capability]
        if capability == "issue_spotting":
            scores[capability] = fmean(item.score for item in mine) if mine else None
            continue
        halves = {}
        for half in ("first", "second"):
            values = [item.score for item in mine if HALF_OF_STAGE[item.stage] == half]
            halves[half] = fmean(values) if values else None
        scores[capability] = halves
    return scores


def stage_scores(items: list[Item]) -> dict[str, float]:
    """Formulas 5-7: the mean over a stage's items. LC items are per question and dimension
    and trial items per phase and dimension, all equally many per question/phase, so the
    plain mean equals the nested means of formulas 5 and 7."""
    stages: dict[str, list[float]] = {}
    for item in items:
        stages.setdefault(item.stage, []).append(item.score)
    return {stage: fmean(values) for stage, values in stages.items()}
