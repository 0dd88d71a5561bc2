from __future__ import annotations

import csv

import pytest
from django.core.management import call_command

from annotation.models import Rating

pytestmark = pytest.mark.django_db
HEADER = "trajectory_id,rubric,item,rater,source,score,reason\n"


@pytest.fixture
def ratings(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text(
        HEADER
        + "t1,legalworld16,LC.procedural_compliance,ann,human,8,complete\n"
        + 't1,legalworld16,judge.role_distinguishability,ann,human,6,"terse, formal"\n'
        + "t1,legalworld16,LC.procedural_compliance,judge-x,llm,7.5,\n"
        + "t2,legalworld16,LC.procedural_compliance,bo,human,9,fine\n"
    )
    call_command("import_ratings", str(path))


def test_the_long_export_re_imports_to_the_same_ratings(ratings, tmp_path):
    out = tmp_path / "long.csv"
    call_command("export_ratings", "--out", str(out))
    before = sorted(Rating.objects.values_list("trajectory_id", "item", "rater", "source", "score", "reason"))
    Rating.objects.all().delete()
    call_command("import_ratings", str(out))
    assert sorted(Rating.objects.values_list("trajectory_id", "item", "rater", "source", "score", "reason")) == before


def test_the_wide_export_has_one_row_per_rater_and_trajectory(ratings, tmp_path):
    out = tmp_path / "wide.csv"
    call_command("export_ratings", "--layout", "wide", "--out", str(out))
    rows = list(csv.DictReader(out.open()))
    assert [(row["trajectory_id"], row["rater_id"]) for row in rows] == [("t1", "ann"), ("t2", "bo")]
    ann = rows[0]
    assert ann["LC_procedural_compliance"] == "8" and ann["LC_procedural_compliance_reason"] == "complete"
    assert ann["judge_role_distinguishability_reason"] == "terse, formal" and ann["SIT_process_coherence"] == ""
    assert ann["status"] == "imported" and ann["case_id"] == "t1", "an imported study rates ids only"
