from __future__ import annotations

import csv
import io
import json
import threading
from collections import Counter

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from openpyxl import load_workbook

from annotation.models import Assignment, Job, Rating, Rubric, Study, Trajectory
from annotation.studies import assignment_claim, study_plan
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate


@pytest.fixture
def trajectories(db):
    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json", DEMO_CASES / "zh-civil-sales-contract.json"])
    return [trial_simulate(case=case, backend="scripted").trajectory.id for case in Case.objects.order_by("pk")]


def make_study(django_user_model, trajectory_ids, raters: int, k: int) -> Study:
    study = Study.objects.create(
        name="pilot", rubric_id="legalworld16", raters_per_trajectory=k, trajectory_ids=trajectory_ids
    )
    study.raters.set([person(f"rater{index}", Role.RATER, password="pw-123456") for index in range(raters)])
    return study


@pytest.mark.django_db
def test_the_plan_balances_load_and_never_repeats_a_rater(django_user_model):
    study = make_study(django_user_model, [f"t{n}" for n in range(6)], raters=4, k=3)
    assert study_plan(study=study) == 18
    per_rater = Counter(study.assignments.values_list("rater", flat=True))
    assert sorted(per_rater.values()) == [4, 4, 5, 5]
    for trajectory_id in study.trajectory_ids:
        raters = list(study.assignments.filter(trajectory_id=trajectory_id).values_list("rater", flat=True))
        assert len(raters) == len(set(raters)) == 3
    assert study_plan(study=study) == 0, "planning again moves nothing"


@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_claims_for_one_trajectory_accept_exactly_k(django_user_model, default_rubric):
    study = make_study(django_user_model, ["only-one"], raters=20, k=3)
    raters = list(study.raters.all())
    barrier, results = threading.Barrier(len(raters)), []

    def claim(user) -> None:
        barrier.wait()
        try:
            results.append(assignment_claim(study_id=study.pk, rater=user))
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(user,)) for user in raters]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(result is not None for result in results) == 3
    assert Assignment.objects.filter(study=study).count() == 3


def answer(client, assignment: Assignment, score_of) -> None:
    items = Rubric.objects.get(pk="legalworld16").definition.item_ids
    data = {f"score__{item}": str(score_of(item)) for item in items} | {
        f"reason__{item}": f"why {item}" for item in items
    }
    client.post(reverse("annotation:assignment_draft", args=[assignment.pk]), data)
    response = client.post(reverse("annotation:assignment_submit", args=[assignment.pk]), {})
    assert response.status_code == 302


@pytest.mark.django_db
def test_the_whole_study_flow_matches_a_hand_computation(
    client, django_user_model, trajectories, openai_settings, llm_server, tmp_path, tasks_in_process
):
    study = make_study(django_user_model, trajectories, raters=3, k=3)
    study_plan(study=study)
    base = {"rater0": 9, "rater1": 8, "rater2": 6}
    for username, score in base.items():
        client.login(username=username, password="pw-123456")
        queue = client.get(reverse("annotation:rater_queue")).content.decode()
        mine = Assignment.objects.filter(rater__username=username)
        assert mine.count() == 2 and all(assignment.trajectory_id in queue for assignment in mine)
        for assignment in mine:
            page = client.get(reverse("annotation:assignment", args=[assignment.pk])).content.decode()
            assert "Questionnaire" in page
            answer(client, assignment, lambda item, score=score: score)
    assert Rating.objects.filter(source="human").count() == 3 * 2 * 16

    llm_server.brain = lambda request: json.dumps(
        {
            "scores": {
                item: {"score": 7, "reason": "ok"} for item in Rubric.objects.get(pk="legalworld16").definition.item_ids
            }
        }
    )
    person("boss", Role.INSTRUCTOR, password="pw-123456")
    client.login(username="boss", password="pw-123456")
    judged = client.post(reverse("annotation:study_judge", args=[study.pk]), {"model": "judge-x"}, follow=True)
    assert "Scored 2 trajectories; flagged for audit 0." in judged.content.decode()

    # by hand: every pair is (9,7), (8,7) or (6,7) equally often -> diffs 2, 1, -1; both
    # trajectories alike, so every bootstrap resample has the same mean difference
    def check(overall: dict) -> None:
        assert overall["n_pairs"] == 96
        assert overall["human_avg"] == pytest.approx(23 / 3)
        assert overall["mean_diff"] == pytest.approx(2 / 3)
        assert overall["mae"] == pytest.approx(4 / 3)
        assert overall["within1_pct"] == pytest.approx(200 / 3)
        assert overall["mean_diff_ci"] == pytest.approx([2 / 3, 2 / 3])

    page = client.get(reverse("annotation:study_report", args=[study.pk])).content.decode()
    overall_row = page[page.index("<h2>Overall</h2>") : page.index("<h2>Distributions</h2>")]
    for shown in ("7.67", "7.00", "0.67", "[0.67, 0.67]", "1.33", "66.67", ">96<"):
        assert shown in overall_row, shown
    assert "Scores ≥ 9: 32 ratings (33.3 %)" in page and "Scores ≤ 6: 32 ratings (33.3 %)" in page

    exported = {}
    for fmt in ("json", "csv", "xlsx", "html"):
        job_page = client.post(
            reverse("annotation:study_export", args=[study.pk]),
            {"kind": "agreement_report", "format": fmt},
            follow=True,
        )
        assert "Done" in job_page.content.decode()
        job = Job.objects.latest("pk")
        exported[fmt] = b"".join(client.get(reverse("annotation:job_download", args=[job.pk])).streaming_content)
    report = json.loads(exported["json"])
    check(report["overall"] | {"mean_diff_ci": report["overall"]["ci95"]["mean_diff"]})
    line = next(row for row in csv.DictReader(io.StringIO(exported["csv"].decode())) if row["level"] == "overall")
    check({key: float(value) for key, value in line.items() if key in OVERALL_FIGURES} | _ci(line))
    sheet = load_workbook(io.BytesIO(exported["xlsx"])).active
    header = [cell.value for cell in sheet[1]]
    line = next(
        dict(zip(header, [c.value for c in row], strict=True))
        for row in sheet.iter_rows(min_row=2)
        if row[0].value == "overall"
    )
    check({key: line[key] for key in OVERALL_FIGURES} | _ci(line))
    assert overall_row in exported["html"].decode()

    out = tmp_path / "report.json"
    call_command("agreement_report", "--study", "pilot", "--format", "json", "--out", str(out))
    assert json.loads(out.read_text())["overall"] == report["overall"]


OVERALL_FIGURES = ("n_pairs", "human_avg", "mean_diff", "mae", "within1_pct")


def _ci(line: dict) -> dict:
    return {"mean_diff_ci": [float(line["mean_diff_ci_low"]), float(line["mean_diff_ci_high"])]}


@pytest.mark.django_db
def test_raters_see_only_their_own_work_and_submit_once(
    client, django_user_model, trajectories, openai_settings, llm_server
):
    study = make_study(django_user_model, trajectories, raters=3, k=1)
    study_plan(study=study)
    Rating.objects.create(
        rubric_id="legalworld16",
        trajectory_id=trajectories[0],
        item="LC.process_coherence",
        rater="judge-x",
        source="llm",
        score=3,
        reason="JUDGE-SECRET-REASON",
    )
    mine = Assignment.objects.filter(rater__username="rater0").first()
    other = Assignment.objects.exclude(rater__username="rater0").first()
    client.login(username="rater0", password="pw-123456")
    assert client.get(reverse("annotation:assignment", args=[other.pk])).status_code == 404
    assert client.post(reverse("annotation:assignment_submit", args=[other.pk])).status_code == 404
    page = client.get(reverse("annotation:assignment", args=[mine.pk])).content.decode()
    assert "JUDGE-SECRET-REASON" not in page

    incomplete = client.post(
        reverse("annotation:assignment_submit", args=[mine.pk]), {"score__LC.procedural_compliance": "11"}
    )
    assert incomplete.status_code == 400 and "give an integer from 0 to 10" in incomplete.content.decode()
    answer(client, mine, lambda item: 8)
    again = client.post(reverse("annotation:assignment_submit", args=[mine.pk]), {}, follow=True)
    assert "Already submitted; nothing changed." in again.content.decode()
    assert Rating.objects.filter(source="human", rater="rater0").count() == 16
    late = client.post(reverse("annotation:assignment_draft", args=[mine.pk]), {"score__LC.procedural_compliance": "2"})
    assert late.status_code == 409
    assert set(Rating.objects.filter(source="human", rater="rater0").values_list("score", flat=True)) == {8.0}


@pytest.mark.django_db
def test_stages_load_one_at_a_time_and_text_is_escaped(client, django_user_model, trajectories):
    study = make_study(django_user_model, trajectories, raters=1, k=1)
    study_plan(study=study)
    assignment = Assignment.objects.first()
    client.login(username="rater0", password="pw-123456")
    stage = client.get(reverse("annotation:assignment_stage", args=[assignment.pk, 0])).content.decode()
    assert "<html" not in stage and 'class="turn' in stage
    assert client.get(reverse("annotation:assignment_stage", args=[assignment.pk, 99])).status_code == 404


CIVIL_STAGES = ("LC", "CD", "FIT", "AD-Det", "AD", "SIT")
# Each rater's scores (every item alike) per study and trajectory: rater0 moves up a point on
# t-a and keeps t-b; rater1 keeps t-a and moves up two points on t-b.
RETEST = {
    "first": {"rater0": {"t-a": 8, "t-b": 6}, "rater1": {"t-a": 5, "t-b": 5}},
    "retest": {"rater0": {"t-a": 9, "t-b": 6}, "rater1": {"t-a": 5, "t-b": 7}},
}


@pytest.fixture
def two_studies(client, django_user_model, tmp_path) -> dict[str, Study]:
    """Two studies over the same stored trajectories and the same two raters, each rated in
    full through the questionnaire, and a judge's scores to compare with."""
    for trajectory_id in ("t-a", "t-b"):
        Trajectory.objects.create(
            id=trajectory_id,
            case_id="case-1",
            procedure="civil",
            language="en",
            title=trajectory_id,
            stages=[{"stage": stage, "turns": [], "artifacts": []} for stage in CIVIL_STAGES],
        )
    studies = {}
    for name, scores in RETEST.items():
        study = make_study(django_user_model, ["t-a", "t-b"], raters=2, k=2)
        study.name = name
        study.save(update_fields=["name"])
        study_plan(study=study)
        for username, by_trajectory in scores.items():
            client.login(username=username, password="pw-123456")
            for assignment in study.assignments.filter(rater__username=username):
                answer(client, assignment, lambda item, score=by_trajectory[assignment.trajectory_id]: score)
        studies[name] = study
    items = Rubric.objects.get(pk="legalworld16").definition.item_ids
    judge = tmp_path / "judge.csv"
    judge.write_text(
        "trajectory_id,rubric,item,rater,source,score,reason\n"
        + "".join(f"{t},legalworld16,{item},judge-x,llm,7,\n" for t in ("t-a", "t-b") for item in items)
    )
    call_command("import_ratings", str(judge))
    return studies


def agreement_json(tmp_path, *args: str) -> dict:
    out = tmp_path / "report.json"
    call_command("agreement_report", "--format", "json", "--bootstrap", "0", "--out", str(out), *args)
    return json.loads(out.read_text())


@pytest.mark.django_db
def test_one_rater_rates_the_same_trajectories_in_two_studies(client, two_studies, tmp_path):
    human = Rating.objects.filter(source="human")
    assert human.count() == 2 * 2 * 2 * 16
    assert Assignment.objects.filter(status=Assignment.Status.SUBMITTED).count() == 8
    for name, scores in RETEST.items():
        for username, by_trajectory in scores.items():
            for trajectory_id, score in by_trajectory.items():
                mine = human.filter(study__name=name, rater=username, trajectory_id=trajectory_id)
                assert set(mine.values_list("score", flat=True)) == {score} and mine.count() == 16

    report = agreement_json(tmp_path)
    # the rubric's report counts each rater once per item and trajectory, with the latest score
    assert report["overall"]["n_pairs"] == 2 * 2 * 16
    assert report["overall"]["human_avg"] == pytest.approx((9 + 6 + 5 + 7) / 4)
    for study in two_studies.values():
        scoped = agreement_json(tmp_path, "--study", study.name)
        latest = RETEST[study.name]
        expected = sum(score for by_trajectory in latest.values() for score in by_trajectory.values()) / 4
        assert scoped["overall"]["human_avg"] == pytest.approx(expected), "a study's report is its own ratings"


@pytest.mark.django_db
def test_retest_figures_pair_each_raters_two_studies(client, two_studies, tmp_path):
    retest = agreement_json(tmp_path)["test_retest"]
    assert retest["n_pairs"] == 2 * 2 * 16 and retest["n_raters"] == 2
    raters = {line["id"]: line for line in retest["raters"]}
    # rater0: 16 pairs (8, 9) and 16 pairs (6, 6); Lin's concordance 2*1.5 / (1 + 2.25 + 0.5**2)
    assert raters["rater0"]["n_pairs"] == 32 and raters["rater0"]["mean_diff"] == pytest.approx(0.5)
    assert raters["rater0"]["qwk"] == pytest.approx(3 / 3.5) and raters["rater0"]["within1_pct"] == 100
    # one-way ICC over the 32 pairs: unit means 8.5 and 6, MSB = 2 * 32 * 1.25**2 / 31, MSW = 8 / 32
    msb, msw = 2 * 32 * 1.25**2 / 31, 8 / 32
    assert raters["rater0"]["icc_1_1"] == pytest.approx((msb - msw) / (msb + msw))
    # rater1 always gave 5 the first time: no covariance, so no agreement beyond chance
    assert raters["rater1"]["qwk"] == pytest.approx(0) and raters["rater1"]["mae"] == pytest.approx(1)
    assert {line["n_pairs"] for line in retest["items"]} == {4} and len(retest["items"]) == 16
    assert agreement_json(tmp_path, "--study", "retest")["test_retest"]["n_pairs"] == 64

    out = tmp_path / "report.csv"
    call_command("agreement_report", "--format", "csv", "--bootstrap", "0", "--out", str(out))
    lines = list(csv.DictReader(io.StringIO(out.read_text())))
    rater0 = next(line for line in lines if line["level"] == "test_retest_rater" and line["id"] == "rater0")
    assert float(rater0["qwk"]) == pytest.approx(3 / 3.5) and rater0["n_pairs"] == "32"
    person("boss", Role.INSTRUCTOR, password="pw-123456")
    client.login(username="boss", password="pw-123456")
    page = client.get(reverse("annotation:study_report", args=[two_studies["retest"].pk])).content.decode()
    assert "Test-retest" in page and "0.857" in page


@pytest.mark.django_db
def test_a_report_without_repeated_ratings_has_no_retest(client, two_studies, tmp_path):
    Rating.objects.filter(study__name="retest").delete()
    assert agreement_json(tmp_path)["test_retest"] is None


@pytest.mark.django_db
def test_both_studies_ratings_export_apart_and_import_back(two_studies, tmp_path):
    before = sorted(Rating.objects.values_list("trajectory_id", "item", "rater", "source", "score", "study__name"))
    out = tmp_path / "long.csv"
    call_command("export_ratings", "--out", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert {row["study"] for row in rows if row["source"] == "human"} == {"first", "retest"}
    Rating.objects.all().delete()
    call_command("import_ratings", str(out))
    after = sorted(Rating.objects.values_list("trajectory_id", "item", "rater", "source", "score", "study__name"))
    assert after == before

    wide = tmp_path / "wide.csv"
    call_command("export_ratings", "--layout", "wide", "--out", str(wide))
    rows = list(csv.DictReader(io.StringIO(wide.read_text())))
    assert sorted((row["trajectory_id"], row["rater_id"], row["study"]) for row in rows) == sorted(
        (t, rater, name) for name in RETEST for rater in RETEST[name] for t in ("t-a", "t-b")
    )
