"""Pairwise rubrics (SimCourt): statistics against references, a hand-computed report, and
the blind A/B flow from the study to the report."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter

import krippendorff
import numpy as np
import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from annotation.agreement import RatingsFrame
from annotation.models import Assignment, Job, Rating, Rubric, Study, Trajectory
from annotation.pairwise import fleiss_kappa, kappa_from_confusion, pairwise_report
from annotation.reliability import cohen_kappa
from annotation.rubric import RUBRIC_DIR, RubricError, rubric_load, rubric_parse
from annotation.rubric_kind import Pair
from annotation.studies import assignment_claim
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

SIMCOURT = rubric_load(RUBRIC_DIR / "simcourt30.json")
ITEM = "debate.attorney.clarity_of_defense_arguments"

# Fleiss (1971) as worked on Wikipedia: 10 subjects, 14 raters, 5 categories -> kappa 0.210
FLEISS_TABLE = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def test_fleiss_kappa_matches_the_published_example():
    assert round(float(fleiss_kappa(np.array(FLEISS_TABLE))[0]), 3) == 0.210


def test_kappa_from_confusion_matches_artstein_and_poesio():
    assert round(float(kappa_from_confusion(np.array([[20.0, 20.0], [10.0, 50.0]]))), 3) == 0.348


def test_the_simcourt_rubric_ships_with_its_thirty_aspects():
    assert SIMCOURT.kind.is_pairwise and len(SIMCOURT.item_ids) == 30
    assert (SIMCOURT.scale_min, SIMCOURT.scale_max) == (-1, 1)
    with pytest.raises(RubricError, match="a pairwise rubric answers first"):
        rubric_parse(SIMCOURT.data | {"scale": {"min": 0, "max": 10}})


def random_answers(seed: int, units: int = 25, raters: int = 5) -> tuple[list[tuple], np.ndarray]:
    """Answers of ``raters`` on one item of ``units`` pairs, some missing; and the matrix."""
    rng = np.random.default_rng(seed)
    matrix = np.full((raters, units), np.nan)
    rows = []
    for unit in range(units):
        leaning = rng.choice([1, 0, -1])
        for rater in range(raters):
            if rng.random() < 0.25:
                continue
            score = leaning if rng.random() < 0.6 else rng.choice([1, 0, -1])
            matrix[rater, unit] = score
            rows.append((f"a{unit}|b{unit}", ITEM, f"r{rater}", "human", float(score)))
    return rows, matrix


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_inter_rater_figures_match_the_oracles(seed):
    rows, matrix = random_answers(seed)
    item = next(line for line in _report(rows)["items"] if line["id"] == ITEM)
    expected_alpha = krippendorff.alpha(reliability_data=matrix, level_of_measurement="nominal")
    assert item["krippendorff_alpha_nominal"] == pytest.approx(expected_alpha, abs=1e-9)
    kappas = []
    for first in range(matrix.shape[0]):
        for second in range(first + 1, matrix.shape[0]):
            shared = ~np.isnan(matrix[first]) & ~np.isnan(matrix[second])
            table = np.zeros((3, 3))
            for a, b in zip(matrix[first][shared], matrix[second][shared], strict=True):
                table[int(1 - a), int(1 - b)] += 1
            kappas.append(cohen_kappa(table))
    assert item["cohen_kappa_mean"] == pytest.approx(np.mean([k for k in kappas if k is not None]), abs=1e-9)


def _report(rows: list[tuple], replicates: int = 0) -> dict:
    return pairwise_report(rubric=SIMCOURT, frame=RatingsFrame.from_rows(rows), replicates=replicates)


def test_a_small_report_matches_a_hand_computation():
    # u1: first, first, draw (judge first); u2: second, draw, draw (judge draw)
    rows = [
        ("s1|h1", ITEM, "ann", "human", 1.0),
        ("s1|h1", ITEM, "bo", "human", 1.0),
        ("s1|h1", ITEM, "cy", "human", 0.0),
        ("s1|h1", ITEM, "judge", "llm", 1.0),
        ("s2|h2", ITEM, "ann", "human", -1.0),
        ("s2|h2", ITEM, "bo", "human", 0.0),
        ("s2|h2", ITEM, "cy", "human", 0.0),
        ("s2|h2", ITEM, "judge", "llm", 0.0),
    ]
    report = _report(rows, replicates=200)
    item = next(line for line in report["items"] if line["id"] == ITEM)
    assert item["n_answers"] == 6 and report["judge"] == "judge"
    assert item["share_first"] == pytest.approx(100 * 2 / 6) and item["share_draw"] == pytest.approx(50)
    # SimCourt's aggregation: u1 -> first (2 vs 0), u2 -> second (0 vs 1; draws left out)
    assert (item["majority_first"], item["majority_draw"], item["majority_second"]) == (50.0, 0.0, 50.0)
    # rater pairs agreeing: u1 (ann, bo); u2 (bo, cy): 2 of 6
    assert item["percent_agreement"] == pytest.approx(100 / 3)
    # judge: u1 agrees with ann and bo, u2 with bo and cy: 4 of 6
    assert item["llm_agreement_pct"] == pytest.approx(200 / 3)
    # two units resample to {u1,u1}, {u1,u2}, {u2,u2}: judge agreement 2/3 in each
    assert item["ci95"]["llm_agreement_pct"] == pytest.approx([200 / 3, 200 / 3])
    assert report["overall"]["n_answers"] == 6, "other items have no answers; the overall pools them all"


@pytest.fixture
def pair(db):
    cases_import(paths=[DEMO_CASES / "zh-criminal-dangerous-driving.json"])
    case = Case.objects.get()
    return [trial_simulate(case=case, backend="scripted").trajectory.id for _ in range(2)]


def test_raters_compare_blind_and_answers_count_for_the_trajectory_they_preferred(
    client, django_user_model, pair, openai_settings, llm_server, tasks_in_process
):
    first, second = pair
    unit = str(Pair(first, second))
    study = Study.objects.create(name="blind", rubric_id="simcourt30", raters_per_trajectory=2, trajectory_ids=[unit])
    raters = [person(f"expert{n}", Role.RATER, password="pw-123456") for n in range(2)]
    study.raters.set(raters)
    for rater in raters:
        assignment = assignment_claim(study_id=study.pk, rater=rater)
        client.login(username=rater.username, password="pw-123456")
        page = client.get(reverse("annotation:assignment", args=[assignment.pk])).content.decode()
        queue = client.get(reverse("annotation:rater_queue")).content.decode()
        assert "Trajectory A" in page and "Trajectory B" in page and 'value="draw"' in page
        assert first not in page + queue and second not in page + queue, "the ids would unblind the pair"
        assert Trajectory.objects.get(pk=first).title in queue, "the pair's case is named"
        stage = client.get(reverse("annotation:assignment_pair_stage", args=[assignment.pk, "B", 0]))
        assert stage.status_code == 200 and 'class="turn' in stage.content.decode()
        data = {f"score__{item}": "A" for item in SIMCOURT.item_ids} | {
            f"reason__{item}": "A questions more precisely" for item in SIMCOURT.item_ids
        }
        client.post(reverse("annotation:assignment_draft", args=[assignment.pk]), data)
        assert client.post(reverse("annotation:assignment_submit", args=[assignment.pk])).status_code == 302
    for assignment in Assignment.objects.all():
        expected = 1 if assignment.shown_first == first else -1
        scores = set(Rating.objects.filter(rater=assignment.rater.username).values_list("score", flat=True))
        assert scores == {expected}

    llm_server.brain = lambda request: json.dumps(
        {"answers": {item: {"preference": "draw", "reason": "alike"} for item in SIMCOURT.item_ids}}
    )
    call_command("judge_trajectories", unit, "--rubric", "simcourt30", "--model", "judge-p")
    assert "# 记录 A" in llm_server.requests[0]["messages"][1]["content"]  # a Chinese case, judged in Chinese
    assert set(Rating.objects.filter(source="llm").values_list("score", flat=True)) == {0.0}
    staff = person("boss", Role.INSTRUCTOR, password="pw-123456")
    client.force_login(staff)
    page = client.get(reverse("annotation:study_report", args=[study.pk])).content.decode()
    assert "Pairwise evaluation" in page and "Clarity of Defense Arguments" in page
    assert "judge <strong>judge-p</strong>" in page
    client.post(reverse("annotation:study_export", args=[study.pk]), {"kind": "agreement_report", "format": "csv"})
    job = Job.objects.get(kind=Job.Kind.AGREEMENT_REPORT)
    table = b"".join(client.get(reverse("annotation:job_download", args=[job.pk])).streaming_content).decode()
    overall = next(row for row in csv.DictReader(io.StringIO(table)) if row["level"] == "overall")
    assert overall["n_answers"] == "60" and float(overall["llm_agreement_pct"]) == 0.0, (
        "people chose A, the judge draws"
    )


def test_the_a_b_order_is_drawn_per_rater(django_user_model, pair):
    unit = str(Pair(*pair))
    study = Study.objects.create(name="order", rubric_id="simcourt30", raters_per_trajectory=40, trajectory_ids=[unit])
    raters = [person(f"r{n}", Role.RATER) for n in range(40)]
    study.raters.set(raters)
    for rater in raters:
        assignment_claim(study_id=study.pk, rater=rater)
    assert set(Counter(Assignment.objects.values_list("shown_first", flat=True))) == set(pair)


def test_a_pairwise_ratings_file_needs_pairs_and_three_answers(tmp_path, capsys, db):
    path = tmp_path / "bad.csv"
    path.write_text(
        "trajectory_id,rubric,item,rater,source,score,reason\n"
        f"s1|h1,simcourt30,{ITEM},ann,human,1,ok\n"
        f"s1,simcourt30,{ITEM},bo,human,1,ok\n"
        f"s1|h1,simcourt30,{ITEM},cy,human,0.5,ok\n"
    )
    with pytest.raises(CommandError, match="nothing stored"):
        call_command("import_ratings", str(path))
    err = capsys.readouterr().err
    assert f"{path}:3: trajectory_id: a pairwise rating names two trajectories as FIRST|SECOND" in err
    assert f"{path}:4: score:" in err
    assert not Rating.objects.exists() and Rubric.objects.filter(pk="simcourt30").exists()


def test_a_pairwise_study_takes_only_pairs_of_one_case(db, pair):
    from django.core.exceptions import ValidationError

    cases_import(paths=[DEMO_CASES / "en-criminal-telecom-fraud.json"])
    other = trial_simulate(case=Case.objects.get(pk="en-criminal-telecom-fraud"), backend="scripted").trajectory.id
    Study(name="ok", rubric_id="simcourt30", trajectory_ids=[str(Pair(*pair))]).full_clean()
    with pytest.raises(ValidationError, match="not pairs: lonely"):
        Study(name="bad", rubric_id="simcourt30", trajectory_ids=["lonely"]).full_clean()
    with pytest.raises(ValidationError, match="must be of one case"):
        Study(name="mixed", rubric_id="simcourt30", trajectory_ids=[str(Pair(pair[0], other))]).full_clean()
