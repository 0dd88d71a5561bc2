"""Who sees what, when: LegalWorld's Table 5 (docs/sources.md) as one declarative table, and
the one function (``build_view``) that every prompt and every participant's browser goes
through.

Evaluation-only case fields (the real judgment, reference answers, a criminal case's real
sentence) have no source here at all, so no rule can expose them by mistake.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from court.engine.judgment import appeal_from_judgment
from court.engine.rounds import consultation_questions_for
from court.engine.speakers import stage_participants
from court.engine.state import ArtifactRecord, TrialState
from court.engine.view_cache import Sight, document_read, sources_of
from court.engine.withheld import cut, undisclosed, withheld_of
from court.procedures import procedure_for
from court.procedures.seats import COURT, opposite, seat_info
from court.procedures.structure import Stage

EVALUATION_ONLY = {
    "civil": frozenset(
        {
            ("first_instance", "court_findings"),
            ("first_instance", "legal_references"),
            ("first_instance", "disposition"),
            ("second_instance", "appellate_findings"),
            ("second_instance", "affected_items"),
            ("second_instance", "final_disposition"),
            ("consultation", "reference_answer"),
        }
    ),
    "criminal": frozenset({(None, "sentence"), (None, "court_findings"), (None, "legal_references")}),
}
"""(block, field) pairs only scoring and staff read; no rule below has a source for them."""

PERSONA_ROLES = ("client", "defendant")
"""The seats a case's persona conditions: a civil client, a criminal defendant."""
OWN = frozenset({"own"})
OWN_CLIENT = frozenset({"own_client"})
OTHERS = frozenset({"others"})
PARTIES = frozenset({"parties"})
JUDGE = frozenset({"judge"})
CLERK = frozenset({"clerk"})
EVERYONE = PARTIES | JUDGE | CLERK

Audience = Mapping[str, frozenset[str]]


@dataclass(frozen=True)
class Rule:
    """A row of the matrix: the audience of a field per stage unit.

    ``own``/``others`` are relative to the side a value belongs to; ``parties`` is every
    party seat for values that belong to no side. ``reveal`` widens the audience from a
    phase of a unit onwards (the opponent's evidence from the evidence phase of FIT).
    """

    field: str
    audience: Audience
    reveal: tuple[str, str, frozenset[str]] | None = None


def _units(**audience: frozenset[str]) -> Audience:
    return audience


CIVIL_FIELD_RULES = (
    Rule("facts", _units(LC=OWN, CD_DD=OWN, FIT=OWN | JUDGE, AD_AR=OWN, SIT=OWN | JUDGE)),
    Rule(
        "evidence",
        _units(
            LC=OWN,
            CD_DD=OWN,
            FIT=OWN | JUDGE,
            AD_AR=OWN | OTHERS,
            SIT=OWN | OTHERS | JUDGE,
        ),
        reveal=("FIT", "evidence", OTHERS),
    ),
    Rule("goals", _units(LC=OWN, CD_DD=OWN, FIT=OWN, AD_AR=OWN, SIT=OWN)),
    Rule("consultation_questions", _units(LC=OWN_CLIENT)),
    Rule(
        "claims",
        _units(CD_DD=PARTIES, FIT=PARTIES | JUDGE, AD_AR=PARTIES, SIT=PARTIES | JUDGE),
    ),
    Rule("appeal", _units(AD_AR=PARTIES | OWN | OTHERS, SIT=PARTIES | OWN | OTHERS | JUDGE)),
    Rule("appellee_defenses", _units(AD_AR=OWN, SIT=OWN | OTHERS | JUDGE)),
    Rule("new_evidence", _units(AD_AR=OWN, SIT=OWN | OTHERS | JUDGE)),
)

CIVIL_ARTIFACT_RULES = (
    Rule("consultation_record", _units(LC=OWN, CD_DD=OWN, FIT=OWN, AD_AR=OWN, SIT=OWN)),
    Rule(
        "complaint",
        _units(
            CD_DD=OWN,
            FIT=OWN | OTHERS | JUDGE,
            AD_AR=OWN | OTHERS,
            SIT=OWN | OTHERS | JUDGE,
        ),
    ),
    Rule(
        "defence",
        _units(
            CD_DD=OWN,
            FIT=OWN | OTHERS | JUDGE,
            AD_AR=OWN | OTHERS,
            SIT=OWN | OTHERS | JUDGE,
        ),
    ),
    Rule("first_instance_judgment", _units(AD_AR=PARTIES, SIT=PARTIES | JUDGE)),
    Rule("mediation_record", _units(AD_AR=PARTIES, SIT=PARTIES | JUDGE)),
    Rule("appeal_determination", _units(AD_AR=PARTIES, SIT=PARTIES | JUDGE)),
    Rule("appeal", _units(AD_AR=OWN, SIT=OWN | OTHERS | JUDGE)),
    Rule("appeal_response", _units(AD_AR=OWN, SIT=OWN | OTHERS | JUDGE)),
    Rule("second_instance_judgment", _units(SIT=PARTIES | JUDGE)),
)

_CRIMINAL_STAGES = (
    "preparation",
    "investigation",
    "evidence",
    "debate",
    "final_statement",
    "judgment",
)


def _criminal(before_evidence: frozenset[str], from_evidence: frozenset[str]) -> Audience:
    return {
        stage: before_evidence if index < _CRIMINAL_STAGES.index("evidence") else from_evidence
        for index, stage in enumerate(_CRIMINAL_STAGES)
    }


CRIMINAL_FIELD_RULES = (
    Rule("indictment", _criminal(EVERYONE, EVERYONE)),
    Rule("evidence", _criminal(OWN, OWN | OTHERS | JUDGE)),
    Rule("goals", _criminal(OWN, OWN)),
)

CRIMINAL_ARTIFACT_RULES = (
    Rule("criminal_judgment", _units(judgment=EVERYONE)),
    Rule("trial_record", _units(judgment=EVERYONE)),
)


def _by_side(items: list[dict[str, Any]]) -> dict[str | None, list[dict[str, Any]]]:
    grouped: dict[str | None, list[dict[str, Any]]] = {}
    for item in items:
        grouped.setdefault(item.get("side"), []).append(
            {
                "side": item.get("side"),
                "name": item.get("name", ""),
                "purpose": item.get("purpose", ""),
            }
        )
    return grouped


def _goals(case: Mapping[str, Any], state: TrialState) -> dict[str | None, Any]:
    return {side: dict(goal) for side, goal in (case.get("goals") or {}).items()}


def _civil_sources(case: Mapping[str, Any], state: TrialState) -> dict[str, dict[str | None, Any]]:
    first = case.get("first_instance") or {}
    second = case.get("second_instance") or {}
    sources: dict[str, dict[str | None, Any]] = {
        "facts": {
            "plaintiff": first.get("facts_and_reasons", ""),
            "defendant": first.get("defenses", ""),
        },
        "evidence": _by_side(first.get("evidence") or []),
        "goals": _goals(case, state),
        "consultation_questions": {
            side: consultation_questions_for(case, side) if side == state.target_side else []
            for side in ("plaintiff", "defendant")
        },
        "claims": {None: first.get("claims", [])},
    }
    return sources | _appeal_sources(second, state)


def _appeal_sources(second: Mapping[str, Any], state: TrialState) -> dict[str, dict[str | None, Any]]:
    """The appeals this trial hears: the appellant's, and the appellee's too when both sides
    appealed (then each under its side). A side's appeal is the real case's (requests,
    reasons, the appellee's defences, new evidence) when it appealed in the real case, else
    one drafted from the orders it lost (a person's trial took another turn); nothing while a
    person's trial has no appellant yet."""
    real = second.get("appellant_side")
    appellant = state.appellant_side or (None if state.human_seats or state.judgment_final else real)
    if appellant is None:
        return {}
    heard = [side for side in (appellant, state.cross_appellant_side) if side]
    appeals = {side: _appeal_of(second, state, side) for side in heard}
    sources: dict[str, dict[str | None, Any]] = {"appeal": appeals if len(heard) > 1 else {None: appeals[appellant]}}
    if real in heard:
        sources["appellee_defenses"] = {opposite(real): second.get("appellee_defenses", "")}
        sources["new_evidence"] = {real: list(_by_side(second.get("new_evidence") or []).get(real, []))}
    return sources


def _appeal_of(second: Mapping[str, Any], state: TrialState, side: str) -> dict[str, Any]:
    if side == second.get("appellant_side"):
        return {
            "appeal_requests": second.get("appeal_requests", []),
            "appeal_reasons": second.get("appeal_reasons", ""),
        }
    judgments = state.artifacts_of("first_instance_judgment")
    return appeal_from_judgment(judgments[-1].text if judgments else "", side, state.language)


def _criminal_sources(case: Mapping[str, Any], state: TrialState) -> dict[str, dict[str | None, Any]]:
    return {
        "indictment": {
            None: {
                "defendant_info": case.get("defendant_info", ""),
                "indictment": case.get("indictment", ""),
                "charges": case.get("charges", []),
                "sentencing_recommendation": case.get("sentencing_recommendation"),
            }
        },
        "evidence": _by_side(case.get("evidence") or []),
        "goals": _goals(case, state),
    }


@dataclass(frozen=True)
class Matrix:
    field_rules: tuple[Rule, ...]
    artifact_rules: tuple[Rule, ...]
    sources: Callable[[Mapping[str, Any], TrialState], dict[str, dict[str | None, Any]]]

    @cached_property
    def artifact_rule(self) -> dict[str, Rule]:
        """The artifact rules by document kind."""
        return {rule.field: rule for rule in self.artifact_rules}


MATRICES = {
    "civil": Matrix(CIVIL_FIELD_RULES, CIVIL_ARTIFACT_RULES, _civil_sources),
    "criminal": Matrix(CRIMINAL_FIELD_RULES, CRIMINAL_ARTIFACT_RULES, _criminal_sources),
}


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know at one point of a trial, and nothing else."""

    seat: str
    role: str
    side: str
    stage: str
    unit: str
    phase: str
    procedure: str
    language: str
    case: dict[str, Any]
    fields: dict[str, Any] = field(default_factory=dict)
    artifacts: list[dict[str, str]] = field(default_factory=list)
    dialogue: list[dict[str, Any]] = field(default_factory=list)
    memory: dict[str, list[str]] | None = None
    persona: dict[str, str] | None = None
    appellant_side: str | None = None

    def as_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)


def seat_tokens(*, role: str, side: str, owner: str | None) -> frozenset[str]:
    """The audience tokens a seat holds for a value owned by ``owner`` (None: no side)."""
    if role == "judge":
        return JUDGE
    if role == "stenographer":
        return CLERK
    if owner is None:
        return PARTIES
    if side == owner:
        is_client = role in ("client", "defendant")
        return OWN | OWN_CLIENT if is_client else OWN
    return OTHERS


def _audience(rule: Rule, unit: str, phase_reached: Callable[[str, str], bool]) -> frozenset[str]:
    audience = rule.audience.get(unit, frozenset())
    if rule.reveal is not None and phase_reached(*rule.reveal[:2]):
        audience = audience | rule.reveal[2]
    return audience


def build_view(state: TrialState, seat: str, *, stage: str | None = None, phase: str = "") -> SeatView:
    """The view of ``seat`` at the current (or the given) stage and phase."""
    procedure = procedure_for(state.procedure)
    stage_obj = procedure.stage(stage) if stage else procedure.stages[state.stage_index]
    info = seat_info(state.procedure, seat)
    matrix = MATRICES[state.procedure]
    sight = _sight(state.procedure, stage_obj.id, phase, info.role, info.side)
    visible = sight.visible

    fields: dict[str, Any] = {}
    sources = sources_of(state, matrix.sources)
    for rule in matrix.field_rules:
        for owner, value in sources.get(rule.field, {}).items():
            if value and visible(rule, owner):
                fields.setdefault(rule.field, {})[owner or "shared"] = value

    withheld = _still_withheld(state, info.role, info.side)
    fields = cut(fields, withheld)
    sitting = sitting_stages(procedure.stages, stage_obj)
    artifact_rules = matrix.artifact_rule

    def readable(artifact: ArtifactRecord) -> str:
        """The document less the sections holding a field this seat may not read yet."""
        hidden = sight.hidden(matrix.field_rules, None if artifact.side == COURT else artifact.side)
        return document_read(artifact.kind, artifact.text, hidden, state.language)

    artifacts = [
        {
            "kind": artifact.kind,
            "title": artifact.title,
            "text": readable(artifact),
            "side": artifact.side,
        }
        for artifact in state.artifacts
        if artifact.kind in artifact_rules
        and visible(
            artifact_rules[artifact.kind],
            None if artifact.side == COURT else artifact.side,
        )
    ]
    hears = seat in stage_audience(state, stage_obj)
    return SeatView(
        seat=seat,
        role=info.role,
        side=info.side,
        stage=stage_obj.id,
        unit=stage_obj.unit,
        phase=phase,
        procedure=state.procedure,
        language=state.language,
        case=public_header(state.case, withheld=withheld),
        fields=fields,
        artifacts=artifacts,
        dialogue=[
            {
                "seq": turn.seq,
                "phase": turn.phase,
                "act": turn.act,
                "seat": turn.seat,
                "speaker": turn.speaker,
                "text": turn.text,
            }
            for turn in state.turns
            if hears and turn.stage in sitting
        ],
        memory=_copy_memory(state.memory.get(seat)),
        persona=_persona(state.case, info.role, info.side),
        appellant_side=state.appellant_side,
    )


@lru_cache(maxsize=4096)
def _sight(procedure: str, stage: str, phase: str, role: str, side: str) -> Sight:
    """What a seat of ``role`` and ``side`` may read at ``phase`` of ``stage``."""
    stages = procedure_for(procedure).stages
    units = [item.unit for item in stages]
    here = next(item for item in stages if item.id == stage)
    phase_ids = [item.id for item in here.phases]

    def phase_reached(unit: str, reveal_phase: str) -> bool:
        if units.index(here.unit) > units.index(unit):
            return True
        return here.unit == unit and phase in phase_ids and phase_ids.index(phase) >= phase_ids.index(reveal_phase)

    def visible(rule: Rule, owner: str | None) -> bool:
        tokens = seat_tokens(role=role, side=side, owner=owner)
        return bool(tokens & _audience(rule, here.unit, phase_reached))

    return Sight(visible)


def sitting_stages(stages: tuple[Stage, ...], stage: Stage) -> frozenset[str]:
    """The stages whose dialogue a seat at ``stage`` has heard: the stage itself, and for a
    hearing the hearing stages held before it in the same sitting (the run of consecutive
    hearing stages it ends). A criminal trial is one sitting of six stages, so the court
    pronouncing judgment has heard the evidence and the debate; a civil appeal is heard at a
    sitting of its own, apart from the first instance."""
    index = stages.index(stage)
    if stage.kind != "trial":
        return frozenset({stage.id})
    start = index
    while start > 0 and stages[start - 1].kind == "trial":
        start -= 1
    return frozenset(item.id for item in stages[start : index + 1])


def stage_audience(state: TrialState, stage: Stage) -> frozenset[str]:
    """Who hears a stage's dialogue. Consultation and drafting: the seats that speak in it (a
    side's own work stays with that side). A hearing: everyone in the courtroom, that is
    every seat that speaks in any hearing (defence counsel hears the defendant's final
    statement and the judgment pronounced)."""
    if stage.kind != "trial":
        return stage_participants(state, stage)
    hearings = (other for other in procedure_for(state.procedure).stages if other.kind == "trial")
    return frozenset().union(*(stage_participants(state, hearing) for hearing in hearings))


def stage_heard(state: TrialState, stage_id: str) -> frozenset[str]:
    """The seats that hear the dialogue of the stage ``stage_id`` (``stage_audience``)."""
    return stage_audience(state, procedure_for(state.procedure).stage(stage_id))


def public_header(case: Mapping[str, Any], *, withheld: list[str] | None = None) -> dict[str, Any]:
    """What anyone may read of a case at any time: title, cause of action, court, parties.
    A party's particulars leave out the details a client withholds (court/engine/withheld.py):
    ``withheld`` as a seat's view computes it, or, outside a trial, every one of them."""
    metadata = case.get("metadata") or {}
    if withheld is None:
        withheld = [item.detail for persona in (case.get("personas") or {}).values() for item in withheld_of(persona)]
    return {
        "id": case["id"],
        "title": case.get("title", ""),
        "cause_of_action": case.get("cause_of_action", ""),
        "court_name": metadata.get("court_name", ""),
        "case_number": metadata.get("case_number", ""),
        "parties": [
            {
                "side": party.get("side"),
                "name": party.get("name"),
                "kind": party.get("kind"),
                "details": cut(party.get("details", ""), withheld),
            }
            for party in case.get("parties", [])
        ],
    }


def _copy_memory(memory: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
    return None if memory is None else {key: list(entries) for key, entries in memory.items()}


def _still_withheld(state: TrialState, role: str, side: str) -> list[str]:
    """The details a client still withholds from this seat (court/engine/withheld.py): only
    that client sees them before saying them, in the case fields and the parties' particulars."""
    hidden: list[str] = []
    for owner, persona in (state.case.get("personas") or {}).items():
        if (role in PERSONA_ROLES and side == owner) or not withheld_of(persona):
            continue
        said = [turn.text for turn in state.turns if _is_persona_seat(state.procedure, turn.seat, owner)]
        hidden += [item.detail for item in undisclosed(persona, said)]
    return hidden


def _is_persona_seat(procedure: str, seat: str, side: str) -> bool:
    try:
        info = seat_info(procedure, seat)
    except (KeyError, ValueError):  # the clerk, or a seat of another procedure
        return False
    return info.role in PERSONA_ROLES and info.side == side


def _persona(case: Mapping[str, Any], role: str, side: str) -> dict[str, str] | None:
    if role not in PERSONA_ROLES:
        return None
    persona = (case.get("personas") or {}).get(side)
    return dict(persona) if persona else None
