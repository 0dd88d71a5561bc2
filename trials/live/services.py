"""Live trials: creating one (``trial_create``), and what a person's ``say`` and controls do.

Plain transactional services (no websocket here): the consumer and the driver call them.
Every write re-checks, under a row lock, that the step it records is the one the engine asks
for, so a human reply, the driver and a retried message can never record a turn twice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from court.documents import DOCUMENTS, document_compose
from court.engine.machine import (
    EngineError,
    apply_judge_control,
    apply_judge_question,
    apply_reply,
    next_step,
)
from court.engine.objections import objection_refusal
from court.engine.state import TrialState, TurnRecord
from court.engine.steps import ArtifactDraft, Reply, Speak
from court.engine.visibility import build_view, stage_heard, stage_participants
from court.procedures import procedure_for
from court.procedures.civil import CLOSING_ACTS, DECISIONS
from court.procedures.seats import PLAYABLE_SEATS, target_seat
from trials.access import (
    BadInvitation,
    invitation_use,
    invitations_revoke,
    seats_of,
    trial_overseer,
)
from trials.leases import preparation_enqueue
from trials.models import Seat, Trial, Turn
from trials.protocol import ErrorCode
from trials.services import agent_model_name
from trials.store import progress_store


class LiveError(Exception):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class SayResult:
    turn: TurnRecord
    duplicate: bool
    audience: frozenset[str]
    """The seats that hear the turn's stage."""


def human_say(
    *,
    trial_id: int,
    user: AbstractBaseUser,
    text: str,
    client_id: str = "",
    decision: str | None = None,
    sections: dict[str, str] | None = None,
    last: bool = False,
) -> SayResult:
    """Record what a person says in the seat the trial is waiting for; a retried message
    (same ``client_id``) returns the turn it already recorded. A document written in the
    sectioned editor arrives as ``sections`` and is assembled here, under its headings.
    ``last`` closes a phase its speaker may close (the lawyer's last follow-up question);
    elsewhere it is ignored, as the procedure decides when other phases end."""
    text = text.strip()
    if not text and not sections:
        raise LiveError(ErrorCode.BAD_MESSAGE, "say needs some text")
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        state = trial.engine_state
        held = seats_of(trial, user)
        if client_id:
            known = next((turn for turn in state.turns if turn.client_id == client_id), None)
            if known is not None and known.seat not in held:
                raise LiveError(ErrorCode.BAD_MESSAGE, "this client_id names another seat's turn; send a new one")
            if known is not None:
                return SayResult(known, duplicate=True, audience=stage_heard(state, known.stage))
        if state.finished:
            raise LiveError(ErrorCode.TRIAL_FINISHED, "the trial has ended")
        refuse_while_preparing(trial)
        step = next_step(state)
        if not held:
            raise LiveError(ErrorCode.NOT_YOUR_SEAT, "you hold no seat in this trial")
        if not isinstance(step, Speak) or step.seat not in held:
            raise LiveError(ErrorCode.NOT_YOUR_TURN, "it is not your seat's turn to speak")
        if sections and step.artifact in DOCUMENTS:
            text = document_compose(step.artifact, state.language, {str(k): str(v) for k, v in sections.items()})
            if text.strip() == DOCUMENTS[step.artifact].title(state.language):
                raise LiveError(ErrorCode.BAD_MESSAGE, "the document has no section written yet")
        elif not text:
            raise LiveError(ErrorCode.BAD_MESSAGE, "say needs some text")
        choices = DECISIONS.get(step.act)
        if choices is not None and decision not in choices:
            what = step.act.removeprefix("answer_")
            raise LiveError(ErrorCode.BAD_MESSAGE, f"answer {what} with a decision: {' or '.join(choices)}")
        reply = Reply(
            text=text,
            author="human",
            client_id=client_id,
            decision=decision if choices is not None else None,
            artifact=ArtifactDraft(text.splitlines()[0][:300], text) if step.artifact else None,
            ends_phase=last and step.act in CLOSING_ACTS,
        )
        turn = apply_reply(state, step, reply)
        progress_store(trial, state)
    return SayResult(turn, duplicate=False, audience=stage_heard(state, turn.stage))


@dataclass(frozen=True)
class ControlResult:
    turn: TurnRecord | None
    phase: str
    audience: frozenset[str]
    """The seats that hear ``turn`` (a judge's question)."""


def judge_control(
    *, trial_id: int, user: AbstractBaseUser, action: str, seat: str = "", text: str = ""
) -> ControlResult:
    """The presiding judge (the person in the judge seat, or an instructor) steers the
    hearing: advance to the next phase, offer mediation, go to the judgment, or question a
    party (recorded as the judge's turn; that party answers next)."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        presiding(trial, user, doing="steers the hearing")
        refuse_while_preparing(trial)
        state = trial.engine_state
        turn = None
        try:
            if action == "question":
                if not text.strip():
                    raise LiveError(ErrorCode.BAD_MESSAGE, "a question needs some text")
                author = "human" if "judge" in state.human_seats else "agent"
                turn = apply_judge_question(state, seat=seat, text=text.strip(), author=author)
            else:
                apply_judge_control(state, action)
        except EngineError as error:
            raise LiveError(ErrorCode.BAD_MESSAGE, str(error)) from None
        progress_store(trial, state)
    step = next_step(state)
    audience = stage_heard(state, turn.stage) if turn is not None else frozenset()
    return ControlResult(turn, getattr(step, "phase", ""), audience)


def presiding(trial: Trial, user: AbstractBaseUser, *, doing: str) -> str:
    """Who ``user`` presides as ("the presiding judge" in the judge seat, else "an
    instructor"); anyone else is refused: only they steer and pause a trial."""
    if "judge" in seats_of(trial, user):
        return "the presiding judge"
    if trial_overseer(trial, user):
        return "an instructor"
    raise LiveError(ErrorCode.NOT_YOUR_SEAT, f"only the judge seat or an instructor {doing}")


def refuse_while_preparing(trial: Trial) -> None:
    """Nobody acts in a trial whose earlier stages agents are still playing."""
    if trial.status == Trial.Status.PREPARING:
        raise LiveError(
            ErrorCode.NOT_YOUR_TURN, f"agents are still playing the stages before {trial.first_stage}; wait for them"
        )


def trial_pause_set(*, trial_id: int, user: AbstractBaseUser, paused: bool) -> str:
    """The judge seat or an instructor pauses or resumes a trial; a finished trial stays
    finished. Resuming also clears the reason a failure left, and hands a preparation that
    failed back to a worker. Who did it: ``judge`` or ``instructor``."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        by = presiding(trial, user, doing="controls the trial")
        if trial.status == Trial.Status.FINISHED or trial.engine_state.finished:
            raise LiveError(ErrorCode.TRIAL_FINISHED, "the trial has ended")
        refuse_while_preparing(trial)
        if paused:
            trial.status, trial.pause_reason = Trial.Status.PAUSED, f"paused by {by}"
        elif trial.first_stage:
            trial.status, trial.pause_reason = Trial.Status.PREPARING, ""
            preparation_enqueue(trial.pk)
        else:
            trial.status, trial.pause_reason = Trial.Status.RUNNING, ""
        trial.save(update_fields=["status", "pause_reason"])
    return "judge" if by == "the presiding judge" else "instructor"


def seat_view_for(trial: Trial, seat: str) -> dict:
    """What a seat's case-file panel shows: its view at the trial's current stage, no more."""
    return build_view(trial.engine_state, seat).__dict__


def turns_after(trial: Trial, state: TrialState, after_seq: int, seats: list[str] | None) -> list[Turn]:
    """The stored turns after ``after_seq`` that ``seats`` hear (``None``: all, for instructors);
    ``state`` is the trial's, decoded once by the caller."""
    turns = list(trial.turns.filter(seq__gt=after_seq).order_by("seq"))
    if seats is None:
        return turns
    heard = {stage for stage in {turn.stage for turn in turns} if stage_heard_by(state, stage, seats)}
    return [turn for turn in turns if turn.stage in heard]


def seat_release(*, trial_id: int, seat: str, user: AbstractBaseUser) -> None:
    """Hand a seat back to an agent: its holder leaving, or an instructor handing back."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        row = trial.seats.filter(seat=seat).first()
        if row is None or row.user_id is None:
            raise LiveError(ErrorCode.BAD_MESSAGE, f"{seat} is not held by a person")
        if row.user_id != user.pk and not trial_overseer(trial, user):
            raise LiveError(ErrorCode.NOT_YOUR_SEAT, f"{seat} is held by someone else")
        if row.user_id != user.pk:
            invitations_revoke(trial=trial, invitee_id=row.user_id)
        state = trial.engine_state
        state.human_seats.pop(seat, None)
        # Advice owed by counsel is a person's to give: an agent taking the seat owes none.
        state.pending = [owed for owed in state.pending if not (owed["seat"] == seat and owed.get("advice"))]
        target = target_seat(trial.procedure, trial.target_side)
        row.handed_back_by_id = row.user_id if row.user_id == user.pk else None
        row.user, row.agent_model = (
            None,
            agent_model_name(trial.backend, trial.procedure, seat, is_target=seat == target),
        )
        row.save(update_fields=["user", "agent_model", "handed_back_by"])
        progress_store(trial, state)


def seat_take(*, trial_id: int, seat: str, user: AbstractBaseUser, invitation: str = "") -> None:
    """Someone invited to a seat an agent holds takes it (``invitation``: the signed token of
    ``trials.access.invitation_make``, spent by taking the seat); an overseer (an instructor of
    the trial's course, an admin) may take over any seat a person may play, a person's
    included, which removes that person as ``seat_release`` does. Nobody else takes a seat."""
    with transaction.atomic():
        trial = Trial.objects.select_for_update().get(pk=trial_id)
        row = trial.seats.filter(seat=seat).first()
        if row is None or seat not in PLAYABLE_SEATS[trial.procedure]:
            raise LiveError(ErrorCode.BAD_MESSAGE, f"{seat!r} is not a seat a person may take in this trial")
        state = trial.engine_state
        if state.finished:
            raise LiveError(ErrorCode.TRIAL_FINISHED, "the trial has ended")
        if trial_overseer(trial, user):
            if row.user_id is not None and row.user_id != user.pk:
                invitations_revoke(trial=trial, invitee_id=row.user_id)
        else:
            _invitation_spend(trial, row, user, invitation)
        state.human_seats[seat] = user.get_username()
        row.user, row.agent_model = user, ""
        row.save(update_fields=["user", "agent_model"])
        progress_store(trial, state)


def _invitation_spend(trial: Trial, row: Seat, user: AbstractBaseUser, invitation: str) -> None:
    """A participant takes ``row`` only with an open invitation to it, which this uses up (the
    caller's transaction undoes that if the seat turns out to be held by someone else)."""
    if not invitation:
        raise LiveError(ErrorCode.NOT_YOUR_SEAT, "a seat is taken with an invitation from a participant")
    try:
        invitation_use(invitation, trial_id=trial.pk, seat=row.seat, user=user)
    except BadInvitation as error:
        raise LiveError(ErrorCode.NOT_YOUR_SEAT, str(error)) from None
    if row.user_id is not None and row.user_id != user.pk:
        raise LiveError(ErrorCode.NOT_YOUR_SEAT, f"{row.seat} is already held by someone else")


def stage_heard_by(state: TrialState, stage: str, seats: list[str]) -> bool:
    """Whether ``seats`` hear a stage's dialogue (``stage_heard``: a side's consultation and
    drafting stay with that side; a hearing is heard by the whole courtroom)."""
    return not stage_heard(state, stage).isdisjoint(seats)


PARTIES = ("_lawyer", "_client")
"""Seat suffixes of the parties: the court's notices (the appeal determination) are theirs."""


def notice_audience(state: TrialState) -> frozenset[str]:
    """The parties' seats (visibility: the appeal determination is the parties' to read)."""
    stages = procedure_for(state.procedure).stages
    seats = frozenset().union(*(stage_participants(state, stage) for stage in stages))
    return frozenset(seat for seat in seats if seat.endswith(PARTIES))


def objector_seat(*, trial_id: int, seats: list[str], speaker: str | None) -> str:
    """Which of ``seats`` may object to ``speaker``'s statement (the one streaming or, if
    ``speaker`` is None, the last recorded), in a hearing they take part in; the engine's
    ``objection_refusal`` says when. Raises ``LiveError``."""
    state = Trial.objects.get(pk=trial_id).engine_state
    speaker = speaker or (state.turns[-1].seat if state.turns else None)
    if speaker is None:
        raise LiveError(ErrorCode.NOT_YOUR_TURN, "there is no statement to object to")
    refusals = {seat: objection_refusal(state, seat=seat, speaker_seat=speaker) for seat in seats}
    seat = next((seat for seat, refusal in refusals.items() if refusal is None), None)
    if seat is None:
        reason = next(iter(refusals.values()), None) or "only counsel seated in this hearing may object"
        raise LiveError(ErrorCode.NOT_YOUR_TURN, reason)
    return seat


def turns_heard(trial: Trial, seats: list[str] | None) -> list[Turn]:
    """The stored turns ``seats`` may read (``None``: every turn, for instructors)."""
    turns = list(trial.turns.order_by("seq"))
    if seats is None:
        return turns
    state = trial.engine_state
    heard = {stage for stage in {turn.stage for turn in turns} if stage_heard_by(state, stage, seats)}
    return [turn for turn in turns if turn.stage in heard]


def phase_reached(state: TrialState, stage_id: str) -> str:
    """How far a trial has gone in a stage of its history: the phase in progress in the
    current stage, the last phase of a stage that is over (a document a seat may read only
    from a phase on, the complaint's evidence list, reads as it did at that point)."""
    stage = procedure_for(state.procedure).stage(stage_id)
    current = not state.finished and procedure_for(state.procedure).stages[state.stage_index].id == stage_id
    if current and state.stage_status in ("pending", "running"):
        return stage.phases[state.phase_index].id if state.stage_status == "running" else ""
    return stage.phases[-1].id if stage.phases else ""


def transcript_for(state: TrialState, seats: list[str] | None) -> list[dict]:
    """Stages with the turns and documents ``seats`` may read (``None``: everything, staff),
    and the strategies written or revised in each: every seat's for staff, a participant's
    own seats' only."""
    readable: dict[tuple[str, str], str] | None = None
    if seats is not None:
        readable = {
            (artifact["kind"], artifact["title"]): artifact["text"]
            for seat in seats
            for stage in state.stage_history
            for artifact in build_view(state, seat, stage=stage, phase=phase_reached(state, stage)).artifacts
        }
    stages = []
    for stage in state.stage_history:
        present = seats is None or stage_heard_by(state, stage, seats)
        stages.append(
            {
                "stage": stage,
                "turns": [turn for turn in state.turns if turn.stage == stage] if present else [],
                "artifacts": [
                    artifact if readable is None else replace(artifact, text=readable[(artifact.kind, artifact.title)])
                    for artifact in state.artifacts
                    if artifact.stage == stage and (readable is None or (artifact.kind, artifact.title) in readable)
                ],
                "strategies": [
                    {"seat": seat, **entry}
                    for seat, entries in state.strategies.items()
                    if seats is None or seat in seats
                    for entry in entries
                    if entry["stage"] == stage
                ],
            }
        )
    return stages
