"""``TrialScore`` moved from the trials app to scoring in the migrations' state only: a
database migrated before the move keeps its scorecards, read by the new model from the same
table, and the move can be unapplied."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import TrialScore
from trials.models import Case, Trial
from trials.services import cases_import

BEFORE = [("trials", "0020_batch_strategy"), ("scoring", None)]
AFTER = [("trials", "0021_trialscore_to_scoring"), ("scoring", "0001_initial")]


def migrated(targets: list[tuple[str, str | None]]):
    """Migrate the test database to ``targets``; the models as they were there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state([target for target in targets if target[1]]).apps


def latest() -> list[tuple[str, str]]:
    """Every app's newest migration: the test database is left as every other test expects it
    (migrations added after the move, such as trials' 0022, applied again)."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_a_scorecard_stored_before_the_move_is_read_after_it(civil_seed, write_json):
    cases_import(paths=[write_json("case.json", civil_seed)])
    trial = Trial.objects.create(
        case=Case.objects.get(), procedure="civil", target_side="plaintiff", backend="scripted", state={}
    )
    try:
        before = migrated(BEFORE)
        assert TrialScore._meta.db_table in connection.introspection.table_names()
        stored = before.get_model("trials", "TrialScore").objects.create(
            trial_id=trial.pk, scorer="rule-based", seat="plaintiff_lawyer", subject="agent",
            target_model="agent:scripted", overall=0.5, result={"capabilities": {"issue_spotting": 0.5}},
        )  # fmt: skip
    finally:
        migrated(AFTER)
        migrated(latest())
    score = trial.scores.get()
    assert (score.pk, score.seat, score.overall, score.result) == (
        stored.pk,
        "plaintiff_lawyer",
        0.5,
        {"capabilities": {"issue_spotting": 0.5}},
    )
