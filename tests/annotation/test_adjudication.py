"""Adjudication: items on which a study's raters differ by more than its threshold wait for an
instructor, who records a resolved score with a reason; exports and reports carry it beside
the raw scores."""

from __future__ import annotations

import csv
import io
import json

import openpyxl
import pytest
from django.core.management import call_command
from django.urls import reverse

from annotation.models import Adjudication, Assignment, Rating
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.annotation.quality_world import FULL, judge_ratings, study_make, submit, trajectories_store
from tests.users import person

pytestmark = pytest.mark.django_db
WIDE = "FIT.process_coherence"
"""Scored 2 by ann and 7 by bo on case.u1: 5 points apart. Every other item: 4 and 6."""


@pytest.fixture
def study(tmp_path):
    trajectories_store(tmp_path, {"case.u1": FULL, "case.u2": FULL})
    study = study_make("pilot", ["case.u1", "case.u2"], ["ann", "bo"], k=2)
    study_plan(study=study)
    for rater, (wide, usual) in {"ann": (2, 4), "bo": (7, 6)}.items():
        for assignment in Assignment.objects.filter(study=study, rater__username=rater):
            is_wide = assignment.trajectory_id == "case.u1"
            submit(assignment, lambda item, w=wide, u=usual, on=is_wide: w if on and item == WIDE else u)
    return study


@pytest.fixture
def instructor(client):
    client.force_login(person("boss", Role.INSTRUCTOR))
    return client


def item_url(study) -> str:
    return reverse("annotation:adjudication_item", args=[study.pk, WIDE, "case.u1"])


def test_only_items_beyond_the_threshold_wait_for_adjudication(study, instructor):
    page = instructor.get(reverse("annotation:adjudication_queue", args=[study.pk])).content.decode()
    assert "differ by more than 3 points: 1 item." in page and "1 to resolve." in page
    assert "ann: 2 · bo: 7" in page and item_url(study) in page
    assert '<span lang="en">Title of case.u1</span><br><code class="small">case.u1</code>' in page, "the case is named"
    study.adjudication_threshold = 1.5  # now every item of both trajectories (4 and 6) is too
    study.save(update_fields=["adjudication_threshold"])
    page = instructor.get(reverse("annotation:adjudication_queue", args=[study.pk])).content.decode()
    assert "32 items." in page


def test_an_instructor_reads_both_reasons_and_records_a_resolved_score(study, instructor):
    page = instructor.get(item_url(study)).content.decode()
    assert "ann on FIT.process_coherence" in page and "bo on FIT.process_coherence" in page
    refused = instructor.post(item_url(study), {"score": "11", "reason": " "})
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "give an integer from 0 to 10" in text and "a reason of 1 to 2000 characters is required" in text
    assert not Adjudication.objects.exists()
    done = instructor.post(item_url(study), {"score": "5", "reason": "the hearing kept its order"})
    assert done.status_code == 302 and done["Location"] == reverse("annotation:adjudication_queue", args=[study.pk])
    stored = Adjudication.objects.get()
    assert (stored.score, stored.reason, stored.adjudicator.username) == (5, "the hearing kept its order", "boss")
    queue = instructor.get(reverse("annotation:adjudication_queue", args=[study.pk])).content.decode()
    assert "0 to resolve." in queue and ">Revise<" in queue
    assert instructor.get(reverse("annotation:adjudication_item", args=[study.pk, WIDE, "case.x"])).status_code == 404


def test_a_rater_cannot_adjudicate(study, client):
    client.force_login(person("ann"))
    assert client.post(item_url(study), {"score": "5", "reason": "mine"}).status_code == 403
    assert not Adjudication.objects.exists()


def test_ratings_exports_carry_the_adjudicated_score_beside_the_raw_ones(study, instructor, tmp_path):
    instructor.post(item_url(study), {"score": "5", "reason": "resolved"})
    out = tmp_path / "long.csv"
    call_command("export_ratings", "--study", "pilot", "--out", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    wide_rows = [row for row in rows if row["trajectory_id"] == "case.u1" and row["item"] == WIDE]
    assert sorted((row["rater"], row["score"], row["adjudicated_score"]) for row in wide_rows) == [
        ("ann", "2", "5"),
        ("bo", "7", "5"),
    ]
    assert {row["adjudicated_score"] for row in rows if row not in wide_rows} == {""}
    before = Rating.objects.count()
    call_command("import_ratings", str(out))  # the extra columns are not part of a ratings file
    assert Rating.objects.count() == before
    out = tmp_path / "wide.csv"
    call_command("export_ratings", "--study", "pilot", "--layout", "wide", "--out", str(out))
    lines = {
        row["rater_id"]: row
        for row in csv.DictReader(io.StringIO(out.read_text()))
        if row["trajectory_id"] == "case.u1"
    }
    assert (lines["ann"]["FIT_process_coherence"], lines["ann"]["FIT_process_coherence_adjudicated"]) == ("2", "5")
    assert lines["bo"]["LC_process_coherence_adjudicated"] == ""


def test_the_report_gives_raw_and_adjudicated_figures_and_lists_the_resolutions(study, instructor, tmp_path):
    instructor.post(item_url(study), {"score": "5", "reason": "resolved"})
    judge_ratings(tmp_path, ["case.u1", "case.u2"], 5)
    exported = {}
    for fmt in ("json", "csv", "xlsx"):
        out = tmp_path / f"report.{fmt}"
        call_command("agreement_report", "--study", "pilot", "--format", fmt, "--out", str(out), "--bootstrap", "0")
        exported[fmt] = out
    report = json.loads(exported["json"].read_text())
    # raw: 64 pairs; adjudicated: the two scores of the wide item become one 5, against the judge's 5
    assert report["overall"]["n_pairs"] == 64 and report["adjudicated"]["overall"]["n_pairs"] == 63
    wide = next(item for item in report["adjudicated"]["items"] if item["id"] == WIDE)
    assert wide["n_pairs"] == 3 and wide["mae"] == pytest.approx((0 + 1 + 1) / 3)
    raw_wide = next(item for item in report["items"] if item["id"] == WIDE)
    assert raw_wide["mae"] == pytest.approx((3 + 2 + 1 + 1) / 4)
    assert report["adjudications"] == [
        {
            "trajectory_id": "case.u1",
            "item": WIDE,
            "scores": {"ann": 2, "bo": 7},
            "adjudicated_score": 5,
            "reason": "resolved",
            "adjudicator": "boss",
        }
    ]
    levels = {row["level"] for row in csv.DictReader(io.StringIO(exported["csv"].read_text()))}
    assert {"adjudicated_overall", "adjudicated_item"} <= levels and "without_flagged_overall" not in levels
    sheet = openpyxl.load_workbook(exported["xlsx"])["adjudications"]
    assert [cell.value for cell in sheet[2]] == ["case.u1", WIDE, "ann=2; bo=7", 5, "resolved", "boss"]
    page = instructor.get(reverse("annotation:study_report", args=[study.pk])).content.decode()
    assert "Adjudicated items" in page and "ann: 2 · bo: 7" in page


def test_the_adjudicator_reads_the_stage_the_item_rates_or_the_whole_trial_for_a_role(study, instructor):
    page = instructor.get(item_url(study)).content.decode()
    assert "The stage this item rates" in page
    assert "Words spoken in FIT" in page and "Words spoken in LC" not in page
    role_item = reverse("annotation:adjudication_item", args=[study.pk, "judge.stance_authenticity", "case.u1"])
    page = instructor.get(role_item).content.decode()
    assert "The trajectory, stage by stage" in page
    assert all(f"Words spoken in {stage}" in page for stage in FULL)
