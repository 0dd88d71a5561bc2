"""``score_trials`` scores the plaintiff's CD complaint field by field (MASER B.2): in its JSON
and CSV exports and as a printed table."""

from __future__ import annotations

import csv
import json

import pytest
from django.core.management import call_command

from scoring.complaint import FIELDS
from tests.conftest import DEMO_CASES
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.django_db


@pytest.fixture
def lending():
    cases_import(
        paths=[DEMO_CASES / "zh-civil-private-lending.json", DEMO_CASES / "zh-criminal-dangerous-driving.json"]
    )
    return Case.objects.get(pk="zh-civil-private-lending")


def test_score_trials_exports_and_prints_the_complaints_fields(lending, tmp_path, capsys):
    trial = trial_simulate(case=lending, until="FIT")
    criminal = trial_simulate(case=Case.objects.get(pk="zh-criminal-dangerous-driving"))
    out = tmp_path / "scores.json"
    call_command("score_trials", str(trial.pk), str(criminal.pk), "--out", str(out))
    civil_score, criminal_score = json.loads(out.read_text(encoding="utf-8"))
    complaint = civil_score["complaint"]
    assert list(complaint["fields"]) == list(FIELDS)
    assert complaint["fields"]["claims"] == 1.0, "the scripted lawyer pleads the case's claims"
    assert complaint["fields"]["plaintiff_info"] == 1.0, "it gives the particulars the case file gives"
    assert complaint["standardability"] == 1.0, "every section of the template, evidence and signature included"
    assert "complaint" not in criminal_score
    printed = capsys.readouterr().out
    table = printed.split("Complaint (MASER B.2), per field in [0,1]\n")[1].splitlines()
    assert table[0].split()[:2] == ["plaintiff", "defendant"]
    assert table[1].split()[:4] == ["trial", str(trial.pk), "1.00", "1.00"]

    rows = tmp_path / "scores.csv"
    call_command("score_trials", str(trial.pk), "--out", str(rows))
    (row,) = csv.DictReader(rows.open(encoding="utf-8"))
    assert row["complaint_claims"] == "1.0" and row["complaint_standardability"] == "1.0"


def test_the_defendants_scorecard_has_no_complaint(lending, tmp_path):
    trial = trial_simulate(case=lending, until="FIT", target_side="defendant")
    out = tmp_path / "scores.json"
    call_command("score_trials", str(trial.pk), "--out", str(out))
    (score,) = json.loads(out.read_text(encoding="utf-8"))
    assert score["target_side"] == "defendant" and score["complaint"] is None
