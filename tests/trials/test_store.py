"""The unit of work of a trial (trials/store.py): every record stored once, in order, with its
values intact, at a cost that does not grow with the trial; what a process remembers of its
own stores never stands in for a store someone else made or that was rolled back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from court.engine.state import MemoryLogEntry, TurnRecord
from tests.conftest import DEMO_CASES
from trials.models import Case, MemoryOperation, Trial, Turn
from trials.services import cases_import, trial_continue, trial_create
from trials.store import progress_store, writing

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = 'It\'s "quoted", 中文, a backslash \\ and %s, a new\nline, an emoji 🙂'


@pytest.fixture
def case() -> Case:
    report = cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    assert not report.problems
    return Case.objects.get(pk=report.imported[0])


def turn(seq: int, text: str = "words") -> TurnRecord:
    return TurnRecord(seq, "LC", "intake", "plaintiff_client", "client", "plaintiff", "Client", "agent", "say", text, 3)


def test_a_simulated_trial_stores_every_record_of_its_state_once_in_order(case):
    trial = trial_create(case=case, backend="scripted")
    trial_continue(trial=trial)
    trial.refresh_from_db()
    state = trial.engine_state
    assert trial.status == Trial.Status.FINISHED and state.finished
    stored = list(trial.turns.order_by("seq").values_list("seq", "stage", "seat", "speaker", "text", "tokens"))
    assert stored == [(t.seq, t.stage, t.seat, t.speaker, t.text, t.tokens) for t in state.turns]
    artifacts = list(trial.artifacts.order_by("id").values_list("stage", "kind", "title", "text"))
    assert artifacts == [(a.stage, a.kind, a.title, a.text) for a in state.artifacts]
    memory = list(trial.memory_operations.order_by("id").values_list("stage", "seat", "op", "key", "value"))
    assert memory == [(m.stage, m.seat, m.op, m.key, m.value) for m in state.memory_log]
    assert trial.tokens == sum(turn.tokens for turn in state.turns)
    assert trial.version == len(state.stage_history), "one store a stage, none after the last"


def test_text_and_json_values_come_back_as_they_were_stored(case):
    trial = trial_create(case=case, backend="scripted")
    state = trial.engine_state
    state.turns.append(turn(1, HOSTILE))
    state.memory_log.append(MemoryLogEntry("LC", "plaintiff_client", "expand", "facts", [HOSTILE, {"n": 1.5}]))
    with writing():
        progress_store(trial, state)
    assert Turn.objects.get(trial=trial).text == HOSTILE
    assert MemoryOperation.objects.get(trial=trial).value == [HOSTILE, {"n": 1.5}]


def test_a_store_makes_the_same_queries_however_long_the_trial(case):
    trial = trial_create(case=case, backend="scripted")
    state = trial.engine_state
    queries = []
    for added in (10, 1000, 10):
        first = state.next_seq
        state.turns.extend(turn(seq) for seq in range(first, first + added))
        with CaptureQueriesContext(connection) as captured, writing():
            progress_store(trial, state)
        queries.append(len(captured))
    assert Turn.objects.filter(trial=trial).count() == 1020
    assert queries[0] == queries[2], "ten turns cost the same at the start as after a thousand"


def test_a_store_made_meanwhile_by_another_process_is_counted_not_assumed(case):
    trial = trial_create(case=case, backend="scripted")
    state = trial.engine_state
    state.turns.append(turn(1))
    with writing():
        progress_store(trial, state)
    # another process stores turn 2 (its row, a newer version)
    Turn.objects.create(trial=trial, **_row(turn(2)))
    Trial.objects.filter(pk=trial.pk).update(version=F("version") + 1)
    trial.refresh_from_db(fields=["version"])  # the caller reads the row again, under its lock
    state.turns += [turn(2), turn(3)]
    with writing():
        progress_store(trial, state)
    assert list(Turn.objects.filter(trial=trial).order_by("seq").values_list("seq", flat=True)) == [1, 2, 3]


def test_a_store_rolled_back_is_not_taken_for_stored(case):
    trial = trial_create(case=case, backend="scripted")
    state = trial.engine_state
    state.turns.append(turn(1))
    with pytest.raises(RuntimeError), writing():
        progress_store(trial, state)
        raise RuntimeError("the checkpoint that follows the store fails: the store rolls back")
    with writing():  # the caller tries again with the same trial
        progress_store(trial, state)
    assert list(Turn.objects.filter(trial=trial).values_list("seq", flat=True)) == [1]


def _row(record: TurnRecord) -> dict:
    fields = {field.name for field in Turn._meta.get_fields()}
    return {name: value for name, value in record.__dict__.items() if name in fields}


def test_the_stored_state_and_records_are_those_in_memory_whether_counted_or_remembered(case):
    trial = trial_continue(trial=trial_create(case=case, backend="scripted"))
    assert Trial.objects.get(pk=trial.pk).state == trial.state  # as the last store left it in memory
    state = trial.engine_state
    state.turns.append(turn(state.next_seq, HOSTILE))
    state.memory["plaintiff_client"] = {"facts": [HOSTILE]}
    Trial.objects.filter(pk=trial.pk).update(version=F("version") + 1)  # someone else stored meanwhile
    trial.refresh_from_db(fields=["version"])
    for text in ("counted", "remembered"):
        with writing():
            progress_store(trial, state)
        assert Trial.objects.get(pk=trial.pk).state == state.to_dict()
        assert list(Turn.objects.filter(trial=trial).order_by("seq").values_list("text", flat=True)) == [
            turn.text for turn in state.turns
        ]
        state.turns.append(turn(state.next_seq, text))


def _row(record: TurnRecord) -> dict:
    fields = {field.name for field in Turn._meta.get_fields()}
    return {name: value for name, value in record.__dict__.items() if name in fields}


def test_the_stored_state_is_the_state_whether_its_lists_were_appended_or_sent_whole(case):
    trial = trial_continue(trial=trial_create(case=case, backend="scripted"))
    played = trial.state  # as the last store left it in memory, its turns appended stage by stage
    assert Trial.objects.get(pk=trial.pk).state == played
    state = trial.engine_state
    state.turns.append(turn(state.next_seq, HOSTILE))
    state.memory["plaintiff_client"] = {"facts": [HOSTILE]}
    Trial.objects.filter(pk=trial.pk).update(version=F("version") + 1)  # someone else stored meanwhile
    trial.refresh_from_db(fields=["version"])
    with writing():
        progress_store(trial, state)  # counted, so sent whole
    assert Trial.objects.get(pk=trial.pk).state == state.to_dict()
    state.turns.append(turn(state.next_seq, "after"))
    with writing():
        progress_store(trial, state)  # remembered, so appended
    assert Trial.objects.get(pk=trial.pk).state == state.to_dict()
    assert Turn.objects.filter(trial=trial).count() == len(state.turns)
