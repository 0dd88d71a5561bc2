"""Data migrated by ``annotation/0011``: stage ids of stored trajectories, and the study of each
questionnaire's ratings (run on today's models, as the historical ones have the same fields)."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from annotation.models import Assignment, Rating, Study, Trajectory
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db
migration = importlib.import_module("annotation.migrations.0011_fill_stage_ids_and_rating_studies")


def test_stored_trajectories_get_their_stage_ids():
    stages = [{"stage": stage, "turns": [], "artifacts": []} for stage in ("LC", "CD", "FIT")]
    Trajectory.objects.create(id="old", case_id="c", procedure="civil", language="en", title="Old", stages=stages)
    Trajectory.objects.filter(pk="old").update(stage_ids=[])  # as stored before the field
    migration.fill_stage_ids(apps, None)
    assert Trajectory.objects.get(pk="old").stage_ids == ["LC", "CD", "FIT"]


def test_a_questionnaires_ratings_join_its_study_and_imported_ones_stay_outside():
    study = Study.objects.create(name="old", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=["t1"])
    rater = person("rita", Role.RATER)
    Assignment.objects.create(
        study=study, trajectory_id="t1", rater=rater, status=Assignment.Status.SUBMITTED, submitted_at=timezone.now()
    )
    common = {"rubric_id": "legalworld16", "trajectory_id": "t1", "rater": "rita", "source": "human", "score": 5}
    given = Rating.objects.create(item="LC.process_coherence", **common)
    imported = Rating.objects.create(item="FIT.process_coherence", imported_from="old.csv", **common)
    elsewhere = Rating.objects.create(item="LC.process_coherence", **(common | {"trajectory_id": "t2"}))
    migration.link_ratings_to_studies(apps, None)
    assert Rating.objects.get(pk=given.pk).study == study
    assert Rating.objects.get(pk=imported.pk).study is None and Rating.objects.get(pk=elsewhere.pk).study is None
