"""Calibration: ``study_gold`` reference files, the training round before anything else,
feedback beside the reference, gold items hidden in the queue, accuracy and flagged raters."""

from __future__ import annotations

import json
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from annotation.calibration import rater_quality
from annotation.models import Assignment, Rating, Reference
from annotation.studies import StudyError, assignment_claim, draft_save, study_plan
from legalsim.roles import Role
from tests.annotation.quality_world import (
    APPEAL_ITEMS,
    FIRST_INSTANCE,
    FULL,
    items,
    judge_ratings,
    reference_rows,
    references_csv,
    study_make,
    submit,
    trajectories_store,
)
from tests.users import person

pytestmark = pytest.mark.django_db


@pytest.fixture
def study(tmp_path):
    """Two units rated by both raters; a training trajectory and a gold one lacking the appeal."""
    trajectories_store(tmp_path, {"case.u1": FULL, "case.u2": FULL, "case.train": FULL, "case.gold": FIRST_INSTANCE})
    study = study_make("pilot", ["case.u1", "case.u2"], ["ann", "bo"], k=2)
    study_plan(study=study)
    return study


def gold_file(tmp_path, gold_score: int = 5):
    rows = reference_rows("case.train", "training", lambda item: 6)
    rows += reference_rows("case.gold", "gold", lambda item: gold_score, skip=APPEAL_ITEMS)
    return references_csv(tmp_path, rows)


def test_study_gold_stores_the_references_and_gives_every_rater_the_reference_trajectories(study, tmp_path, capsys):
    call_command("study_gold", "pilot", "--file", str(gold_file(tmp_path)))
    assert "32 reference score(s) of 1 training and 1 gold trajectory(ies) stored; 4 assignment(s) created" in (
        capsys.readouterr().out
    )
    assert Reference.objects.filter(study=study, score__isnull=True).count() == len(APPEAL_ITEMS)
    for rater in ("ann", "bo"):
        kinds = sorted(Assignment.objects.filter(study=study, rater__username=rater).values_list("kind", flat=True))
        assert kinds == ["gold", "study", "study", "training"]


def test_a_bad_reference_file_stores_nothing_and_names_every_bad_row(study, tmp_path, capsys):
    rows = reference_rows("case.train", "training", lambda item: 6)
    rows[0] |= {"trajectory_id": "case.nowhere"}  # line 2
    rows[1] |= {"trajectory_id": "case.u1"}  # line 3: one of the study's units
    rows[2] |= {"kind": "silver"}  # line 4
    rows[3] |= {"score": "11"}  # line 5
    rows[4] |= {"score": "NA"}  # line 6: FIT is there
    rows[5] |= {"reason": ""}  # line 7: a training score without its reason
    rows += [dict(rows[6])]  # line 18: the item of line 8 again
    rows += reference_rows("case.gold", "gold", lambda item: 5)  # lines 19-34: numbers for stages it lacks
    path = references_csv(tmp_path, rows)
    with pytest.raises(CommandError, match="nothing stored"):
        call_command("study_gold", "pilot", "--file", str(path))
    errors = capsys.readouterr().err
    expected = [
        f"{path}:2: trajectory_id: no trajectory 'case.nowhere'; import it with import_trajectories",
        f"{path}:3: trajectory_id: case.u1 is one of the study's trajectories; reference trajectories are apart",
        f"{path}:4: kind: must be training or gold, got 'silver'",
        f"{path}:5: score: must be a whole number from 0 to 10 or NA, got '11'",
        f"{path}:6: score: NA refused: trajectory case.train has a FIT stage; give a score",
        f"{path}:7: reason: a training item needs the reference's reason: the rater reads it as feedback",
        f"{path}:18: item: {rows[6]['item']} of case.train is given twice (first on line 8)",
        f"{path}:25: score: trajectory case.gold has no AD_AR stage; its items take NA, not a number",
    ]
    for line in expected:
        assert line in errors, line
    assert not Reference.objects.exists()
    assert not Assignment.objects.exclude(kind="study").exists()


def test_a_training_trajectory_needs_a_reference_for_every_item_it_has(study, tmp_path, capsys):
    rows = [
        row
        for row in reference_rows("case.train", "training", lambda item: 6)
        if row["item"] != "judge.stance_authenticity"
    ]
    with pytest.raises(CommandError):
        call_command("study_gold", "pilot", "--file", str(references_csv(tmp_path, rows)))
    assert (
        "references.csv:2: item: training trajectory case.train lacks a reference for: judge.stance_authenticity"
        in (capsys.readouterr().err)
    )


def test_a_jsonl_reference_file_takes_na_in_any_case_and_a_trajectory_keeps_its_kind(study, tmp_path, capsys):
    rows = reference_rows("case.gold", "gold", lambda item: 4, skip=APPEAL_ITEMS)
    path = tmp_path / "gold.jsonl"
    path.write_text("\n".join(json.dumps(row | {"score": "na"} if row["score"] == "NA" else row) for row in rows))
    call_command("study_gold", "pilot", "--file", str(path))
    assert Reference.objects.filter(kind="gold").count() == 16
    as_training = tmp_path / "again.jsonl"
    as_training.write_text(json.dumps(rows[0] | {"kind": "training"}))
    with pytest.raises(CommandError):
        call_command("study_gold", "pilot", "--file", str(as_training))
    assert "again.jsonl:1: kind: case.gold is a gold trajectory of this study already" in capsys.readouterr().err


def test_the_training_round_comes_before_anything_else(study, tmp_path, client):
    call_command("study_gold", "pilot", "--file", str(gold_file(tmp_path)))
    ann = person("ann")
    real = Assignment.objects.get(study=study, rater=ann, trajectory_id="case.u1")
    training = Assignment.objects.get(study=study, rater=ann, kind="training")
    with pytest.raises(StudyError, match="training round"):
        draft_save(assignment_id=real.pk, rater=ann, answers={"LC.process_coherence": {"score": "5"}})
    assert assignment_claim(study_id=study.pk, rater=ann) == training

    client.force_login(ann)
    queue = client.get(reverse("annotation:rater_queue")).content.decode()
    assert queue.index("case.train") < queue.index("case.u1") < queue.index("After the training round")
    opened = client.get(reverse("annotation:assignment", args=[real.pk]))
    assert opened.status_code == 302 and opened["Location"] == reverse("annotation:assignment", args=[training.pk])

    submit(training, lambda item: 6)
    assert client.get(reverse("annotation:assignment", args=[real.pk])).status_code == 200
    draft_save(assignment_id=real.pk, rater=ann, answers={"LC.process_coherence": {"score": "5"}})


def test_after_a_training_questionnaire_the_rater_reads_each_item_beside_the_reference(study, tmp_path, client):
    call_command("study_gold", "pilot", "--file", str(gold_file(tmp_path)))
    ann = person("ann")
    training = Assignment.objects.get(study=study, rater=ann, kind="training")
    client.force_login(ann)
    data = {f"score__{item}": "9" if item == "FIT.process_coherence" else "7" for item in items()}
    data |= {f"reason__{item}": "mine" for item in items()}
    response = client.post(reverse("annotation:assignment_submit", args=[training.pk]), data)
    feedback_url = reverse("annotation:training_feedback", args=[training.pk])
    assert response.status_code == 302 and response["Location"] == feedback_url
    page = client.get(feedback_url).content.decode()
    assert "within ±1 point of the reference on 15 of 16 items" in page
    sections = re.findall(r'<section class="card" id="feedback-([^"]+)"', page)
    assert sections[0] == "FIT.process_coherence" and len(sections) == 16, "the item missed comes first"
    fit = page[page.index('id="feedback-FIT.process_coherence"') :]
    fit = fit[: fit.index("</section>")]
    assert "<strong>9</strong>" in fit and "<strong>6</strong>" in fit and "3 points above the reference" in fit
    assert "reference reason for FIT.process_coherence" in fit
    assert not Rating.objects.filter(trajectory_id="case.train").exists()
    # someone else's feedback, or a questionnaire that is not training, is not found
    client.force_login(person("bo"))
    assert client.get(feedback_url).status_code == 404


def test_a_gold_questionnaire_looks_like_any_other_and_gives_no_rating(study, tmp_path, client):
    call_command("study_gold", "pilot", "--file", str(gold_file(tmp_path)))
    ann = person("ann")
    submit(Assignment.objects.get(study=study, rater=ann, kind="training"), lambda item: 6)
    gold = Assignment.objects.get(study=study, rater=ann, kind="gold")
    client.force_login(ann)
    queue = client.get(reverse("annotation:rater_queue")).content.decode()
    assert "gold" not in queue.lower().replace("case.gold", "")
    assert reverse("annotation:assignment", args=[gold.pk]) in queue
    page = client.get(reverse("annotation:assignment", args=[gold.pk])).content.decode()
    assert "gold" not in page.lower().replace("case.gold", "")
    submit(gold, lambda item: 5, skip=APPEAL_ITEMS)
    assert not Rating.objects.filter(trajectory_id="case.gold").exists()


def test_a_claim_gives_the_gold_questionnaire_once_no_unit_is_left(study, tmp_path):
    call_command("study_gold", "pilot", "--file", str(gold_file(tmp_path)))
    ann = person("ann")
    submit(Assignment.objects.get(study=study, rater=ann, kind="training"), lambda item: 6)
    assert assignment_claim(study_id=study.pk, rater=ann) == Assignment.objects.get(rater=ann, kind="gold")


def test_a_rater_far_from_gold_is_flagged_and_the_report_is_given_without_them_too(study, tmp_path, client, capsys):
    call_command("study_gold", "pilot", "--file", str(gold_file(tmp_path, gold_score=5)))
    scores = {"ann": 5, "bo": 9}  # on gold: ann exact, bo 4 points off on every item
    for rater, score in scores.items():
        user = person(rater)
        submit(Assignment.objects.get(study=study, rater=user, kind="training"), lambda item: 6)
        submit(Assignment.objects.get(study=study, rater=user, kind="gold"), lambda item, s=score: s, skip=APPEAL_ITEMS)
        for assignment in Assignment.objects.filter(study=study, rater=user, kind="study"):
            submit(assignment, lambda item, s=score: s)
    quality = {row.rater: row for row in rater_quality(study)}
    assert (quality["ann"].within1_pct, quality["ann"].mae, quality["ann"].flagged) == (100, 0, False)
    assert (quality["bo"].within1_pct, quality["bo"].mae, quality["bo"].flagged) == (0, 4, True)
    assert quality["bo"].gold_items == 12  # the appeal's four items are N/A

    client.force_login(person("boss", Role.INSTRUCTOR))
    dashboard = client.get(reverse("annotation:study_dashboard", args=[study.pk])).content.decode()
    calibration = dashboard[dashboard.index('id="calibration"') : dashboard.index('id="adjudication"')]
    assert "<td>bo</td><td>1 / 1</td><td>1 / 1</td><td>12</td>" in calibration and "flagged" in calibration

    judge_ratings(tmp_path, ["case.u1", "case.u2"], 6)
    out = tmp_path / "report.json"
    call_command("agreement_report", "--study", "pilot", "--format", "json", "--out", str(out), "--bootstrap", "0")
    report = json.loads(out.read_text())
    assert report["flagged_raters"] == ["bo"]
    # raw: ann's 5 and bo's 9 against the judge's 6, on 2 units x 16 items; gold never counts
    assert report["overall"]["n_pairs"] == 64 and report["overall"]["mae"] == pytest.approx(2)
    assert report["without_flagged"]["overall"]["n_pairs"] == 32
    assert report["without_flagged"]["overall"]["mean_diff"] == pytest.approx(-1)
    page = client.get(reverse("annotation:study_report", args=[study.pk])).content.decode()
    assert "Flagged on gold items: bo." in page and "Without flagged raters" in page


def test_instructors_set_the_thresholds_on_the_dashboard(study, client):
    client.force_login(person("boss", Role.INSTRUCTOR))
    url = reverse("annotation:study_quality", args=[study.pk])
    client.post(url, {"gold_min_within1_pct": "90", "adjudication_threshold": "2"})
    study.refresh_from_db()
    assert (study.gold_min_within1_pct, study.adjudication_threshold) == (90, 2)
    page = client.post(url, {"gold_min_within1_pct": "150", "adjudication_threshold": "2"}, follow=True)
    assert "less than or equal to 100" in page.content.decode()
    study.refresh_from_db()
    assert study.gold_min_within1_pct == 90


def test_a_file_without_a_kind_column_or_for_a_pairwise_study_is_refused_whole(study, tmp_path, capsys):
    path = tmp_path / "refs.csv"
    path.write_text("trajectory_id,item,score,reason\ncase.train,LC.process_coherence,5,why\n")
    with pytest.raises(CommandError):
        call_command("study_gold", "pilot", "--file", str(path))
    assert f"{path}:1: header: missing column(s): kind" in capsys.readouterr().err
    pairs = study_make("pairs", ["case.u1|case.u2"], ["ann"], k=1)
    pairs.rubric_id = "simcourt30"
    pairs.save(update_fields=["rubric"])
    with pytest.raises(CommandError):
        call_command("study_gold", "pairs", "--file", str(gold_file(tmp_path)))
    assert "study 'pairs' rates pairs; training and gold items need a rubric with a scale" in capsys.readouterr().err
    assert not Reference.objects.exists()
