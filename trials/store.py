"""The unit of work of a trial: the one place its progress is written.

Every path that moves a trial (``simulate`` and batches, the live driver, a person's ``say``,
the judge's controls, objections, seats taken and handed back) stores through
``progress_store``: the turns, documents and memory operations the engine recorded since the
last store, the model calls made since (live trials included), the state (raising the trial's
``version``, which lets the live driver keep the state in memory between its steps), the token
count and, once the engine says the trial is over, its finished status. Callers hold the trial's row lock
inside a transaction; this module takes none of its own.

Tokens have one definition: the tokens the model servers billed for the trial's calls
(``LLMCallRecord``), and where a trial made no model call (the scripted backend, people) the
estimate of its turns. ``tokens_estimated`` says how many of them are estimates: a server that
reports no usage (llama.cpp's) has its calls estimated, and so is a trial without calls.

Finishing sends ``trial_finished`` inside the same transaction, so a finished trial and its
trajectory (annotation's receiver) are stored together or not at all; trials knows nothing of
annotation beyond this signal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.dispatch import Signal
from django.utils import timezone

from trials.engine.state import TrialState
from trials.models import Artifact, LLMCallRecord, MemoryOperation, Trial, Turn

trial_finished = Signal()
"""Sent with ``trial=`` when a trial's last step is stored, inside that transaction."""


def progress_store(trial: Trial, state: TrialState, *, calls: Iterable[dict] = (), fields: Iterable[str] = ()) -> None:
    """Store ``state`` and what it recorded since the last store, with the model ``calls``
    made meanwhile; ``fields`` names other columns of ``trial`` the caller changed."""
    stored = _stored(trial)
    _records_store(trial, state, stored)
    calls = [LLMCallRecord(trial=trial, **call) for call in calls]
    LLMCallRecord.objects.bulk_create(calls)
    trial.state = state.to_dict()
    trial.version += 1
    billed = stored.billed + sum(call.prompt_tokens + call.completion_tokens for call in calls)
    estimated = stored.estimated + sum(
        call.prompt_tokens + call.completion_tokens for call in calls if call.tokens_estimated
    )
    trial.tokens = billed if stored.calls or calls else sum(turn.tokens for turn in state.turns)
    trial.tokens_estimated = estimated if stored.calls or calls else trial.tokens
    changed = {"state", "version", "tokens", "tokens_estimated", *fields}
    finishing = state.finished and trial.status != Trial.Status.FINISHED
    if finishing:
        trial.status, trial.pause_reason, trial.finished_at = Trial.Status.FINISHED, "", timezone.now()
        changed |= {"status", "pause_reason", "finished_at"}
    trial.save(update_fields=sorted(changed))
    if finishing:
        trial_finished.send(sender=Trial, trial=trial)


@dataclass(frozen=True)
class _Stored:
    turns: int
    artifacts: int
    memory: int
    calls: int
    billed: int
    """Tokens counted over the trial's model calls so far."""
    estimated: int
    """Of those, the tokens estimated because a server reported no usage."""


def _stored(trial: Trial) -> _Stored:
    """What is stored of the trial so far, in one query: a live trial stores after every
    step, and three counts and a sum through the ORM cost more Python than the query itself."""
    counts = ", ".join(
        f"(SELECT COUNT(*) FROM {model._meta.db_table} WHERE trial_id = %s)"
        for model in (Turn, Artifact, MemoryOperation, LLMCallRecord)
    )
    tokens = (
        f"COALESCE(SUM(prompt_tokens + completion_tokens), 0) FROM {LLMCallRecord._meta.db_table} WHERE trial_id = %s"
    )
    billed, estimated = f"(SELECT {tokens})", f"(SELECT {tokens} AND tokens_estimated)"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}, {billed}, {estimated}", [trial.pk] * 6)
        return _Stored(*(int(value) for value in cursor.fetchone()))


def _records_store(trial: Trial, state: TrialState, stored: _Stored) -> None:
    """What the state recorded since the last store (the engine's lists only grow)."""
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
        for turn in state.turns[stored.turns :]
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
        for artifact in state.artifacts[stored.artifacts :]
    )
    MemoryOperation.objects.bulk_create(
        MemoryOperation(trial=trial, stage=entry.stage, seat=entry.seat, op=entry.op, key=entry.key, value=entry.value)
        for entry in state.memory_log[stored.memory :]
    )
