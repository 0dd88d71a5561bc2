"""Reflective Legal Skill (LegalWorld section 4.6): finished trials reflected on by their
lawyer's model, with their scores, and the notes kept.

The rules a candidate must meet live in ``agents.skill_notes``; this module reads the
trial and its scorecard, asks the model and stores what is kept; ``trials.reflection`` gives
the kept notes to a new trial of the same cause."""

from __future__ import annotations

from dataclasses import dataclass

from agents import skill_notes as notes
from agents.prompts import materials, quoted
from agents.routing import sampling, seat_route
from court.engine.visibility import build_view
from court.procedures import procedure_for
from court.procedures.seats import seat_info, target_seat
from legalsim.llm import LLMCall, LLMClient
from scoring.models import TrialScore
from scoring.scorers import RuleBasedScorer
from trials.models import SkillNote, Trial

ACTION_CHARS = 300
DOCUMENT_CHARS = 600


@dataclass(frozen=True)
class Reflection:
    """What became of one trial's reflection: the note kept, or why nothing was."""

    trial: Trial
    note: SkillNote | None
    dropped: str = ""


def trial_reflect(trial: Trial, *, client: LLMClient | None = None) -> Reflection:
    """Ask the target lawyer's model (its route, as the trial ran it) for a candidate rule and
    keep it as a note of the case's cause if it is complete and new. ``LLMError`` propagates:
    a server that fails is not a dropped candidate."""
    if trial.status != Trial.Status.FINISHED:
        return Reflection(trial, None, f"trial {trial.pk} is {trial.status}, not finished")
    seat = target_seat(trial.procedure, trial.target_side)
    role = seat_info(trial.procedure, seat).role
    stages = procedure_for(trial.procedure).stage_ids
    route = seat_route(trial.procedure, seat, is_target=True, target_model=trial.target_model)
    client = client or route.client()
    existing = list(SkillNote.objects.filter(cause_of_action=trial.case.cause_of_action))
    messages = notes.reflection_messages(
        trajectory_summary(trial, seat, existing), language=trial.case.language, role=role, stages=stages
    )
    result, _ = client.complete(LLMCall(route.model, messages, **sampling()))
    try:
        candidate = notes.candidate_read(result.text, roles=(role,), stages=stages)
    except notes.CandidateRejected as rejected:
        return Reflection(trial, None, str(rejected))
    for note in existing:
        shared = notes.overlap(candidate.words(), f"{note.trigger} {note.principle} {note.expected_output}")
        if shared >= notes.OVERLAP_LIMIT:
            return Reflection(trial, None, f"restates note {note.pk} (overlap {shared:.2f})")
    return Reflection(trial, _note_store(trial, candidate, route.model))


def trajectory_summary(trial: Trial, seat: str, existing: list[SkillNote]) -> notes.TrajectorySummary:
    """The target seat's own view of the finished trial, its actions, its documents, its
    scores and the triggers its cause's notes already cover."""
    state = trial.engine_state
    last_stage = state.turns[-1].stage if state.turns else None
    view = build_view(state, seat, stage=last_stage)
    actions = tuple(
        f"[{turn.stage}] {turn.act}: {quoted(turn.text[:ACTION_CHARS])}" for turn in trial.turns.filter(seat=seat)
    )
    documents = tuple(
        f"{artifact.title}\n{artifact.text[:DOCUMENT_CHARS]}" for artifact in trial.artifacts.filter(author_seat=seat)
    )
    score = TrialScore.objects.filter(trial=trial, seat=seat, scorer=RuleBasedScorer.label).first()
    return notes.TrajectorySummary(
        materials=materials(view),
        actions=actions,
        documents=documents,
        scores=_score_figures(score),
        kept_triggers=tuple(note.trigger for note in existing),
    )


def _score_figures(score: TrialScore | None) -> dict[str, float]:
    if score is None:
        return {}
    figures = {f"stage {stage}": value for stage, value in score.result.get("stages", {}).items()}
    for name, value in score.result.get("capabilities", {}).items():
        halves = value.items() if isinstance(value, dict) else [("", value)]
        figures |= {f"{name} {half}".strip(): figure for half, figure in halves if figure is not None}
    return figures


def _note_store(trial: Trial, candidate: notes.Candidate, model: str) -> SkillNote:
    return SkillNote.objects.create(
        cause_of_action=trial.case.cause_of_action,
        language=trial.case.language,
        role=candidate.role,
        stages=list(candidate.stages),
        trigger=candidate.trigger,
        principle=candidate.principle,
        expected_output=candidate.expected_output,
        source_trial=trial,
        source_case=trial.case_id,
        model=model,
    )
