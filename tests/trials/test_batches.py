"""Batch runs of a split: split sampling, the command, claims and checkpoints (in-process,
eager Celery). The real worker processes are in test_batch_workers.py."""

from __future__ import annotations

import json
from collections import Counter
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from court.procedures import procedure_for
from legalsim.roles import Role
from tests.trials.library import library_import
from tests.users import person
from trials.batches import _claim, _fenced, batch_create, batch_lanes, batch_run, batches_recover
from trials.models import Batch, BatchRun, Case, Trial
from trials.services import trial_continue, trial_create
from trials.splits import split_sample

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_in_process")]


def test_light_takes_five_cases_of_each_of_the_twenty_most_frequent_causes():
    cases = [(f"c{cause:02d}-{n:02d}", f"cause {cause:02d}") for cause in range(30) for n in range(40 - cause)]
    light = split_sample(cases, "light")
    medium = split_sample(cases, "medium")
    assert len(light) == 100 and len(set(light)) == 100
    assert Counter(case_id[:3] for case_id in light) == {f"c{cause:02d}": 5 for cause in range(20)}
    assert len(medium) == 300, "30 causes of 10"
    assert set(light) <= set(medium), "Light subsamples Medium"
    assert split_sample(list(reversed(cases)), "light") == light, "the fixed seed makes the split reproducible"
    assert split_sample(cases, "light", seed=1) != light


def test_simulate_split_runs_every_case_once_with_checkpoints_at_each_stage(tmp_path, capsys):
    library_import(tmp_path, cases=100, causes=20)
    call_command("simulate_split", split="light", concurrency=8)
    out, err = capsys.readouterr()
    assert "100/100 done" in err and "[##############################]" in err
    runs = list(BatchRun.objects.select_related("trial"))
    assert len(runs) == 100 and {run.status for run in runs} == {"finished"}
    assert Trial.objects.count() == 100 and not Trial.objects.exclude(status="finished").exists()
    assert all(run.checkpoint == run.trial.engine_state.stage_history[-1] for run in runs)
    stages = set(procedure_for("civil").stage_ids)
    assert all(set(run.trial.turns.values_list("stage", flat=True)) <= stages for run in runs)
    assert all(hasattr(run.trial, "trajectory") for run in runs)
    assert "finished, 0 paused" in out


def test_instructors_follow_a_batch_on_its_page(client, tmp_path):
    library_import(tmp_path, cases=6, causes=2)
    call_command("simulate_split", split="full", concurrency=3)
    batch = Batch.objects.get()
    client.force_login(person("teacher", Role.INSTRUCTOR))
    page = client.get(reverse("trials:batch", args=[batch.pk])).content.decode()
    assert "6 / 6 done" in page and "hx-get" not in page, "a finished batch stops polling"
    assert page.count("Finished") == 6 and "SIT" in page
    BatchRun.objects.filter(pk=batch.runs.first().pk).update(status="running", checkpoint="FIT")
    fragment = client.get(reverse("trials:batch_progress", args=[batch.pk])).content.decode()
    assert "5 / 6 done" in fragment and "1 running" in fragment and "hx-get" in fragment
    client.force_login(person("student", Role.STUDENT))
    assert client.get(reverse("trials:batch", args=[batch.pk])).status_code == 403


def test_the_medium_level_rule_is_applied_and_logged(tmp_path, capsys):
    library_import(tmp_path, cases=20, causes=4)
    for case in Case.objects.all():
        case.seed["personas"] = {"plaintiff": dict.fromkeys(("legal_literacy", "emotional_stability"), "medium")}
        case.save(update_fields=["seed"])
    call_command("simulate_split", split="light", concurrency=4)
    out = capsys.readouterr().out
    assert "legal_literacy: high 0 medium 20 low 0 ->" in out
    run_levels = [run.seed["personas"]["plaintiff"]["legal_literacy"] for run in BatchRun.objects.all()]
    assert Counter(run_levels)["medium"] / len(run_levels) < 0.6
    assert {case.seed["personas"]["plaintiff"]["legal_literacy"] for case in Case.objects.all()} == {"medium"}, (
        "the library's cases are not changed, only the seeds the batch runs"
    )


def test_a_split_file_with_unknown_ids_is_refused_line_by_line(tmp_path):
    library_import(tmp_path, cases=3, causes=1)
    split = tmp_path / "split.txt"
    split.write_text("lib-0000\nno-such-case\nlib-0002\nalso-missing\n")
    with pytest.raises(CommandError) as error:
        call_command("simulate_split", split=str(split))
    assert str(error.value) == (
        f"{split}:2: id: no case 'no-such-case' in the library\n{split}:4: id: no case 'also-missing' in the library"
    )
    assert not BatchRun.objects.exists()
    listed = tmp_path / "split.json"
    listed.write_text(json.dumps(["lib-0002", "lib-0000"]))
    call_command("simulate_split", split=str(listed), concurrency=2)
    assert list(BatchRun.objects.values_list("case_id", flat=True)) == ["lib-0002", "lib-0000"]


def test_detaching_without_workers_is_refused_before_anything_is_stored(tmp_path):
    library_import(tmp_path, cases=2, causes=1)
    with pytest.raises(CommandError, match="needs Celery workers"):
        call_command("simulate_split", split="full", detach=True)
    assert not BatchRun.objects.exists()


def test_a_batch_of_two_target_models_starts_their_runs_in_turn(openai_settings, tmp_path, capsys):
    library_import(tmp_path, cases=3, causes=1)
    call_command("simulate_split", split="full", concurrency=1, backend="openai", models_target="model-a,model-b")
    assert "6 finished, 0 paused" in capsys.readouterr().out
    started = list(Trial.objects.order_by("pk").values_list("case_id", "target_model"))
    assert started == [
        (case, model) for case in ("lib-0000", "lib-0001", "lib-0002") for model in ("model-a", "model-b")
    ]
    assert Batch.objects.get().finished_at == max(BatchRun.objects.values_list("finished_at", flat=True)), (
        "the chord's callback closed the batch at its last run's end"
    )


def test_lanes_deal_the_runs_round_robin_so_every_lane_mixes_the_models(tmp_path):
    library_import(tmp_path, cases=4, causes=1)
    batch = batch_create(
        cases=list(Case.objects.order_by("pk")),
        split="full",
        concurrency=3,
        backend="openai",
        target_models=["a", "b"],
    )
    names = dict(BatchRun.objects.values_list("pk", "target_model"))
    cases = dict(BatchRun.objects.values_list("pk", "case_id"))
    lanes = [[f"{cases[run][-1]}{names[run]}" for run in lane] for lane in batch_lanes(batch)]
    assert lanes == [["0a", "1b", "3a"], ["0b", "2a", "3b"], ["1a", "2b"]]
    BatchRun.objects.filter(pk__in=batch_lanes(batch)[0][:2]).update(status="finished")
    assert [len(lane) for lane in batch_lanes(batch)] == [1, 3, 2], "a lane is the same, less its runs done"


def test_recovery_sends_again_only_the_lanes_that_stopped(tmp_path, settings):
    """Lanes [0, 2, 4] and [1, 3, 5]: the first's case 0 finished a lease ago and nobody took
    case 2 (its hand-over died with its worker); the second's case 1 has a silent heart."""
    settings.LEGALSIM_BATCH_LEASE_S = 5
    library_import(tmp_path, cases=6, causes=1)
    batch = batch_create(cases=list(Case.objects.order_by("pk")), split="full", concurrency=2, backend="scripted")
    runs = list(batch.runs.order_by("pk").values_list("pk", flat=True))
    long_ago = timezone.now() - timedelta(seconds=6)
    BatchRun.objects.filter(pk=runs[0]).update(status="finished", finished_at=long_ago)
    BatchRun.objects.filter(pk=runs[1]).update(status="running", attempt=1, heartbeat_at=long_ago)
    sent: list[tuple[int, list[int]]] = []
    assert batches_recover(send=lambda batch_id, lane: sent.append((batch_id, lane))) == 2
    assert sent == [(batch.pk, [runs[2], runs[4]]), (batch.pk, [runs[1], runs[3], runs[5]])]
    assert batches_recover(send=lambda batch_id, lane: sent.append((batch_id, lane))) == 0, "sent once a lease"
    BatchRun.objects.filter(pk__in=runs).update(status="finished", finished_at=long_ago)
    batches_recover(send=lambda batch_id, lane: sent.append((batch_id, lane)))
    assert Batch.objects.get().finished_at == long_ago, "a batch whose chord cannot complete is closed"


def test_a_case_that_raises_is_paused_with_its_error_and_the_lane_goes_on(tmp_path, monkeypatch):
    library_import(tmp_path, cases=3, causes=1)
    from trials import batches

    real = batches.trial_continue

    def broken_for_the_second_case(*, trial, on_checkpoint):
        if trial.case_id == "lib-0001":
            raise ValueError("a bug in a stage")
        return real(trial=trial, on_checkpoint=on_checkpoint)

    monkeypatch.setattr(batches, "trial_continue", broken_for_the_second_case)
    with pytest.raises(CommandError, match="1 cases paused"):
        call_command("simulate_split", split="full", concurrency=1)
    runs = dict(BatchRun.objects.values_list("case_id", "status"))
    assert runs == {"lib-0000": "finished", "lib-0001": "paused", "lib-0002": "finished"}
    assert BatchRun.objects.get(case_id="lib-0001").error == "ValueError: a bug in a stage"
    assert Batch.objects.get().finished_at is not None

    monkeypatch.setattr(batches, "trial_continue", real)
    call_command("simulate_split", resume=Batch.objects.get().pk)
    assert set(BatchRun.objects.values_list("status", flat=True)) == {"finished"}


def test_a_case_claimed_by_a_live_worker_is_not_run_again(tmp_path):
    library_import(tmp_path, cases=1, causes=1)
    batch = batch_create(cases=list(Case.objects.all()), split="full", concurrency=1, backend="scripted")
    run = batch.runs.get()
    BatchRun.objects.filter(pk=run.pk).update(status="running", attempt=1, heartbeat_at=timezone.now(), worker="w1")
    assert batch_run(run_id=run.pk, worker="w2") == "skipped"
    assert not Trial.objects.exists()


class WorkerDied(Exception):
    pass


def test_a_dead_workers_case_is_taken_over_from_its_last_checkpoint(tmp_path, settings):
    """Worker 1 stores LC and CD and dies during FIT; once its heart has been silent for the
    lease, worker 2 claims the case and carries on from FIT without redoing the stored
    stages, and worker 1 can no longer write."""
    settings.LEGALSIM_BATCH_LEASE_S = 5
    library_import(tmp_path, cases=1, causes=1)
    batch = batch_create(cases=list(Case.objects.all()), split="full", concurrency=1, backend="scripted")
    run = batch.runs.get()
    attempt = _claim(run.pk, "w1")
    trial = trial_create(case=run.case, seed=run.seed, backend="scripted")
    _fenced(run.pk, attempt).update(trial=trial)

    def die_in_fit(trial: Trial, stage: str) -> None:
        if stage == "FIT":
            raise WorkerDied
        _fenced(run.pk, attempt).update(checkpoint=stage)

    with pytest.raises(WorkerDied):
        trial_continue(trial=trial, on_checkpoint=die_in_fit)
    stored = dict(trial.turns.values_list("seq", "created_at"))
    assert set(trial.turns.values_list("stage", flat=True)) == {"LC", "CD"}
    assert batch_run(run_id=run.pk, worker="w2") == "skipped", "worker 1's claim is still fresh"

    BatchRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=6))
    assert batch_run(run_id=run.pk, worker="w2") == "finished"
    run.refresh_from_db()
    assert (run.attempt, run.worker, run.status) == (2, "w2", "finished")
    turns = list(run.trial.turns.order_by("seq"))
    assert [turn.seq for turn in turns] == list(range(1, len(turns) + 1))
    assert {turn.seq: turn.created_at for turn in turns if turn.seq in stored} == stored, "LC and CD not redone"
    assert [stage for stage in run.trial.engine_state.stage_history if stage in ("LC", "CD", "FIT")] == [
        "LC",
        "CD",
        "FIT",
    ]
    assert not _fenced(run.pk, attempt).update(checkpoint="SIT"), "worker 1's writes are fenced off"


def test_a_split_file_nested_1000_deep_or_not_utf8_is_refused_with_its_line(tmp_path):
    library_import(tmp_path, cases=1, causes=1)
    deep = tmp_path / "deep.json"
    deep.write_text('["lib-0000",\n' + "[" * 1000 + "]" * 1000 + "]")
    with pytest.raises(CommandError) as error:
        call_command("simulate_split", split=str(deep))
    assert str(error.value) == f"{deep}:2: json: nested deeper than 64 levels"
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"lib-0000\ncaf\xe9\n")
    with pytest.raises(CommandError) as error:
        call_command("simulate_split", split=str(latin))
    assert (
        str(error.value)
        == f"{latin}:2: file: is not UTF-8 text: byte 0xe9 cannot be decoded; save it as UTF-8 (column 4)"
    )
    assert not BatchRun.objects.exists()
