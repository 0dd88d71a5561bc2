"""Reads for the trials app."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from agents.routing import seat_route
from court.engine.state import TrialState, TurnRecord
from court.procedures.seats import PLAYABLE_SEATS, target_seat
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
