"""What the reference holds for a side, as points of substance (claims, facts, evidence, law).

A scorecard's "not raised" list is made of these points, so they never include a document's
boilerplate (its title, the parties' block, the court addressed): a filed pleading counts
through its substantive sections only (``PLEADING_SECTIONS``), and the case file's own
fields stand in when a pleading has no recognisable section.
"""

from __future__ import annotations

import re
from typing import Any

from trials.documents import document_sections
from trials.engine.state import TrialState
from trials.procedures.seats import target_seat

SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|(?<=[a-z)\]]\.)\s+|\n+")
LIST_MARK = re.compile(r"^\s*(?:\d+[.、)]|[一二三四五六七八九十]+、|[(（]\d+[)）])\s*")
PLEADING_SECTIONS = {
    "complaint": ("claims", "facts_and_reasons"),
    "defence": ("response_to_claims", "facts_and_reasons"),
    "appeal": ("appeal_requests", "grounds", "new_evidence"),
    "appeal_response": ("response_to_grounds", "relief_sought"),
}
"""The sections of each pleading that carry its position; the rest is form."""
CRIMINAL_COUNSEL_STAGES = ("investigation", "evidence", "debate")
"""The stages of SimCourt's trial in which counsel makes statements (its Table 3's three)."""


def sentences(text: str) -> list[str]:
    """Sentences and lines, list marks dropped; headings (ending in a colon) and one-word
    fragments are not points of substance."""
    parts = (LIST_MARK.sub("", part).strip() for part in SENTENCE_END.split(text or ""))
    return [part for part in parts if len(part) >= 4 and not part.endswith((":", "："))]


def listing(values: Any) -> list[str]:
    if isinstance(values, str):
        return [values] if values.strip() else []
    return [str(value) for value in values or [] if str(value).strip()]


def evidence_points(items: list[dict[str, Any]], side: str) -> list[str]:
    return [f"{item.get('name', '')} {item.get('purpose', '')}".strip() for item in items if item.get("side") == side]


def pleaded_position(state: TrialState, stage: str) -> list[str]:
    """The target side's position at a hearing: the substance of the pleading its lawyer
    filed for it, else what the case file says that side pleaded."""
    kinds = ("complaint", "defence") if stage == "FIT" else ("appeal", "appeal_response")
    seat = target_seat(state.procedure, state.target_side)
    filed = [
        body
        for artifact in state.artifacts
        if artifact.kind in kinds and artifact.author_seat == seat
        for section, body in document_sections(artifact.text, artifact.kind).items()
        if section in PLEADING_SECTIONS[artifact.kind]
    ]
    if filed:
        return sentences("\n".join(filed))
    block = state.case.get("first_instance" if stage == "FIT" else "second_instance") or {}
    if stage == "FIT":
        return (
            listing(block.get("claims")) if state.target_side == "plaintiff" else sentences(block.get("defenses", ""))
        )
    return [*listing(block.get("appeal_requests")), *sentences(block.get("appeal_reasons", ""))]


def civil_hearing_references(state: TrialState, stage: str) -> dict[str, list[str]]:
    """FIT/SIT: the position pleaded, the side's evidence and the law the court applied."""
    side = state.target_side
    first = state.case.get("first_instance") or {}
    second = state.case.get("second_instance") or {}
    evidence = evidence_points(first.get("evidence", []), side)
    findings = first.get("court_findings", "")
    if stage == "SIT":
        evidence = evidence_points(second.get("new_evidence", []), side) + evidence
        findings = second.get("appellate_findings", "")
    return {
        "position_consistency": pleaded_position(state, stage),
        "evidentiary_advocacy": evidence,
        "legal_reasoning": sentences(findings) + listing(first.get("legal_references")),
    }


def criminal_hearing_references(state: TrialState) -> dict[str, list[str]]:
    """SimCourt's trial for counsel: the prosecutor's position is the indictment and its
    charges, defence counsel's the defendant's goal (or, without one, what the file says of
    the defendant); evidence is the side's own; the law is what the court applied."""
    case = state.case
    side = state.target_side
    if side == "prosecution":
        position = sentences(case.get("indictment", "")) + listing(case.get("charges"))
    else:
        goal = ((case.get("goals") or {}).get("defendant") or {}).get("goal", "")
        position = sentences(goal or case.get("defendant_info", ""))
    return {
        "position_consistency": position,
        "evidentiary_advocacy": evidence_points(case.get("evidence") or [], side),
        "legal_reasoning": sentences(case.get("court_findings", "")) + listing(case.get("legal_references")),
    }
