"""What the reference holds for a side, as points of substance (claims, facts, evidence, law).

A scorecard's "not raised" list is made of these points, so they never include a document's
boilerplate (its title, the parties' block, the court addressed), nor anything the subject
wrote: the points come from the case file (LegalWorld, Table 9's reference sources;
docs/sources.md), never from the subject's own pleadings, so a pleading cannot become the
reference its author is measured against (a pleading of "asdf" made "asdf" at the hearing
perfectly consistent). Nor are they the court's: a scorecard measures a side's statements
against the court's findings and orders, but lists as "not raised" only the points the side
itself could have made (``own_points``), never a finding, an order or the law the court applied.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from court.engine.state import TrialState

SENTENCE_END = re.compile(r"(?<=[。！？；!?;])|(?<=[a-z)\]]\.)\s+|\n+")
LIST_MARK = re.compile(r"^\s*(?:\d+[.、)]|[一二三四五六七八九十]+、|[(（]\d+[)）])\s*")
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
    """The target side's position at a hearing as the case file records it (Table 9: "the
    pleaded claims/defenses", "the appeal/response"): at FIT the plaintiff's claims or the
    defendant's defences; at SIT, when the side holds on appeal the part it held in the real
    case, the real appeal's requests and reasons (appellant) or the appellee's answer; a side
    whose part differs from the real one (it appeals where the other side did), or a file
    without the second-instance block, keeps its first-instance position."""
    first = state.case.get("first_instance") or {}
    side = state.target_side
    position = listing(first.get("claims")) if side == "plaintiff" else sentences(first.get("defenses", ""))
    if stage != "SIT":
        return position
    second = state.case.get("second_instance") or {}
    real = second.get("appellant_side")
    appellant = state.appellant_side or real
    if side == appellant == real:
        appeal = [*listing(second.get("appeal_requests")), *sentences(second.get("appeal_reasons", ""))]
    elif side != appellant and side != real:
        appeal = sentences(second.get("appellee_defenses", ""))
    else:
        appeal = []
    return appeal or position


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


def own_points(state: TrialState) -> frozenset[str]:
    """The points of the case file that the target side itself makes, or could have made: its
    claims and their facts (plaintiff) or its defences (defendant), its evidence, on appeal the
    real appeal's requests and reasons (the side that appealed in the real case) or the answer
    to them (the other side) and its new evidence, the consultation's reference answers to its
    client's questions; in a criminal trial the indictment and charges (prosecution) or the
    defendant's goal and particulars (defence), and the side's evidence. Never the court's
    findings, its orders or the articles it applied (``point_key`` compares them)."""
    if state.procedure == "criminal":
        points = _criminal_points(state)
    else:
        points = _civil_points(state) + _consultation_points(state)
    return frozenset(point_key(point) for point in points)


def point_key(point: str) -> str:
    """A point as ``own_points`` compares it: NFKC, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", point).split())


def _civil_points(state: TrialState) -> list[str]:
    side = state.target_side
    first = state.case.get("first_instance") or {}
    second = state.case.get("second_instance") or {}
    if side == "plaintiff":
        points = listing(first.get("claims")) + sentences(first.get("facts_and_reasons", ""))
    else:
        points = sentences(first.get("defenses", ""))
    if side == second.get("appellant_side"):
        points += listing(second.get("appeal_requests")) + sentences(second.get("appeal_reasons", ""))
    elif second:
        points += sentences(second.get("appellee_defenses", ""))
    return (
        points
        + evidence_points(first.get("evidence", []), side)
        + evidence_points(second.get("new_evidence", []), side)
    )


def _consultation_points(state: TrialState) -> list[str]:
    from court.engine.visibility import consultation_questions_for

    asked = set(consultation_questions_for(state.case, state.target_side))
    answers = [
        item.get("reference_answer", "")
        for item in state.case.get("consultation") or []
        if item.get("question") in asked
    ]
    return [point for answer in answers for point in [answer, *sentences(answer)]]


def _criminal_points(state: TrialState) -> list[str]:
    case = state.case
    side = state.target_side
    if side == "prosecution":
        points = sentences(case.get("indictment", "")) + listing(case.get("charges"))
    else:
        goal = ((case.get("goals") or {}).get("defendant") or {}).get("goal", "")
        points = sentences(goal) + sentences(case.get("defendant_info", ""))
    return points + evidence_points(case.get("evidence") or [], side)
