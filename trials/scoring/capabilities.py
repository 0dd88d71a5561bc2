"""LongJud-Bench capabilities of a trial's target lawyer (LegalWorld §4.4, C.1-C.2, Table 9;
docs/sources.md).

Every scored item is normalised to [0,1]: exact-match slots are 0 or 1, semantic items are a
scorer's 0-10 divided by 10. Items are grouped by stage into the eight capabilities; the
drafting and advocacy capabilities keep their first-instance (CD/DD, FIT) and second-instance
(AD/AR, SIT) halves apart, as in Table 3. Only what the target seat was responsible for is
counted: its own turns and the documents it filed. When a person is the subject, a stage the
target seat's agent played instead (stages simulated before a student joined) is marked and
left out.

Item-to-capability mapping (Table 9): drafting's party identity and procedural slots feed
party identification; claims/defences (first instance) and appeal requests or responses with
their linkage to the first-instance judgment (second instance) feed claim construction;
facts and reasons / appeal reasons, with the document's coherence (its standard sections),
feed fact marshalling; the evidence list / new evidence feeds evidence marshalling. Trial
statements are scored per phase on three dimensions, one per advocacy capability.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from statistics import fmean
from typing import Any

from trials.documents import DOCUMENTS, document_sections
from trials.engine.state import ArtifactRecord, TrialState, TurnRecord
from trials.procedures.seats import opposite, target_seat
from trials.scoring.references import (
    CRIMINAL_COUNSEL_STAGES,
    civil_hearing_references,
    criminal_hearing_references,
    evidence_points,
    listing,
    sentences,
)
from trials.scoring.scorers import Criterion, Rating, Scorer, points_raised
from trials.scoring.text import normalise

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


@dataclass
class Item:
    stage: str
    capability: str
    id: str
    kind: str
    score: float
    reason: str
    links: list[dict[str, Any]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    """Reference points the subject did not raise; shown to a student only after the trial."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Pending:
    """A semantic item waiting for its scorer's rating."""

    stage: str
    capability: str
    criterion: Criterion
    links: list[dict[str, Any]]
    missing: list[str]


def seat_of_subject(state: TrialState) -> str:
    return target_seat(state.procedure, state.target_side)


def subject_of(state: TrialState) -> str:
    """``human`` when a person held the target seat in any stage, else ``agent``."""
    seat = seat_of_subject(state)
    return "human" if any(turn.seat == seat and turn.author == "human" for turn in state.turns) else "agent"


def stage_author(state: TrialState, stage: str) -> str | None:
    """Who played the target seat in ``stage``: human, agent, or None when it did not act."""
    seat = seat_of_subject(state)
    authors = {turn.author for turn in state.turns if turn.stage == stage and turn.seat == seat}
    return "human" if "human" in authors else ("agent" if authors else None)


def _own_turns(state: TrialState, stage: str, phase: str | None = None) -> list[TurnRecord]:
    seat = seat_of_subject(state)
    return [
        turn
        for turn in state.turns
        if turn.stage == stage and turn.seat == seat and (phase is None or turn.phase == phase)
    ]


def _artifact(state: TrialState, stage: str) -> ArtifactRecord | None:
    return next((artifact for artifact in state.artifacts if artifact.stage == stage), None)


def turn_links(turns: list[TurnRecord]) -> list[dict[str, Any]]:
    return [{"turn": turn.seq, "stage": turn.stage, "phase": turn.phase} for turn in turns]


def _doc_link(artifact: ArtifactRecord, section: str | None = None) -> dict[str, Any]:
    return {"artifact": artifact.kind, "stage": artifact.stage, "section": section}


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
    from trials.engine.visibility import consultation_questions_for

    questions = consultation_questions_for(state.case, state.target_side)
    references = {item.get("question"): item.get("reference_answer", "") for item in state.case.get("consultation", [])}
    answers = [turn for turn in _own_turns(state, "LC") if turn.act == "answer_question"]
    pending = []
    for index, question in enumerate(questions):
        answer = answers[index] if index < len(answers) else None
        parts = _answer_parts(references.get(question, ""))
        for dimension in LC_DIMENSIONS:
            candidate = answer.text if answer else ""
            _, missing = points_raised(sentences(parts[dimension]), candidate, state.language)
            criterion = Criterion(
                f"LC.q{index + 1}.{dimension}",
                f"Consultation question {index + 1} ({question}): {dimension} of the answer",
                parts[dimension],
                candidate,
            )
            pending.append(Pending("LC", "issue_spotting", criterion, turn_links([answer] if answer else []), missing))
    return pending


# --- Drafting: CD/DD and AD/AR (formula 6) ---------------------------------------------------


def _party_names(state: TrialState, side: str) -> list[str]:
    return [party["name"] for party in state.case.get("parties", []) if party.get("side") == side]


def party_slots(state: TrialState, stage: str, document: ArtifactRecord) -> list[Item]:
    """One exact slot per side: the document names that side's (first) party."""
    return [
        _exact(stage, f"party.{side}", name, document)
        for side in (state.target_side, opposite(state.target_side))
        for name in _party_names(state, side)[:1]
    ]


def _materials(state: TrialState, stage: str, document: ArtifactRecord) -> str:
    """The document and what the target seat said while preparing it (evidence is discussed
    with the client rather than listed in the pleading)."""
    return document.text + "\n" + "\n".join(turn.text for turn in _own_turns(state, stage))


def _exact(stage: str, item_id: str, wanted: str, document: ArtifactRecord) -> Item:
    found = bool(wanted) and normalise(wanted) in normalise(document.text)
    reason = f"names {wanted}" if found else f"does not name {wanted!r}"
    return Item(
        stage, "party_identification", f"{stage}.{item_id}", "exact", float(found), reason, [_doc_link(document)]
    )


def coherence_item(stage: str, document: ArtifactRecord, language: str) -> Item:
    """The share of the document's standard sections it contains (a heading or its body)."""
    template = DOCUMENTS[document.kind]
    headings = template.headings(language)
    present = [heading for _, heading in headings if normalise(heading) in normalise(document.text)]
    missing = [heading for _, heading in headings if heading not in present]
    reason = f"{len(present)} of {len(headings)} standard sections" + (
        f"; missing {', '.join(missing)}" if missing else ""
    )
    return Item(
        stage,
        "fact_marshalling",
        f"{stage}.coherence",
        "exact",
        len(present) / len(headings),
        reason,
        [_doc_link(document)],
    )


def _semantic(
    stage: str, capability: str, item: str, instruction: str, points: list[str], candidate: str, links, language: str
) -> Pending:
    _, missing = points_raised(points, candidate, language)
    return Pending(
        stage, capability, Criterion(f"{stage}.{item}", instruction, "\n".join(points), candidate), links, missing
    )


def _first_instance_drafting(
    state: TrialState, stage: str, document: ArtifactRecord
) -> tuple[list[Item], list[Pending]]:
    side = state.target_side
    first = state.case.get("first_instance") or {}
    court = (state.case.get("metadata") or {}).get("court_name", "")
    exact = party_slots(state, stage, document)
    if court:
        exact.append(_exact(stage, "court", court, document))
    exact.append(coherence_item(stage, document, state.language))
    position = listing(first.get("claims")) if side == "plaintiff" else sentences(first.get("defenses", ""))
    facts = sentences(first.get("facts_and_reasons", "") if side == "plaintiff" else first.get("defenses", ""))
    link = [_doc_link(document)]
    pending = [
        _semantic(
            stage,
            "claim_construction",
            "claims",
            "claims or defences pleaded",
            position,
            document.text,
            link,
            state.language,
        ),
        _semantic(stage, "fact_marshalling", "facts", "facts and reasons", facts, document.text, link, state.language),
        _semantic(
            stage,
            "evidence_marshalling",
            "evidence",
            "evidence identified for the pleading",
            evidence_points(first.get("evidence", []), side),
            _materials(state, stage, document),
            link + turn_links(_own_turns(state, stage)),
            state.language,
        ),
    ]
    return exact, pending


def _second_instance_drafting(
    state: TrialState, stage: str, document: ArtifactRecord
) -> tuple[list[Item], list[Pending]]:
    second = state.case.get("second_instance") or {}
    side = state.target_side
    appellant = state.appellant_side == side
    exact = party_slots(state, stage, document)
    exact.append(coherence_item(stage, document, state.language))
    position = listing(second.get("appeal_requests")) if appellant else sentences(second.get("appellee_defenses", ""))
    reasons = sentences(second.get("appeal_reasons", "") if appellant else second.get("appellee_defenses", ""))
    judgment = _artifact(state, "FIT")
    linkage = listing(second.get("affected_items")) + (sentences(_orders(judgment)) if judgment else [])
    link = [_doc_link(document)]
    pending = [
        _semantic(
            stage,
            "claim_construction",
            "requests",
            "appeal requests or response",
            position,
            document.text,
            link,
            state.language,
        ),
        _semantic(
            stage,
            "claim_construction",
            "linkage",
            "linkage to the first-instance judgment",
            linkage,
            document.text,
            link,
            state.language,
        ),
        _semantic(
            stage,
            "fact_marshalling",
            "reasons",
            "appeal reasons or answers to them",
            reasons,
            document.text,
            link,
            state.language,
        ),
    ]
    new_evidence = evidence_points(second.get("new_evidence", []), side)
    if new_evidence:
        pending.append(
            _semantic(
                stage,
                "evidence_marshalling",
                "new_evidence",
                "new evidence",
                new_evidence,
                _materials(state, stage, document),
                link,
                state.language,
            )
        )
    return exact, pending


def _orders(judgment: ArtifactRecord) -> str:
    """The orders of a generated judgment, else all of it."""
    return document_sections(judgment.text, judgment.kind).get("orders") or judgment.text


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
        statements = _own_turns(state, stage, phase)
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
            _, missing = points_raised(references[capability], candidate, state.language)
            criterion = Criterion(
                f"{prefix}.{capability}",
                f"{phase or stage} {'phase' if phase else 'stage'}: {instruction}",
                "\n".join(references[capability]),
                candidate,
            )
            pending.append(Pending(stage, capability, criterion, turn_links(statements), missing))
    return missing_items, pending


# --- Assembly --------------------------------------------------------------------------------


def _stage_items(state: TrialState, stage: str) -> tuple[list[Item], list[Pending]]:
    if stage == "LC":
        return [], _lc_pending(state)
    if stage in ("FIT", "SIT") or stage in CRIMINAL_COUNSEL_STAGES:
        return _trial_pending(state, stage)
    document = _artifact(state, stage)
    if stage in ("CD", "DD", "AD", "AR") and document is None:
        return [], []
    if stage in ("CD", "DD"):
        return _first_instance_drafting(state, stage, document)
    if stage in ("AD", "AR"):
        return _second_instance_drafting(state, stage, document)
    return [], []


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
        exact, pending = _stage_items(state, stage)
        ratings = scorer.rate([entry.criterion for entry in pending], state.language)
        items += exact + [rated_item(entry, ratings[entry.criterion.id]) for entry in pending]
    return items, skipped


def rated_item(entry: Pending, rating: Rating) -> Item:
    return Item(
        entry.stage,
        entry.capability,
        entry.criterion.id,
        "semantic",
        round(rating.score / 10, 6),
        rating.reason,
        entry.links,
        entry.missing,
    )


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
