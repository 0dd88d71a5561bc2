"""The trial engine: a pure state machine over a procedure.

``next_step`` reads the state and says what must happen next; ``apply_*`` functions record
what happened; which stage comes after the current one is ``stage_order``'s. Nothing here
talks to a database, a socket or a model, so live trials, batch runs and tests all drive the
same rules.
"""

from __future__ import annotations

from court.documents import document_title
from court.engine.errors import EngineError
from court.engine.memory import (
    MemoryOperationError,
    empty_memory,
    has_memory,
    memory_apply,
)
from court.engine.objections import ruling_sustains
from court.engine.rounds import phase_rounds
from court.engine.speakers import resolve_seat, stage_participants
from court.engine.stage_order import current_stage, enter_next_stage
from court.engine.state import ArtifactRecord, MemoryLogEntry, TrialState, TurnRecord
from court.engine.steps import (
    End,
    MemoryUpdate,
    Reply,
    Speak,
    StageEnd,
    StageStart,
    Step,
    UpdateMemory,
)
from court.engine.transitions import appeal_close, appeal_open
from court.procedures import procedure_for
from court.procedures.civil import MEDIATION_ANSWER
from court.procedures.seats import seat_info, speaker_title
from court.procedures.structure import Phase, Slot, Stage

MEDIATION_CLOSING = Slot("judge", "write_mediation_record")
CLOSING_PHASES = {"trial": "pronouncement"}
DOCUMENT_PHASE = "document"


def closing_phase(stage: Stage) -> str:
    """The phase of a stage's closing slot: a hearing's judgment is pronounced; a consultation
    or a drafting stage writes its document."""
    return CLOSING_PHASES.get(stage.kind, DOCUMENT_PHASE)


def trial_start(
    *,
    case: dict,
    target_side: str,
    human_seats: dict[str, str] | None = None,
    last_stage: str | None = None,
) -> TrialState:
    """A new trial positioned at its first stage; ``last_stage`` stops the run after it."""
    procedure = procedure_for(case["procedure"])
    if last_stage is not None and last_stage not in procedure.stage_ids:
        raise ValueError(f"unknown stage {last_stage!r}; stages: {', '.join(procedure.stage_ids)}")
    state = TrialState(
        case=case,
        procedure=procedure.id,
        target_side=target_side,
        human_seats=dict(human_seats or {}),
        last_stage=last_stage,
    )
    for seat in procedure.seats:
        info = seat_info(procedure.id, seat)
        if has_memory(procedure.id, seat, info.role):
            state.memory[seat] = empty_memory()
    enter_next_stage(state, procedure)
    return state


JUDGE_SEAT = "judge"
ANSWER_JUDGE = "answer_judge"
JUDGE_CONTROLS = ("advance", "mediation", "pronounce")
ADVICE = {MEDIATION_ANSWER: "summarise_advice"}
"""decision -> the act of counsel advising a client agent on it (a person in counsel's seat):
counsel's advice, as at the end of a consultation, which every backend already speaks (a
seat handed back to an agent mid-way, a test's stand-in). An appeal needs none: a person in
counsel's seat decides it (``transitions.appeal_deciders``)."""


def next_step(state: TrialState) -> Step:
    """What must happen next. Reads the state only; the ``apply_*`` functions move it."""
    if state.finished:
        return End()
    if state.pending:
        return interjection_step(state, seat=state.pending[0]["seat"], act=state.pending[0]["act"])
    stage = procedure_for(state.procedure).stages[state.stage_index]
    if state.stage_status == "pending":
        return StageStart(stage.id)
    if state.stage_status == "running":
        phase, slot = _current_slot(state, stage)
        return _speak(state, stage, phase.id, slot)
    if state.stage_status == "closing":
        closing = _closing_slot(state, stage)
        return _speak(
            state,
            stage,
            closing_phase(stage),
            closing,
            artifact=_closing_artifact(state, stage),
        )
    if state.stage_status == "memory":
        return UpdateMemory(stage.id, _memory_seats_pending(state, stage)[0])
    return StageEnd(stage.id)


def step_apply(state: TrialState, step: Step, outcome: Reply | MemoryUpdate | None = None) -> object:
    """Apply any step ``next_step`` asked for, with what its seat produced (a reply, memory
    operations): the one dispatch the batch runner and the live driver share. Returns what was
    recorded: the turn of a reply, the refusals of memory operations, the court's document a
    stage opened with or, once the parties had decided, closed with (the appeal
    determination), else None."""
    if isinstance(step, StageStart):
        apply_stage_start(state, step)
        opened = state.artifacts[-1] if state.artifacts and state.artifacts[-1].stage == step.stage else None
        return opened
    if isinstance(step, StageEnd):
        last = state.artifacts[-1] if state.artifacts else None
        decided = any(turn.stage == step.stage for turn in state.turns)
        apply_stage_end(state, step)
        court = last is not None and last.stage == step.stage and last.author_seat == "environment"
        return last if court and decided else None
    if isinstance(step, Speak):
        return apply_reply(state, step, outcome)
    if isinstance(step, UpdateMemory):
        return apply_memory_update(state, step, outcome)
    raise EngineError(f"{step} is not a step to apply")


def apply_stage_start(state: TrialState, step: StageStart) -> None:
    stage = _expect_stage(state, step.stage, "pending")
    state.stage_status = "running"
    state.stage_history.append(stage.id)
    if stage.id == "AD-Det":
        determination = appeal_open(state)
        if determination is not None:
            state.artifacts.append(determination)
            state.stage_status = "done"
    _settle(state)


def apply_reply(state: TrialState, step: Speak, reply: Reply) -> TurnRecord:
    """Record a turn and move the cursor; the closing slot also stores the artifact."""
    expected = next_step(state)
    if expected != step:
        raise EngineError(f"expected {expected}, got {step}")
    if state.pending:
        owed = state.pending.pop(0)
        author = "human" if step.seat in state.human_seats else reply.author
        turn = apply_interjection(
            state,
            seat=step.seat,
            act=step.act,
            text=reply.text,
            author=author,
            tokens=reply.tokens,
            client_id=reply.client_id,
        )
        if owed.get("cut") and ruling_sustains(reply.text):
            _statement_ends(state)
        _counsel_advises(state)
        return turn
    turn = TurnRecord(
        seq=step.seq,
        stage=step.stage,
        phase=step.phase,
        seat=step.seat,
        role=step.role,
        side=step.side,
        speaker=step.speaker,
        author="human" if step.seat in state.human_seats else reply.author,
        act=step.act,
        text=reply.text,
        tokens=reply.tokens,
        decision=reply.decision,
        client_id=reply.client_id,
        decision_source=reply.decision_source,
    )
    state.turns.append(turn)
    state.stage_turns += 1
    if step.artifact is not None:
        draft = reply.artifact
        state.artifacts.append(
            ArtifactRecord(
                stage=step.stage,
                kind=step.artifact,
                title=draft.title if draft else document_title(step.artifact, state.language),
                text=draft.text if draft else reply.text,
                author_seat=step.seat,
                side=step.side,
            )
        )
    if state.stage_status == "closing":
        state.stage_status = "memory"
    else:
        if reply.decision is not None:
            state.decisions[step.side] = reply.decision
        _advance_cursor(state, ends_phase=reply.ends_phase)
    _settle(state)
    _counsel_advises(state)
    return turn


def _counsel_advises(state: TrialState) -> None:
    """A client agent is next to decide (mediation) while a person holds its counsel's
    seat: counsel advises first, in a short statement the client hears before deciding (the
    client's seat decides; counsel alone was never asked, issue 32)."""
    if state.finished or state.pending or state.stage_status != "running" or not state.human_seats:
        return  # no person holds counsel's seat (asked first: this runs after every turn)
    step = next_step(state)
    if not isinstance(step, Speak) or step.act not in ADVICE or step.role != "client":
        return
    counsel = f"{step.side}_lawyer"
    if step.seat in state.human_seats or counsel not in state.human_seats:
        return
    last = state.turns[-1] if state.turns else None
    if last is not None and (last.seat, last.act) == (counsel, ADVICE[step.act]):
        return
    state.pending.append({"seat": counsel, "act": ADVICE[step.act], "advice": step.seat})


def apply_interjection(
    state: TrialState, *, seat: str, act: str, text: str, author: str, tokens: int = 0, client_id: str = ""
) -> TurnRecord:
    """A turn outside the speaking order (an objection, the ruling on it, counsel's advice):
    recorded in the current stage and phase without moving the procedure on; a person's keeps
    its ``client_id``, so a retried message finds it."""
    stage = procedure_for(state.procedure).stages[state.stage_index]
    if state.finished or state.stage_status not in ("running", "closing"):
        raise EngineError("nothing is being heard right now")
    phase = stage.phases[state.phase_index].id if state.stage_status == "running" else closing_phase(stage)
    info = seat_info(state.procedure, seat)
    title = speaker_title(
        language=state.language,
        procedure=state.procedure,
        stage=stage.id,
        info=info,
        appellant_side=state.appellant_side,
    )
    turn = TurnRecord(
        state.next_seq,
        stage.id,
        phase,
        seat,
        info.role,
        info.side,
        title,
        author,
        act,
        text,
        tokens,
        client_id=client_id,
    )
    state.turns.append(turn)
    return turn


def _statement_ends(state: TrialState) -> None:
    """A statement cut by an objection the judge sustained: it ends where it was cut and the
    procedure moves past it, as if it had been made (overruled, it is made again from there:
    ``objections.statement_resumed``)."""
    state.stage_turns += 1
    if state.stage_status == "closing":
        state.stage_status = "memory"
    else:
        _advance_cursor(state, ends_phase=False)
    _settle(state)


def apply_judge_question(state: TrialState, *, seat: str, text: str, author: str) -> TurnRecord:
    """The presiding judge puts a question to one party out of turn; that seat answers next."""
    stage = _steerable(state)
    if seat == JUDGE_SEAT or seat not in stage_participants(state, stage):
        raise EngineError(f"{seat} does not take part in {stage.id}")
    turn = apply_interjection(state, seat=JUDGE_SEAT, act="question_party", text=text, author=author)
    state.pending.append({"seat": seat, "act": ANSWER_JUDGE})
    return turn


def apply_judge_control(state: TrialState, action: str) -> None:
    """The presiding judge steers the hearing: ``advance`` closes the current phase,
    ``mediation`` goes to the mediation inquiry, ``pronounce`` to the judgment."""
    stage = _steerable(state)
    if action == "advance":
        _advance_cursor(state, ends_phase=True)
    elif action == "mediation":
        index = next((i for i, phase in enumerate(stage.phases) if phase.decision == "mediation"), None)
        if index is None:
            raise EngineError(f"{stage.id} has no mediation inquiry")
        if index < state.phase_index:
            raise EngineError("mediation has already been offered in this stage")
        state.phase_index, state.round_index, state.slot_index, state.decisions = index, 0, 0, {}
    elif action == "pronounce":
        state.phase_index, state.round_index, state.slot_index = len(stage.phases), 0, 0
    else:
        raise EngineError(f"unknown control {action!r}; controls: {', '.join(JUDGE_CONTROLS)}")
    _settle(state)


def _steerable(state: TrialState) -> Stage:
    stage = current_stage(state)
    if stage is None or stage.kind != "trial" or state.stage_status != "running":
        raise EngineError("the judge steers a hearing only while it is in progress")
    if state.pending:
        raise EngineError(f"{state.pending[0]['seat']} must first {state.pending[0]['act'].replace('_', ' ')}")
    return stage


def interjection_step(state: TrialState, *, seat: str, act: str) -> Speak:
    """The ``Speak`` an agent answers for an interjection (the judge's ruling)."""
    stage = procedure_for(state.procedure).stages[state.stage_index]
    phase = stage.phases[state.phase_index].id if state.stage_status == "running" else closing_phase(stage)
    return _speak(state, stage, phase, Slot(seat, act))


def apply_memory_update(state: TrialState, step: UpdateMemory, update: MemoryUpdate) -> list[str]:
    """Apply a seat's stage-end memory operations; returns the refusals, one per bad op."""
    if next_step(state) != step:
        raise EngineError(f"memory update for {step.seat} was not requested")
    memory = state.memory[step.seat]
    refusals = []
    for op in update.ops:
        try:
            memory_apply(memory, op)
        except MemoryOperationError as error:
            refusals.append(str(error))
            continue
        state.memory_log.append(MemoryLogEntry(step.stage, step.seat, op.op, op.key, list(op.entries)))
    state.memory_done.append(step.seat)
    _settle(state)
    return refusals


def apply_stage_end(state: TrialState, step: StageEnd) -> None:
    procedure = procedure_for(state.procedure)
    if next_step(state) != step:
        raise EngineError(f"stage {step.stage} is not finished")
    enter_next_stage(state, procedure)


def _speak(state: TrialState, stage: Stage, phase: str, slot: Slot, artifact: str | None = None) -> Speak:
    seat = resolve_seat(state, slot.seat)
    info = seat_info(state.procedure, seat)
    return Speak(
        seq=state.next_seq,
        stage=stage.id,
        phase=phase,
        seat=seat,
        role=info.role,
        side=info.side,
        speaker=speaker_title(
            language=state.language,
            procedure=state.procedure,
            stage=stage.id,
            info=info,
            appellant_side=state.appellant_side,
        ),
        act=slot.act,
        artifact=artifact or slot.artifact,
    )


def _current_slot(state: TrialState, stage: Stage) -> tuple[Phase, Slot]:
    phase = stage.phases[state.phase_index]
    return phase, phase.slots[state.slot_index]


def _settle(state: TrialState) -> None:
    """Move the stage status past whatever has nothing left to do."""
    if state.finished:
        return
    stage = procedure_for(state.procedure).stages[state.stage_index]
    if state.stage_status == "running" and (
        state.phase_index >= len(stage.phases) or _budget_reserved_for_closing(state, stage)
    ):
        state.stage_status = "closing"
    if state.stage_status == "closing" and _closing_slot(state, stage) is None:
        state.stage_status = "memory"
    if state.stage_status == "memory" and not _memory_seats_pending(state, stage):
        state.stage_status = "done"


def _advance_cursor(state: TrialState, *, ends_phase: bool) -> None:
    stage = procedure_for(state.procedure).stages[state.stage_index]
    phase = stage.phases[state.phase_index]
    state.slot_index += 1
    if state.slot_index < len(phase.slots) and not ends_phase:
        return
    state.slot_index = 0
    state.round_index += 1
    if state.round_index < phase_rounds(state, phase) and not ends_phase:
        return
    if phase.decision == "mediation":
        accepted = [decision == "accept" for decision in state.decisions.values()]
        state.mediated = len(accepted) >= 2 and all(accepted)
    if phase.decision == "appeal":
        state.artifacts.append(appeal_close(state))
    state.round_index = 0
    state.decisions = {}
    state.phase_index += 1
    if state.mediated:
        state.phase_index = len(stage.phases)


def _budget_reserved_for_closing(state: TrialState, stage: Stage) -> bool:
    reserve = 1 if stage.closing is not None else 0
    return state.stage_turns >= stage.turn_budget - reserve


def _closing_slot(state: TrialState, stage: Stage) -> Slot | None:
    if stage.closing is not None and state.mediated and stage.kind == "trial":
        return MEDIATION_CLOSING
    return stage.closing


def _closing_artifact(state: TrialState, stage: Stage) -> str | None:
    if state.mediated and stage.kind == "trial":
        return "mediation_record"
    return stage.artifact


def _memory_seats_pending(state: TrialState, stage: Stage) -> list[str]:
    """Seats with memory that took part in the stage and have not yet written it."""
    spoke = {turn.seat for turn in state.turns if turn.stage == stage.id}
    return [
        seat
        for seat in procedure_for(state.procedure).seats
        if seat in state.memory and seat in spoke and seat not in state.memory_done
    ]


def _expect_stage(state: TrialState, stage_id: str, status: str) -> Stage:
    stage = procedure_for(state.procedure).stages[state.stage_index]
    if stage.id != stage_id or state.stage_status != status:
        raise EngineError(f"stage {stage_id} is not {status}")
    return stage
