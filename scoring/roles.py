"""Scorecards of the judge's and the parties' seats (LegalWorld's role consistency, §4.2 and
F.2-F.3, and SimCourt's judge aspects, Table 3; docs/sources.md), scored by rule.

- **Judge**: *procedural compliance* (each phase the procedure gives the judge was
  conducted; the judgment has its standard sections and names the parties), *neutrality*
  (no outcome announced before the pronouncement; questions put out of turn shared between
  the sides) and *judgment alignment* (the judgment against the real court's: C.4 for a civil
  judgment, the sentence for a criminal one).
- **Client** (a civil client, a criminal defendant): *stance authenticity* (what the party
  said argues their own side's position and goal) and *disclosure* (the facts and evidence of
  their side they told their lawyer, or the court when examined).

Every item is in [0,1] like the capabilities' items; the structural ones are exact, the
stance and disclosure ones go through the trial's scorer (rule-based coverage offline, the
LLM judge otherwise). Only stages in which a person held the seat count for a person.
"""

from __future__ import annotations

from dataclasses import replace
from statistics import fmean
from typing import Any

from court.engine.machine import ANSWER_JUDGE
from court.engine.state import ArtifactRecord, TrialState, TurnRecord
from court.legaltext.sentences import sentence_extract
from court.procedures import procedure_for
from court.procedures.seats import CIVIL_SIDES, seat_info
from scoring.alignment import judgment_alignment
from scoring.drafting import party_slots, sections_item
from scoring.grounding import names_a_party, of_this_case, substance
from scoring.items import Item, Pending, rated_items, turn_links
from scoring.prediction import sentence_from_case
from scoring.references import evidence_points, listing, sentences
from scoring.scorers import Criterion, Scorer, points_raised

JUDGE_DIMENSIONS = ("procedural_compliance", "neutrality", "judgment_alignment")
CLIENT_DIMENSIONS = ("stance_authenticity", "disclosure")
JUDGMENTS = {"first_instance_judgment": "first", "second_instance_judgment": "second", "criminal_judgment": None}
OUTCOME_WORDS = {
    "zh": ("判决如下", "驳回", "支持原告", "支持被告", "罪名成立", "构成犯罪", "有罪", "应当承担责任"),
    "en": ("guilty", "is liable", "are liable", "dismiss", "judgment for", "the court orders", "rule in favour"),
}
"""Words that announce an outcome; said before the pronouncement they prejudge the case."""
LAWYER_STAGES = ("LC", "CD", "DD", "AD", "AR")
"""Stages in which a client talks with their own lawyer."""


def seat_turns(state: TrialState, seat: str, stage: str | None = None) -> list[TurnRecord]:
    return [turn for turn in state.turns if turn.seat == seat and stage in (None, turn.stage)]


def scored_stages(state: TrialState, seat: str) -> tuple[list[str], dict[str, str]]:
    """The stages the seat acted in, and those left out because an agent held the seat there
    while a person held it elsewhere (stages simulated before the student joined)."""
    person = any(turn.author == "human" for turn in seat_turns(state, seat))
    stages, skipped = [], {}
    for stage in dict.fromkeys(turn.stage for turn in seat_turns(state, seat)):
        if person and all(turn.author == "agent" for turn in seat_turns(state, seat, stage)):
            skipped[stage] = "played by an agent before or instead of the student; not scored for the student"
        else:
            stages.append(stage)
    return stages, skipped


def role_items(state: TrialState, seat: str, scorer: Scorer) -> tuple[list[Item], dict[str, str]]:
    stages, skipped = scored_stages(state, seat)
    if seat_info(state.procedure, seat).role == "judge":
        # a civil hearing (FIT, SIT) is judged on its own; a criminal trial's stages are one hearing
        hearings = [[stage] for stage in stages] if state.procedure == "civil" else [stages]
        return [item for hearing in hearings for item in _judge_hearing(state, seat, hearing)], skipped
    pending = [entry for stage in stages for entry in _client_pending(state, seat, stage)]
    return rated_items(pending, state, scorer), skipped


def dimension_scores(items: list[Item], dimensions: tuple[str, ...]) -> dict[str, float | None]:
    return {
        dimension: fmean(values) if (values := [item.score for item in items if item.capability == dimension]) else None
        for dimension in dimensions
    }


# --- Judge ------------------------------------------------------------------------------------


def _judge_hearing(state: TrialState, seat: str, stages: list[str]) -> list[Item]:
    items, said = [], []
    for stage in stages:
        items += _phases_conducted(state, seat, stage) + _neutrality(state, seat, stage)
        said += [turn.text for turn in seat_turns(state, seat, stage)]
        for judgment in state.artifacts:
            if judgment.stage == stage and judgment.kind in JUDGMENTS and judgment.author_seat == seat:
                items += _judgment_items(state, stage, judgment)
                said.append(judgment.text)
    return _conducted_this_case(items, "\n".join(said), state)


def _conducted_this_case(items: list[Item], said: str, state: TrialState) -> list[Item]:
    """A judge's conduct counts when what the judge said and wrote at the hearing is of this
    case (``grounding.of_this_case``: it names the parties and more of the case): phases
    "conducted" with "asdf", or with another case's text, were not conducted. The judgment's
    alignment with the real one is left as it is: it measures the court's output, not the
    conduct."""
    if of_this_case(said, state.case, state.language):
        return items
    named = names_a_party(said, state.case)
    why = substance(said, state.case, state.language).note() if named else "names none of this case's parties"
    return [
        replace(item, score=0.0, reason=f"{item.reason}; {why}")
        if item.score and item.capability != "judgment_alignment"
        else item
        for item in items
    ]


def _phases_conducted(state: TrialState, seat: str, stage: str) -> list[Item]:
    definition = next(each for each in procedure_for(state.procedure).stages if each.id == stage)
    phases = [phase.id for phase in definition.phases if any(slot.seat == "judge" for slot in phase.slots)]
    turns = seat_turns(state, seat, stage)
    items = []
    for phase in phases:
        spoken = [turn for turn in turns if turn.phase == phase]
        items.append(
            Item(
                stage,
                "procedural_compliance",
                f"{stage}.{phase}.conducted",
                "exact",
                float(bool(spoken)),
                "conducted" if spoken else "not conducted: the hearing went past it",
                turn_links(spoken[:1]),
            )
        )
    return items


def _neutrality(state: TrialState, seat: str, stage: str) -> list[Item]:
    filings = [
        state.filing_turn(artifact)
        for artifact in state.artifacts
        if artifact.stage == stage and artifact.kind in JUDGMENTS
    ]
    pronounced = min((turn.seq for turn in filings if turn is not None), default=None)
    words = OUTCOME_WORDS["zh" if state.language == "zh" else "en"]
    early = [
        turn
        for turn in seat_turns(state, seat, stage)
        if (pronounced is None or turn.seq < pronounced) and any(word in turn.text.lower() for word in words)
    ]
    items = [
        Item(
            stage,
            "neutrality",
            f"{stage}.no_prejudgment",
            "exact",
            0.0 if early else 1.0,
            "announced an outcome before the pronouncement" if early else "no outcome announced before the judgment",
            turn_links(early),
        )
    ]
    asked = _questions_by_side(state, stage)
    if sum(asked.values()) >= 2:
        fewer, more = sorted(asked.values())
        items.append(
            Item(
                stage,
                "neutrality",
                f"{stage}.questions_shared",
                "exact",
                fewer / more,
                "questions out of turn: " + ", ".join(f"{count} to the {side}" for side, count in asked.items()),
            )
        )
    return items


def _questions_by_side(state: TrialState, stage: str) -> dict[str, int]:
    """The parties' answers to the judge's questions out of turn, by side."""
    asked = dict.fromkeys(("prosecution", "defendant") if state.procedure == "criminal" else CIVIL_SIDES, 0)
    for turn in state.turns:
        if turn.stage == stage and turn.act == ANSWER_JUDGE:
            side = seat_info(state.procedure, turn.seat).side
            asked[side] = asked.get(side, 0) + 1
    return asked


def _judgment_items(state: TrialState, stage: str, judgment: ArtifactRecord) -> list[Item]:
    link = [{"artifact": judgment.kind, "stage": stage, "section": None}]
    parties = party_slots(state, stage, judgment) if state.procedure == "civil" else []
    items = [sections_item(stage, judgment, state.language)]
    items += [replace(item, capability="procedural_compliance") for item in parties]
    if state.procedure == "civil":
        aligned = judgment_alignment(generated=judgment.text, case=state.case, instance=JUDGMENTS[judgment.kind])
        if aligned.get("overall") is not None:
            reason = ", ".join(f"{key} {value:.1f}" for key, value in aligned.items() if value is not None)
            items.append(
                Item(stage, "judgment_alignment", f"{stage}.alignment", "exact", aligned["overall"] / 10, reason, link)
            )
        return items
    return items + _sentence_items(state, stage, judgment, link)


def _sentence_items(state: TrialState, stage: str, judgment: ArtifactRecord, link: list) -> list[Item]:
    """The sentence pronounced against the real one: imprisonment and fine by relative error,
    probation as granted or not."""
    given, real = sentence_extract(judgment.text, state.language), sentence_from_case(state.case)
    items = []
    for name, mine, theirs in (
        ("imprisonment", given.imprisonment_months, real.imprisonment_months),
        ("fine", given.fine, real.fine),
    ):
        if theirs:
            error = 1.0 if mine is None else min(1.0, abs(mine - theirs) / theirs)
            reason = f"{mine if mine is not None else 'none read'} against {theirs}"
            items.append(Item(stage, "judgment_alignment", f"{stage}.{name}", "exact", 1 - error, reason, link))
    if real.probation is not None:
        same = given.probation == real.probation
        reason = f"probation {'as' if same else 'unlike'} the real court"
        items.append(Item(stage, "judgment_alignment", f"{stage}.probation", "exact", float(same), reason, link))
    return items


# --- Clients ----------------------------------------------------------------------------------


def _client_pending(state: TrialState, seat: str, stage: str) -> list[Pending]:
    side = seat_info(state.procedure, seat).side
    turns = seat_turns(state, seat, stage)
    candidate = "\n".join(turn.text for turn in turns)
    position, facts = _party_references(state, side)
    told = stage in LAWYER_STAGES or state.procedure == "criminal" or not _talked_with_lawyer(state, seat)
    pending = [_pending(state, stage, "stance_authenticity", "argues their own side", position, candidate, turns)]
    if told:
        pending.append(_pending(state, stage, "disclosure", "facts and evidence disclosed", facts, candidate, turns))
    return pending


def _talked_with_lawyer(state: TrialState, seat: str) -> bool:
    return any(turn.stage in LAWYER_STAGES for turn in seat_turns(state, seat))


def _party_references(state: TrialState, side: str) -> tuple[list[str], list[str]]:
    """A party's position (their goal and what their side pleads) and the facts and evidence
    of their side that they know."""
    case = state.case
    goal = listing(((case.get("goals") or {}).get(side) or {}).get("goal"))
    if state.procedure == "criminal":
        return goal + sentences(case.get("defendant_info", "")), sentences(case.get("court_findings", ""))
    first = case.get("first_instance") or {}
    if side == "plaintiff":
        pleaded = listing(first.get("claims")) + sentences(first.get("facts_and_reasons", ""))
    else:
        pleaded = sentences(first.get("defenses", ""))
    return goal + pleaded, pleaded + evidence_points(first.get("evidence", []), side)


def _pending(
    state: TrialState, stage: str, dimension: str, instruction: str, points: list[str], candidate: str, turns
) -> Pending:
    _, missing = points_raised(points, candidate, state.language)
    criterion = Criterion(f"{stage}.{dimension}", f"{stage}: {instruction}", "\n".join(points), candidate)
    return Pending(stage, dimension, criterion, turn_links(turns), missing)


def role_result(state: TrialState, seat: str, scorer: Scorer) -> dict[str, Any]:
    """The scorecard result of a judge's or a party's seat, in the capabilities' layout."""
    kind = "judge" if seat_info(state.procedure, seat).role == "judge" else "client"
    items, skipped = role_items(state, seat, scorer)
    stages: dict[str, list[float]] = {}
    for item in items:
        stages.setdefault(item.stage, []).append(item.score)
    return {
        "seat": seat,
        "kind": kind,
        "target_side": seat_info(state.procedure, seat).side,
        "scorer": scorer.label,
        "capabilities": dimension_scores(items, JUDGE_DIMENSIONS if kind == "judge" else CLIENT_DIMENSIONS),
        "stages": {stage: fmean(values) for stage, values in stages.items()},
        "skipped_stages": skipped,
        "items": [item.as_dict() for item in items],
    }
