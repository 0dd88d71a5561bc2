"""Reads for the trials app."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from django.db.models import Count, Q, QuerySet

from agents.routing import seat_route
from court.engine.state import TrialState, TurnRecord
from court.procedures import procedure_for
from court.procedures.civil import APPEAL_DECIDER
from court.procedures.seats import CIVIL_SIDES, PLAYABLE_SEATS, seat_info, target_seat
from court.procedures.structure import Stage
from trials.models import Case, Trial
from trials.splits import split_sample


def case_search(*, query: str = "", procedure: str = "") -> QuerySet[Case]:
    """Cases whose title or cause of action contains ``query``, optionally of one procedure."""
    cases = Case.objects.annotate(trial_count=Count("trials")).order_by("procedure", "title")
    if query:
        cases = cases.filter(Q(title__icontains=query) | Q(cause_of_action__icontains=query) | Q(id__icontains=query))
    if procedure:
        cases = cases.filter(procedure=procedure)
    return cases


def trials_seated(*, user) -> QuerySet[Trial]:
    """The trials ``user`` holds a seat in, newest first."""
    return Trial.objects.filter(seats__user=user).distinct().select_related("case")


def seats_open_to(trial: Trial, *, my_seats: list[str], teacher: bool) -> list[str]:
    """The seats still open in ``trial``: with ``teacher`` (the trial's overseer,
    ``trials.access.trial_overseer``) any seat, taking over a person's; otherwise the free
    playable seats, which a participant may invite someone to; none once the trial has ended."""
    if trial.status == Trial.Status.FINISHED:
        return []
    takeable = trial.seats.all() if teacher else trial.seats.filter(user__isnull=True)
    return [
        seat.seat
        for seat in takeable
        if (teacher or seat.seat in PLAYABLE_SEATS[trial.procedure]) and seat.seat not in my_seats
    ]


def trial_summary(trial: Trial) -> dict:
    """The ``simulate --json`` contract: trial, trajectory, stages with turns and artifacts, tokens."""
    state = trial.engine_state
    return {
        "trial_id": trial.pk,
        "trajectory_id": trial.trajectory.id,
        "stages": [
            {
                "stage": stage,
                "turns": sum(1 for turn in state.turns if turn.stage == stage),
                "artifacts": [artifact.kind for artifact in state.artifacts if artifact.stage == stage],
            }
            for stage in state.stage_history
        ],
        "tokens": trial.tokens,
        "tokens_estimated": trial.tokens_estimated,
        "warnings": [
            {"stage": turn.stage, "seat": turn.seat, "what": _warning_what(turn)} for turn in decisions_defaulted(state)
        ],
    }


def seat_models_meta(trial: Trial) -> dict[str, dict]:
    """For the trajectory's meta: each agent seat of a model-played trial with its model, the
    server it was routed to and the sampling settings (``agents.routing``)."""
    if trial.backend != "openai":
        return {}
    target = target_seat(trial.procedure, trial.target_side)
    return {
        seat.seat: seat_route(trial.procedure, seat.seat, is_target=seat.seat == target).meta()
        | {"model": seat.agent_model}
        for seat in trial.seats.all()
        if seat.user_id is None
    }


def decisions_defaulted(state: TrialState) -> list[TurnRecord]:
    """The turns whose decision a model did not give as asked (no ``DECISION:`` line): read
    from its words or, with no clear answer, the conservative default
    (``agents.decisions``)."""
    return [turn for turn in state.turns if turn.decision_source in ("words", "default")]


def _warning_what(turn: TurnRecord) -> str:
    if turn.decision_source == "words":
        return f"{turn.act}: no DECISION line; '{turn.decision}' read from the model's words"
    return f"{turn.act}: no DECISION line and no clear answer in the words; '{turn.decision}' taken by default"


def split_case_ids(*, split: str, procedure: str) -> list[str]:
    """The library's case ids in ``split`` (light, medium, full) for ``procedure``."""
    cases = Case.objects.filter(procedure=procedure).values_list("id", "cause_of_action")
    return split_sample(cases, split)


@dataclass(frozen=True)
class StageChoice:
    """A stage people may play on its own, from the case page. ``alternative`` is the stage
    that runs in its place as the trial decides (AR for AD: whichever side appeals); a
    ``first`` stage has no earlier stages for agents to play."""

    stage: str
    alternative: str = ""
    first: bool = False


def side_evaluated(procedure: str, seats: Sequence[str], target_side: str | None = None) -> str:
    """The side a trial of these seats evaluates, as ``trial_create`` chooses it: the civil
    ``target_side`` asked for, else the side of the first party seat played, else the
    plaintiff (criminal trials: the defence)."""
    if procedure == "criminal":
        return "defendant"
    if target_side in CIVIL_SIDES:
        return target_side
    return side_played(procedure, seats) or "plaintiff"


def side_played(procedure: str, seats: Iterable[str]) -> str | None:
    """In a civil case, the side of the first party seat (lawyer or client) a person plays:
    that side drafts its pleading and is the one the trial evaluates."""
    if procedure != "civil":
        return None
    sides = (seat_info(procedure, seat).side for seat in seats)
    return next((side for side in sides if side in CIVIL_SIDES), None)


def stage_choices(procedure: str, seats: Sequence[str], target_side: str | None = None) -> list[StageChoice]:
    """The stages in which one of ``seats`` speaks, in the procedure's order: only the
    pleading of the side evaluated (a plaintiff drafts the complaint, never the defence), and
    the appeal and its response as one choice, since the first instance decides who appeals."""
    stages = procedure_for(procedure).stages
    side = side_evaluated(procedure, seats, target_side)
    choices: list[StageChoice] = []
    for stage in stages:
        if not _may_run(stage, side) or not set(seats) & _speakers(stage, side):
            continue
        if choices and _alternatives(procedure, choices[-1].stage, stage):
            choices[-1] = replace(choices[-1], alternative=stage.id)
            continue
        choices.append(StageChoice(stage.id, first=stage is stages[0]))
    return choices


def _may_run(stage: Stage, side: str) -> bool:
    """Whether the stage may run when ``side`` is evaluated (an appeal may or may not follow)."""
    return all(condition == f"target_is_{side}" for condition in stage.when if condition.endswith(CIVIL_SIDES))


def _speakers(stage: Stage, side: str) -> set[str]:
    """Who may speak in ``stage``: the evaluated side's seats for its ``target_`` slots, either
    side's for the appellant's and appellee's, a losing side's party seats for the appeal
    decision."""
    slots = [slot for phase in stage.phases for slot in phase.slots] + ([stage.closing] if stage.closing else [])
    seats: set[str] = set()
    for slot in slots:
        prefix, _, role = slot.seat.partition("_")
        if slot.seat == APPEAL_DECIDER:
            seats.update(f"{party}_{kind}" for party in CIVIL_SIDES for kind in ("lawyer", "client"))
        elif prefix == "target":
            seats.add(f"{side}_{role}")
        elif prefix in ("appellant", "appellee"):
            seats.update(f"{party}_{role}" for party in CIVIL_SIDES)
        else:
            seats.add(slot.seat)
    return seats


def _alternatives(procedure: str, earlier: str, stage: Stage) -> bool:
    """``stage`` runs instead of ``earlier`` (the same unit and kind: AD or AR)."""
    other = procedure_for(procedure).stage(earlier)
    return other.unit == stage.unit and other.kind == stage.kind
