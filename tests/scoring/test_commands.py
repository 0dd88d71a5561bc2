"""score_trials and ljp_metrics from the command line, offline, over the demo library."""

from __future__ import annotations

import csv
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from legalsim.roles import Role
from scoring.capabilities import CAPABILITIES
from scoring.models import TrialScore
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo_trials():
    cases_import(paths=[DEMO_CASES])
    return [trial_simulate(case=case) for case in Case.objects.order_by("id")]


def test_every_demo_trajectory_is_scored_offline_in_the_contract_layout(demo_trials, tmp_path, capsys):
    out = tmp_path / "scores.json"
    call_command("score_trials", "--all", "--out", str(out))
    scores = json.loads(out.read_text(encoding="utf-8"))
    assert [score["trial_id"] for score in scores] == [trial.pk for trial in demo_trials]
    for score in scores:
        assert score["scorer"] == "rule-based" and set(CAPABILITIES) == set(score["capabilities"])
        civil = Case.objects.get(pk=score["case_id"]).procedure == "civil"
        assert ("prediction" in score) is not civil
        if civil:
            assert 0 <= score["capabilities"]["issue_spotting"] <= 1
            assert all(0 <= value <= 10 for value in score["alignment"]["FIT"].values() if value is not None)
            assert score["items"] and all(item["links"] or item["kind"] == "exact" for item in score["items"])
        else:
            assert score["prediction"]["imprisonment_months"] is not None
            assert all(value is None for value in score["capabilities"].values() if not isinstance(value, dict))
    printed = capsys.readouterr().out
    assert "Table 2: judicial output alignment" in printed and "Legal reference" in printed
    assert "Table 3: capability profile" in printed and "agent:scripted" in printed


def test_a_stage_not_run_is_null(tmp_path):
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    trial = trial_simulate(case=Case.objects.get(), until="FIT")
    out = tmp_path / "scores.json"
    call_command("score_trials", str(trial.pk), "--out", str(out))
    (score,) = json.loads(out.read_text(encoding="utf-8"))
    assert score["alignment"]["SIT"] is None and score["alignment"]["FIT"]["overall"] is not None
    assert score["capabilities"]["legal_reasoning"]["second"] is None
    assert score["capabilities"]["legal_reasoning"]["first"] is not None


def test_scores_export_as_csv_one_row_per_trial(demo_trials, tmp_path):
    out = tmp_path / "scores.csv"
    call_command("score_trials", "--all", "--out", str(out))
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == len(demo_trials)
    assert {"issue_spotting", "legal_reasoning_first", "alignment_FIT_verdict"} <= set(rows[0])


def test_the_csv_export_writes_a_case_id_that_starts_like_a_formula_as_text(tmp_path, write_json):
    seed = json.loads((DEMO_CASES / "en-civil-commercial-lease.json").read_text(encoding="utf-8"))
    cases_import(paths=[write_json("case.json", seed | {"id": "-2-3"})])
    trial_simulate(case=Case.objects.get(), until="CD")
    out = tmp_path / "scores.csv"
    call_command("score_trials", "--all", "--out", str(out))
    with out.open(newline="", encoding="utf-8") as handle:
        header, row = csv.reader(handle)
    assert row[header.index("case_id")] == "'-2-3"
    assert not [cell for cell in row if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]


def test_unfinished_and_unknown_trials_are_refused(tmp_path):
    with pytest.raises(CommandError, match="no trial 999"):
        call_command("score_trials", "999", "--out", str(tmp_path / "x.json"))
    with pytest.raises(CommandError, match=r"\.json or \.csv"):
        call_command("score_trials", "--all", "--out", str(tmp_path / "x.txt"))


def test_ljp_metrics_over_the_scored_criminal_trials(demo_trials, tmp_path):
    call_command("score_trials", "--all", "--out", str(tmp_path / "scores.json"))
    out = tmp_path / "ljp.json"
    call_command("ljp_metrics", "--out", str(out))
    report = json.loads(out.read_text(encoding="utf-8"))
    criminal = TrialScore.objects.filter(trial__procedure="criminal").count()
    assert report["n_cases"] == criminal == 2
    assert 0 <= report["imprisonment"]["hit_rate"] <= 1
    assert {"precision", "recall", "f1"} <= set(report["legal_articles"])


def test_the_llm_scorer_scores_through_the_judge_model(openai_settings, llm_server, tmp_path):
    from tests.scoring.test_scorers import scores_for

    openai_settings.LEGALSIM_MODEL_JUDGE = "judge-model"
    cases_import(paths=[DEMO_CASES / "en-civil-commercial-lease.json"])
    trial = trial_simulate(case=Case.objects.get(), backend="scripted", until="CD")
    llm_server.brain = lambda request: scores_for(request, score=6)
    out = tmp_path / "scores.json"
    call_command("score_trials", str(trial.pk), "--scorer", "llm", "--out", str(out))
    (score,) = json.loads(out.read_text(encoding="utf-8"))
    assert score["scorer"] == "llm:judge-model"
    semantic = [item for item in score["items"] if item["kind"] == "semantic"]
    assert semantic and all(item["score"] == pytest.approx(0.6) for item in semantic)
    assert {request["model"] for request in llm_server.requests} == {"judge-model"}


def test_the_model_profile_page_shows_table3_and_the_heatmap_to_staff(demo_trials, tmp_path, client, django_user_model):
    call_command("score_trials", "--all", "--out", str(tmp_path / "scores.json"))
    client.force_login(person("student", Role.STUDENT))
    assert client.get("/scoring/models/", HTTP_HOST="127.0.0.1").status_code == 403
    client.force_login(person("teacher", Role.INSTRUCTOR))
    page = client.get("/scoring/models/", HTTP_HOST="127.0.0.1").content.decode()
    assert 'aria-label="Capability heatmap"' in page and "agent:scripted" in page
    civil = sum(1 for trial in demo_trials if trial.procedure == "civil")
    assert f"<td>agent:scripted</td><td>{civil}</td>" in page
