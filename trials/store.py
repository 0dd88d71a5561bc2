"""The unit of work of a trial: the one place its progress is written.

Every path that moves a trial (``simulate`` and batches, the live driver, a person's ``say``,
the judge's controls, objections, seats taken and handed back) stores through
``progress_store``: the turns, documents and memory operations the engine recorded since the
last store, the model calls made since (live trials included), the state, the token count and,
once the engine says the trial is over, its finished status. Callers hold the trial's row lock
inside a transaction; this module takes none of its own.

Tokens have one definition: the tokens the model servers billed for the trial's calls
(``LLMCallRecord``), and where a trial made no model call (the scripted backend, people) the
estimate of its turns.

Finishing sends ``trial_finished`` inside the same transaction, so a finished trial and its
trajectory (annotation's receiver) are stored together or not at all; trials knows nothing of
annotation beyond this signal.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import F, Sum
from django.dispatch import Signal
from django.utils import timezone

from trials.engine.state import TrialState
from trials.models import Artifact, LLMCallRecord, MemoryOperation, Trial, Turn

trial_finished = Signal()
"""Sent with ``trial=`` when a trial's last step is stored, inside that transaction."""


def progress_store(trial: Trial, state: TrialState, *, calls: Iterable[dict] = (), fields: Iterable[str] = ()) -> None:
    """Store ``state`` and what it recorded since the last store, with the model ``calls``
    made meanwhile; ``fields`` names other columns of ``trial`` the caller changed."""
    _records_store(trial, state)
    LLMCallRecord.objects.bulk_create(LLMCallRecord(trial=trial, **call) for call in calls)
    trial.state = state.to_dict()
    trial.tokens = tokens_used(trial, state)
    changed = {"state", "tokens", *fields}
    finishing = state.finished and trial.status != Trial.Status.FINISHED
    if finishing:
        trial.status, trial.pause_reason, trial.finished_at = Trial.Status.FINISHED, "", timezone.now()
        changed |= {"status", "pause_reason", "finished_at"}
    trial.save(update_fields=sorted(changed))
    if finishing:
        trial_finished.send(sender=Trial, trial=trial)


def tokens_used(trial: Trial, state: TrialState) -> int:
    """The tokens billed for the trial's model calls; without any, the turns' estimate."""
    billed = trial.llm_calls.aggregate(total=Sum(F("prompt_tokens") + F("completion_tokens")))["total"]
    return billed if billed is not None else sum(turn.tokens for turn in state.turns)


def _records_store(trial: Trial, state: TrialState) -> None:
    """What the state recorded since the last store (the engine's lists only grow)."""
    stored_turns = trial.turns.count()
    stored_artifacts = trial.artifacts.count()
    stored_memory = trial.memory_operations.count()
    Turn.objects.bulk_create(
        Turn(
            trial=trial,
            seq=turn.seq,
            stage=turn.stage,
            phase=turn.phase,
            seat=turn.seat,
            role=turn.role,
            side=turn.side,
            speaker=turn.speaker,
            author=turn.author,
            act=turn.act,
            text=turn.text,
            tokens=turn.tokens,
            client_id=turn.client_id,
        )
        for turn in state.turns[stored_turns:]
    )
    Artifact.objects.bulk_create(
        Artifact(
            trial=trial,
            stage=artifact.stage,
            kind=artifact.kind,
            title=artifact.title,
            text=artifact.text,
            author_seat=artifact.author_seat,
            side=artifact.side,
        )
        for artifact in state.artifacts[stored_artifacts:]
    )
    MemoryOperation.objects.bulk_create(
        MemoryOperation(trial=trial, stage=entry.stage, seat=entry.seat, op=entry.op, key=entry.key, value=entry.value)
        for entry in state.memory_log[stored_memory:]
    )
