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

A store costs the same whatever the trial's length, bar the state itself: what is already
stored is remembered on the ``Trial`` object from its last committed store (a store raises
``version``, so a trial someone else stored since is counted again, in one query), and the
new rows go without a model instance a row: on PostgreSQL the state, the new rows of the
three tables and the trial's columns in one statement, the state encoded once; elsewhere one
INSERT a table and the trial's ``save``. No signal is sent for the trial's row (none listens).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, partial
from operator import attrgetter
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, connection, models, transaction
from django.dispatch import Signal
from django.utils import timezone

from court.engine.state import TrialState
from trials.models import Artifact, LLMCallRecord, MemoryOperation, Trial, Turn

trial_finished = Signal()
"""Sent with ``trial=`` when a trial's last step is stored, inside that transaction."""

_sqlite_writer = threading.RLock()


@contextmanager
def writing() -> Iterator[None]:
    """A write transaction. SQLite lets one writer in at a time, and the threads of one
    process (a batch's cases in flight) queue for it here rather than in SQLite's busy
    handler, which gives up with "database is locked" after the database's timeout while a
    hundred threads share one interpreter lock; PostgreSQL locks rows and needs no queue."""
    if connection.vendor != "sqlite":
        with transaction.atomic():
            yield
        return
    with _sqlite_writer, transaction.atomic():
        yield


def progress_store(trial: Trial, state: TrialState, *, calls: Iterable[dict] = (), fields: Iterable[str] = ()) -> None:
    """Store ``state`` and what it recorded since the last store, with the model ``calls``
    made meanwhile; ``fields`` names other columns of ``trial`` the caller changed."""
    stored = _stored(trial)
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
    if connection.vendor == "postgresql":
        _store_postgresql(trial, stored, sorted(changed))
    else:
        _records_store(trial, state, stored)
        trial.save(update_fields=sorted(changed))
    if finishing:
        trial_finished.send(sender=Trial, trial=trial)
    after = _Stored(
        len(state.turns), len(state.artifacts), len(state.memory_log), stored.calls + len(calls), billed, estimated
    )
    transaction.on_commit(partial(_remember, trial, trial.version, after))


def progress_started(trial: Trial) -> None:
    """``trial`` was just created, with nothing of its progress stored yet: its first store
    need not count (told inside the transaction that creates it)."""
    transaction.on_commit(partial(_remember, trial, trial.version, _Stored(0, 0, 0, 0, 0, 0)))


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
    """What is stored of the trial so far: as this process's last committed store of it left
    it, when ``trial`` is the object that store was made through and nobody has stored it
    since (a store raises ``version``), else counted."""
    known = getattr(trial, _LAST_STORE, None)
    if known is not None and known[0] == trial.version:
        return known[1]
    return _counted(trial)


def _remember(trial: Trial, version: int, stored: _Stored) -> None:
    """Called once the store's transaction committed (a rolled-back store is not remembered)."""
    setattr(trial, _LAST_STORE, (version, stored))


_LAST_STORE = "_legalsim_last_store"
"""The attribute of a ``Trial`` object holding ``(version, _Stored)`` of its last store."""


def _counted(trial: Trial) -> _Stored:
    """What is stored of the trial so far, in one query: three counts and a sum through the
    ORM cost more Python than the query itself."""
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


_TURN_FIELDS = tuple("seq stage phase seat role side speaker author act text tokens client_id".split())
_ARTIFACT_FIELDS = tuple("stage kind title text author_seat side".split())
_MEMORY_FIELDS = tuple("stage seat op key value".split())
_FIELDS = {Turn: _TURN_FIELDS, Artifact: _ARTIFACT_FIELDS, MemoryOperation: _MEMORY_FIELDS}


def _records_store(trial: Trial, state: TrialState, stored: _Stored) -> None:
    """What the state recorded since the last store (the engine's lists only grow), each
    record's fields under the same names as its row's."""
    now = timezone.now()
    for model, records, names, stamped in (
        (Turn, state.turns[stored.turns :], _TURN_FIELDS, True),
        (Artifact, state.artifacts[stored.artifacts :], _ARTIFACT_FIELDS, True),
        (MemoryOperation, state.memory_log[stored.memory :], _MEMORY_FIELDS, False),
    ):
        shared = {"trial": trial.pk, **({"created_at": now} if stamped else {})}
        fields_of = attrgetter(*names)
        _insert_values(model, shared, names, [fields_of(record) for record in records])


_LISTS = {"turns": Turn, "artifacts": Artifact, "memory_log": MemoryOperation}
"""The state's lists that only grow, each also stored a record a row in its table."""


def _store_postgresql(trial: Trial, stored: _Stored, changed: list[str]) -> None:
    """PostgreSQL: the state, its records not stored yet and the ``changed`` columns in one
    statement. The state goes as one JSON parameter, encoded once, from which the server
    reads the new records into each table's row type (a parameter a value cost the client
    more than the server spent on the rows; four statements a store cost more than one)."""
    values = {
        field.column: field.get_db_prep_save(getattr(trial, field.attname), connection)
        for field in map(Trial._meta.get_field, changed)
        if field.name != "state"
    }
    params = {
        "state": json.dumps(trial.state, ensure_ascii=False),
        "trial": trial.pk,
        "now": timezone.now(),
        **{f"{name}_stored": getattr(stored, _STORED_COUNT[name]) for name in _LISTS},
        **{f"v{index}": value for index, value in enumerate(values.values())},
    }
    quote = connection.ops.quote_name
    assignments = ", ".join(
        [f"{quote(column)} = %(v{index})s" for index, column in enumerate(values)] + ["state = new.state"]
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"{_records_sql()} UPDATE {_TRIAL} SET {assignments} FROM new WHERE {_TRIAL}.id = %(trial)s", params
        )
        if cursor.rowcount != 1:
            raise DatabaseError(f"trial {trial.pk} is gone: its progress cannot be stored")


_STORED_COUNT = {"turns": "turns", "artifacts": "artifacts", "memory_log": "memory"}
_TRIAL = Trial._meta.db_table


@cache
def _records_sql() -> str:
    """``WITH`` the state as ``new`` and one ``INSERT`` a table of the records past those
    stored in each of its lists, in order."""
    inserts = []
    quote = connection.ops.quote_name
    for name, model in _LISTS.items():
        meta = model._meta
        own = [meta.get_field(field).column for field in _FIELDS[model]]
        if own != list(_FIELDS[model]):
            raise ImproperlyConfigured(f"{meta.db_table}: the state's records are read back by column name")
        stamped = any(field.name == "created_at" for field in meta.fields)
        columns = ", ".join(map(quote, ["trial_id", *(["created_at"] if stamped else []), *own]))
        selected = ", ".join(
            ["%(trial)s", *(["%(now)s"] if stamped else []), *(f"row.{quote(column)}" for column in own)]
        )
        inserts.append(
            f"{name} AS (INSERT INTO {quote(meta.db_table)} ({columns}) SELECT {selected} "
            f"FROM new, jsonb_array_elements(new.state -> '{name}') WITH ORDINALITY AS item(record, position), "
            f"jsonb_populate_record(NULL::{quote(meta.db_table)}, item.record) AS row "
            f"WHERE item.position > %({name}_stored)s ORDER BY item.position)"
        )
    return f"WITH new AS (SELECT %(state)s::jsonb AS state), {', '.join(inserts)}"


_ROWS_A_STATEMENT = 500
"""Rows of one INSERT ... VALUES: well under SQLite's limit on parameters."""


def _insert_values(model: type[models.Model], shared: dict[str, Any], names: Sequence[str], rows: list[tuple]) -> None:
    """New rows of ``model`` on other databases than PostgreSQL: the fields ``names`` from
    ``rows``, those of ``shared`` the same in every row, without a model instance a row (the
    ORM's ``bulk_create`` spent more Python than the database spent storing), INSERT ...
    VALUES a few hundred rows at a time, each value through its field's conversion for the
    database unless text or a number. Every field but the id is named: a field left out
    takes no default."""
    if not rows:
        return
    meta = model._meta
    columns = [meta.get_field(name).column for name in [*shared, *names]]
    table, quoted = connection.ops.quote_name(meta.db_table), ", ".join(map(connection.ops.quote_name, columns))
    common = [meta.get_field(name).get_db_prep_save(value, connection) for name, value in shared.items()]
    plain = (models.CharField, models.TextField, models.IntegerField)
    own = [meta.get_field(name) for name in names]
    converted = [(index, field) for index, field in enumerate(own) if not isinstance(field, plain)]
    placeholders = f"({', '.join(['%s'] * (len(shared) + len(names)))})"
    for start in range(0, len(rows), _ROWS_A_STATEMENT):
        params: list[Any] = []
        chunk = rows[start : start + _ROWS_A_STATEMENT]
        for row in chunk:
            values = list(row)
            for index, field in converted:
                values[index] = field.get_db_prep_save(values[index], connection)
            params += common + values
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {table} ({quoted}) VALUES {', '.join([placeholders] * len(chunk))}", params)
