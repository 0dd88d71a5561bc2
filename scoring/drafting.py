"""LongJud-Bench's drafting stages, LegalWorld C.2 formula (6) (docs/sources.md): the pleading
the subject filed, scored as the mean of its exact-match fields F and its semantic fields G.

- **CD/DD** (complaint, defence): F = party identity (a slot per side) and the procedural slot
  of the court addressed; G = claims or defences, facts and reasons, evidence, the requested
  disposition (what the pleading asks the court to order, against the orders the real court
  made) and coherence.
- **AD/AR** (appeal, response to appeal): F = the appellate role (the subject's party named as
  appellant, or appellee), party identity and the request/response slot (the action asked
  for: set aside, vary, remand or affirm, read by ``alignment.action_requested``, against the
  real appeal's requests, or for the appellee the affirmation its answer asks for); G = appeal
  reasons or the answers to them, new evidence when the side has any, linkage to the
  first-instance judgment, and coherence.

Coherence is semantic (0-10 from the scorer): the document organised in its standard
sections, each following from the last. Only the stage of the subject's side is scored (CD
for the plaintiff, DD for the defendant, AD for the appellant, AR for the appellee); when that
stage has closed without a document from the subject, every field of it scores 0.
"""

from __future__ import annotations

from dataclasses import replace
from statistics import fmean

from court.documents import DOCUMENTS, document_sections
from court.engine.state import ArtifactRecord, TrialState
from court.legaltext.text import normalise, party_roles
from court.procedures.seats import opposite
from scoring.alignment import action_requested, disposition_items
from scoring.grounding import of_this_case, substance
from scoring.items import Item, Pending, doc_link, not_raised, own_turns, seat_of_subject, turn_links, zero_item
from scoring.references import evidence_points, listing, sentences
from scoring.scorers import Criterion

DRAFTING_KINDS = {"CD": "complaint", "DD": "defence", "AD": "appeal", "AR": "appeal_response"}
REQUEST_SECTIONS = {
    "complaint": "claims",
    "defence": "response_to_claims",
    "appeal": "appeal_requests",
    "appeal_response": "relief_sought",
}
"""The section in which each pleading asks the court for something."""
Fields = tuple[list[Item], list[Pending]]


def drafting_items(state: TrialState, stage: str) -> Fields | None:
    """Formula 6's fields of a drafting stage of the subject's side; None when the stage is
    the other side's or is still being drafted."""
    if drafter_side(state, stage) != state.target_side:
        return None
    document = next(
        (each for each in state.artifacts if each.stage == stage and each.author_seat == seat_of_subject(state)), None
    )
    if document is not None:
        return _fields(state, stage, document)
    if not _closed(state, stage):
        return None
    nothing = ArtifactRecord(stage, DRAFTING_KINDS[stage], "", "", seat_of_subject(state), state.target_side)
    exact, pending = _fields(state, stage, nothing)
    return [replace(item, links=[]) for item in exact] + [zero_item(entry) for entry in pending], []


def drafter_side(state: TrialState, stage: str) -> str | None:
    """The side whose lawyer drafts in ``stage`` (LegalWorld §2.2: CD/DD and AD/AR are
    role-conditional)."""
    if stage in ("CD", "DD"):
        return "plaintiff" if stage == "CD" else "defendant"
    if state.appellant_side is None:
        return None
    return state.appellant_side if stage == "AD" else opposite(state.appellant_side)


def _closed(state: TrialState, stage: str) -> bool:
    """The stage's closing act is past: a later stage began, the trial ended, or the stage is
    writing memory."""
    return state.finished or state.stage_history[-1] != stage or state.stage_status in ("memory", "done")


def _fields(state: TrialState, stage: str, document: ArtifactRecord) -> Fields:
    exact, pending = (_first_instance if stage in ("CD", "DD") else _second_instance)(state, stage, document)
    return grounded_slots(exact, document.text, state), pending


def grounded_slots(exact: list[Item], text: str, state: TrialState) -> list[Item]:
    """Exact slots count only in a text of this case (``grounding.of_this_case``): a party's
    name or "vary" in a document of nothing else, or another case's document, fills no slot."""
    if of_this_case(text, state.case, state.language):
        return exact
    why = substance(text, state.case, state.language).note()
    return [replace(item, score=0.0, reason=f"{item.reason}; {why}") if item.score else item for item in exact]


def _first_instance(state: TrialState, stage: str, document: ArtifactRecord) -> Fields:
    side = state.target_side
    first = state.case.get("first_instance") or {}
    court = (state.case.get("metadata") or {}).get("court_name", "")
    exact = party_slots(state, stage, document) + ([_named(stage, "court", court, document)] if court else [])
    position = listing(first.get("claims")) if side == "plaintiff" else sentences(first.get("defenses", ""))
    facts = sentences(first.get("facts_and_reasons", "") if side == "plaintiff" else first.get("defenses", ""))
    link = [doc_link(document)]
    materials = document.text + "\n" + "\n".join(turn.text for turn in own_turns(state, stage))
    pending = [
        _semantic(
            state, stage, "claim_construction", "claims", "claims or defences pleaded", position, document.text, link
        ),
        _semantic(state, stage, "fact_marshalling", "facts", "facts and reasons", facts, document.text, link),
        _semantic(
            state,
            stage,
            "evidence_marshalling",
            "evidence",
            "evidence identified for the pleading (in it or discussed with the client while preparing it)",
            evidence_points(first.get("evidence", []), side),
            materials,
            link + turn_links(own_turns(state, stage)),
        ),
    ]
    orders = disposition_items(first.get("disposition", ""))
    if orders:
        section = REQUEST_SECTIONS[document.kind]
        pending.append(
            _semantic(
                state,
                stage,
                "claim_construction",
                "disposition",
                "requested disposition: the orders the pleading asks the court to make, against the orders it made",
                orders,
                _section(document, section),
                [doc_link(document, section)],
            )
        )
    return exact, [*pending, coherence_pending(state, stage, document)]


def _second_instance(state: TrialState, stage: str, document: ArtifactRecord) -> Fields:
    second = state.case.get("second_instance") or {}
    appellant = stage == "AD"
    exact = [*_appellate_role(state, stage, document), *party_slots(state, stage, document)]
    exact += _request_slot(state, stage, document)
    reasons = sentences(second.get("appeal_reasons", "") if appellant else second.get("appellee_defenses", ""))
    judgment = next((artifact for artifact in state.artifacts if artifact.stage == "FIT"), None)
    linkage = listing(second.get("affected_items")) + (sentences(_orders(judgment)) if judgment else [])
    link = [doc_link(document)]
    pending = [
        _semantic(
            state,
            stage,
            "fact_marshalling",
            "reasons",
            "appeal reasons or answers to them",
            reasons,
            document.text,
            link,
        ),
        _semantic(
            state,
            stage,
            "claim_construction",
            "linkage",
            "linkage to the first-instance judgment",
            linkage,
            document.text,
            link,
        ),
    ]
    new_evidence = evidence_points(second.get("new_evidence", []), state.target_side)
    if new_evidence:
        materials = document.text + "\n" + "\n".join(turn.text for turn in own_turns(state, stage))
        pending.append(
            _semantic(
                state,
                stage,
                "evidence_marshalling",
                "new_evidence",
                "new evidence",
                new_evidence,
                materials,
                link,
            )
        )
    return exact, [*pending, coherence_pending(state, stage, document)]


def _party_names(state: TrialState, side: str) -> list[str]:
    return [party["name"] for party in state.case.get("parties", []) if party.get("side") == side]


def party_slots(state: TrialState, stage: str, document: ArtifactRecord) -> list[Item]:
    """One exact slot per side: the document names that side's (first) party."""
    return [
        _named(stage, f"party.{side}", name, document)
        for side in (state.target_side, opposite(state.target_side))
        for name in _party_names(state, side)[:1]
    ]


def _named(stage: str, item_id: str, wanted: str, document: ArtifactRecord) -> Item:
    found = bool(wanted) and normalise(wanted) in normalise(document.text)
    reason = f"names {wanted}" if found else f"does not name {wanted!r}"
    return Item(
        stage, "party_identification", f"{stage}.{item_id}", "exact", float(found), reason, [doc_link(document)]
    )


def _appellate_role(state: TrialState, stage: str, document: ArtifactRecord) -> list[Item]:
    """Table 9's appellate-role slot: the subject's party named in its role on appeal
    (上诉人 / 被上诉人, "appellant" / "appellee"; 答辩人 answering an appeal is the appellee)."""
    role = "appellant" if stage == "AD" else "appellee"
    names = _party_names(state, state.target_side)[:1]
    found = [name for name in names if role in party_roles(document.text, name, "second")]
    return [
        Item(
            stage,
            "party_identification",
            f"{stage}.appellate_role",
            "exact",
            float(bool(found)),
            f"names {name} as {role}" if found else f"does not name {name} as {role}",
            [doc_link(document)],
        )
        for name in names
    ]


def _request_slot(state: TrialState, stage: str, document: ArtifactRecord) -> list[Item]:
    """Formula 6's request/response slot, exact: the action the appeal's requests (AD) or the
    response's relief (AR) ask for, against the real appeal's requests, or for the appellee
    the affirmation an answer to an appeal asks for unless its real answer asks for another.
    No slot when the real requests name no action."""
    second = state.case.get("second_instance") or {}
    if stage == "AD":
        points = listing(second.get("appeal_requests"))
        expected = action_requested(points)
    else:
        points = sentences(second.get("appellee_defenses", ""))
        expected = action_requested(points) or "affirm"
    if expected is None:
        return []
    section = REQUEST_SECTIONS[document.kind]
    asked = action_requested(sentences(_section(document, section)))
    missing = not_raised(state, points)
    reason = f"requests {asked or 'none'} against {expected}"
    return [
        Item(
            stage,
            "claim_construction",
            f"{stage}.requests",
            "exact",
            float(asked == expected),
            reason,
            [doc_link(document, section)],
            missing,
        )
    ]


def coherence_pending(state: TrialState, stage: str, document: ArtifactRecord) -> Pending:
    """Formula 6's coherence, a semantic field: the standard sections are the reference (the
    rule-based scorer's stand-in measures how many of them the document carries); headings
    are form, so nothing of them is listed as not raised."""
    headings = [heading for _, heading in DOCUMENTS[document.kind].headings(state.language)]
    criterion = Criterion(
        f"{stage}.coherence",
        "coherence: the document is organised in its standard sections ("
        + ", ".join(headings)
        + "), each following from the last and consistent with the position it pleads",
        "\n".join(headings),
        document.text,
    )
    return Pending(stage, "fact_marshalling", criterion, [doc_link(document)], [])


def coherence_capped(items: list[Item]) -> list[Item]:
    """A drafting stage's coherence is at most the mean of the document's content fields: the
    sections the editor sets out are no coherence of their own, and a document is coherent
    only as far as it pleads this case (headings over "asdf", or over another case's text,
    were scored as perfectly organised)."""
    capped = []
    for item in items:
        if item.stage in DRAFTING_KINDS and item.id == f"{item.stage}.coherence":
            content = [
                other.score
                for other in items
                if other.stage == item.stage and other.kind == "semantic" and other is not item
            ]
            ceiling = fmean(content) if content else 0.0
            if item.score > ceiling:
                item = replace(
                    item,
                    score=round(ceiling, 6),
                    reason=f"{item.reason}; capped at the mean of the document's content fields",
                )
        capped.append(item)
    return capped


def sections_item(stage: str, document: ArtifactRecord, language: str) -> Item:
    """The share of the document's standard sections it contains (a heading or its body): the
    judge's judgment as procedure requires it (not a LongJud-Bench field)."""
    headings = DOCUMENTS[document.kind].headings(language)
    present = [heading for _, heading in headings if normalise(heading) in normalise(document.text)]
    missing = [heading for _, heading in headings if heading not in present]
    reason = f"{len(present)} of {len(headings)} standard sections" + (
        f"; missing {', '.join(missing)}" if missing else ""
    )
    return Item(
        stage,
        "procedural_compliance",
        f"{stage}.sections",
        "exact",
        len(present) / len(headings),
        reason,
        [doc_link(document)],
    )


def _semantic(
    state: TrialState,
    stage: str,
    capability: str,
    item: str,
    instruction: str,
    points: list[str],
    candidate: str,
    links: list,
) -> Pending:
    missing = not_raised(state, points)
    criterion = Criterion(f"{stage}.{item}", instruction, "\n".join(points), candidate)
    return Pending(stage, capability, criterion, links, missing)


def _section(document: ArtifactRecord, section: str) -> str:
    """A section of the document, else all of it (a pleading written without headings)."""
    return document_sections(document.text, document.kind).get(section) or document.text


def _orders(judgment: ArtifactRecord) -> str:
    """The orders of a generated judgment, else all of it."""
    return _section(judgment, "orders")
