"""The scripted seat: one table from act id to the function that speaks it, and the memory a
seat keeps at the end of a stage."""

from __future__ import annotations

from collections.abc import Callable

from agents.scripted import consultation, criminal, drafting, hearing, objections
from agents.scripted.context import Ctx, disposition_of, with_disclosure
from court.engine.memory import MemoryOp
from court.engine.participants import DeltaSink, MemoryRequest, TurnRequest
from court.engine.steps import ArtifactDraft, MemoryUpdate, Reply
from court.engine.tokens import estimate_tokens
from court.engine.visibility import SeatView
from court.procedures.names import stage_name

ActResult = str | tuple[str, ArtifactDraft] | tuple[str, str] | consultation.Closing
ACTS: dict[str, Callable[[Ctx], ActResult]] = {
    function.__name__: function
    for function in (
        # the legal consultation (LC)
        consultation.describe_dispute,
        consultation.ask_follow_up,
        consultation.answer_follow_up,
        consultation.ask_question,
        consultation.answer_question,
        consultation.summarise_advice,
        consultation.acknowledge,
        consultation.write_consultation_record,
        # drafting (CD/DD, AD/AR)
        drafting.request_materials,
        drafting.provide_materials,
        drafting.confirm_position,
        drafting.approve_position,
        drafting.draft_complaint,
        drafting.draft_defence,
        drafting.answer_appeal,
        drafting.review_judgment,
        drafting.draft_appeal,
        drafting.draft_appeal_response,
        # civil hearings (FIT, SIT), and the acts a criminal trial shares with them
        hearing.open_court,
        hearing.confirm_appearance,
        hearing.invite_statement,
        hearing.state_claims,
        hearing.state_defence,
        hearing.invite_evidence,
        hearing.present_evidence,
        hearing.cross_examine,
        hearing.question_party_first,
        hearing.question_party_second,
        hearing.answer_judge,
        hearing.summarise_disputes,
        hearing.argue,
        hearing.rebut,
        hearing.invite_final_statements,
        hearing.final_statement,
        hearing.propose_mediation,
        hearing.answer_mediation,
        hearing.write_mediation_record,
        hearing.pronounce_judgment,
        # the criminal trial
        criminal.announce_discipline,
        criminal.verify_identity,
        criminal.confirm_identity,
        criminal.inform_rights,
        criminal.acknowledge_rights,
        criminal.read_indictment,
        criminal.ask_plea,
        criminal.plead,
        criminal.question_defendant,
        criminal.answer_examination,
        criminal.comment_evidence,
        criminal.open_debate,
        criminal.self_defence,
        criminal.invite_final_statement,
        criminal.write_trial_record,
        # an objection, in either hearing
        objections.rule_objection,
    )
}


class ScriptedAgent:
    """A seat played by the scripted backend: its reply comes whole (the driver paces it),
    and it calls no model."""

    def respond(self, request: TurnRequest, *, on_delta: DeltaSink | None = None) -> Reply:
        ctx = Ctx(request.view)
        result = ACTS[request.step.act](ctx)
        closes = isinstance(result, consultation.Closing)
        text, artifact, decision = result.text if closes else result, None, None
        if isinstance(result, tuple):
            text, extra = result
            if isinstance(extra, ArtifactDraft):
                artifact = extra
            else:
                decision = extra
        text = with_disclosure(ctx, text)
        tokens = estimate_tokens(text) + (estimate_tokens(artifact.text) if artifact else 0)
        return Reply(text=text, artifact=artifact, decision=decision, ends_phase=closes, tokens=tokens)

    def update_memory(self, request: MemoryRequest) -> MemoryUpdate:
        return MemoryUpdate(tuple(memory_ops_for(request.view)))

    def drain_calls(self) -> list[dict]:
        return []


def memory_ops_for(view: SeatView) -> list[MemoryOp]:
    """What a seat keeps from a stage: its facts, evidence and position, and the progress made."""
    ctx = Ctx(view)
    stage_done = ctx.say(f"{stage_name(view.stage, 'zh')}阶段已完成", f"{stage_name(view.stage, 'en')}: completed")
    ops = [MemoryOp("expand", "procedural_progress", (stage_done,))]
    facts = ctx.facts() or criminal.indictment_of(ctx).get("indictment", "")
    if facts:
        ops.append(MemoryOp("expand", "facts", (facts,)))
    evidence = [item["name"] for item in ctx.evidence()]
    if evidence:
        ops.append(MemoryOp("expand", "evidence", tuple(evidence)))
    claims = ctx.claims()
    if claims:
        ops.append(MemoryOp("revise", "claims", tuple(claims)))
    goals = ctx.field("goals", view.side, {}) or {}
    if goals.get("goal"):
        ops.append(MemoryOp("revise", "positions", (goals["goal"],)))
    if view.role == "lawyer" and view.stage == "LC":
        told = [turn["text"] for turn in view.dialogue if turn["seat"] != view.seat][:2]
        ops.append(MemoryOp("expand", "client_profile", tuple(text[:300] for text in told)))
    outcome = ctx.artifact(
        "first_instance_judgment",
        "second_instance_judgment",
        "mediation_record",
        "criminal_judgment",
    )
    if outcome:
        ops.append(
            MemoryOp(
                "expand",
                "notes",
                (f"{outcome['title']}: {disposition_of(outcome['text'])}",),
            )
        )
    return ops
