"""Agreement among raters without a model server (issue 32, item 4): two raters' submitted
questionnaires and no LLM judge give Krippendorff's alpha and the one-way ICCs per item and
overall, with bootstrap intervals, on the study page and in its four exports; the judge's
columns stay empty until a judge has run.

The bar: published worked examples (Shrout & Fleiss 1979, Table 2; Krippendorff 2011,
example C) rated in a study and read back through the study page's export, with no judge."""

from __future__ import annotations

import csv
import io
import json

import krippendorff
import numpy as np
import pandas as pd
import pingouin
import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from annotation.models import Assignment, Job, Study
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db

TRAJECTORIES = ["t1", "t2", "t3", "t4"]
RATERS = ("ann", "bo")
CONTRACT_ROW = {"id", "n_pairs", "human_avg", "llm_avg", "mean_diff", "sd_diff", "mae", "within1_pct", "subdims"}
CONTRACT_ITEM = CONTRACT_ROW | {
    "pearson",
    "spearman",
    "qwk",
    "krippendorff_alpha_interval",
    "icc_1_1",
    "icc_1_k",
    "n_trajectories",
    "n_raters",
}
INTER_RATER = {"human_mean", "n_human_scores", "n_human_raters", "n_units_shared", "icc_k"}


def score_of(rater: str, trajectory: str, index: int) -> int:
    """Raters who mostly agree: a trajectory's quality, the item's offset, and a small
    disagreement that differs by rater."""
    quality = {"t1": 2, "t2": 5, "t3": 7, "t4": 9}[trajectory]
    wobble = ((index * 7 + len(trajectory) + TRAJECTORIES.index(trajectory)) % 3 - 1) if rater == "bo" else 0
    return int(np.clip(quality + index % 2 + wobble, 0, 10))


@pytest.fixture
def rated(client, tasks_in_process) -> Study:
    """A study of four trajectories (known by id), k = 2, whose two raters submitted every
    questionnaire through the page; no judge, no model server."""
    study = Study.objects.create(
        name="no judge", rubric_id="legalworld16", raters_per_trajectory=2, trajectory_ids=TRAJECTORIES
    )
    study.raters.set([person(name, Role.RATER, password="pw-123456") for name in RATERS])
    assert study_plan(study=study) == 8
    items = study.rubric.definition.item_ids
    for name in RATERS:
        client.login(username=name, password="pw-123456")
        for assignment in Assignment.objects.filter(study=study, rater__username=name):
            form = {}
            for index, item in enumerate(items):
                form[f"score__{item}"] = str(score_of(name, assignment.trajectory_id, index))
                form[f"reason__{item}"] = "as I read it"
            response = client.post(reverse("annotation:assignment_submit", args=[assignment.pk]), form)
            assert response.status_code == 302, response.content.decode()[:2000]
        client.logout()
    person("boss", Role.INSTRUCTOR, password="pw-123456")
    client.login(username="boss", password="pw-123456")
    return study


def oracle(study: Study, item_index: int) -> tuple[float, float, float]:
    """Alpha (interval) by the GPL ``krippendorff`` package and ICC1 / ICC1k by ``pingouin``."""
    matrix = np.array([[score_of(name, tid, item_index) for tid in TRAJECTORIES] for name in RATERS], float)
    alpha = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
    long = pd.DataFrame(
        [(tid, name, matrix[r, t]) for r, name in enumerate(RATERS) for t, tid in enumerate(TRAJECTORIES)],
        columns=["unit", "rater", "score"],
    )
    icc = pingouin.intraclass_corr(data=long, targets="unit", raters="rater", ratings="score").set_index("Type")
    return alpha, icc.loc["ICC(1,1)", "ICC"], icc.loc["ICC(1,k)", "ICC"]


def export(client, study: Study, fmt: str) -> bytes:
    response = client.post(
        reverse("annotation:study_export", args=[study.pk]), {"kind": "agreement_report", "format": fmt}
    )
    assert response.status_code == 302
    job = Job.objects.filter(study=study, kind=Job.Kind.AGREEMENT_REPORT).latest("pk")
    assert job.status == Job.Status.DONE, job.error
    assert "-agreement-no-judge" in job.file.name and job.file.name.endswith(f".{fmt}")
    download = client.get(reverse("annotation:job_download", args=[job.pk]))
    return b"".join(download.streaming_content)


def test_the_study_page_shows_agreement_among_raters_without_a_judge(client, rated):
    page = client.get(reverse("annotation:study_dashboard", args=[rated.pk])).content.decode()
    assert 'id="raters-agreement"' in page and "ICC(1,1)" in page
    assert "No LLM judge has scored this study yet" in page
    export_form = page[page.index('value="agreement_report"') :]
    assert "disabled" not in export_form[: export_form.index("</form>")], "the export works without a judge"

    report = client.get(reverse("annotation:study_report", args=[rated.pk]))
    assert report.status_code == 200
    html = report.content.decode()
    assert "Agreement among raters" in html and "Human–LLM agreement" not in html
    assert "LLM avg." not in html, "no judge columns before a judge has run"
    alpha, icc1, icck = oracle(rated, 0)
    assert f"{alpha:.3f}" in html and f"{icc1:.3f}" in html and f"{icck:.3f}" in html
    assert html.count('<span class="ci">[') > 16, "intervals beside the items' and the lines' figures"


def test_the_four_exports_carry_alpha_and_icc_per_item_and_overall_without_a_judge(client, rated):
    data = json.loads(export(client, rated, "json"))
    assert data["judge"] is None and data["rubric"] == "legalworld16"
    assert {"groups", "overall", "items", "notes", "bootstrap"} <= set(data)
    assert "no LLM judge answers: the judge columns are empty" in data["notes"]
    items = rated.rubric.definition.item_ids
    for index, item in enumerate(items):
        entry = next(line for line in data["items"] if line["id"] == item)
        assert CONTRACT_ITEM | INTER_RATER <= set(entry)
        assert entry["n_pairs"] == 0 and entry["llm_avg"] is None
        alpha, icc1, icck = oracle(rated, index)
        assert entry["krippendorff_alpha_interval"] == pytest.approx(alpha, abs=1e-9)
        assert entry["icc_1_1"] == pytest.approx(icc1, abs=1e-9)
        assert entry["icc_1_k"] == pytest.approx(icck, abs=1e-9)
        assert entry["n_human_scores"] == 8 and entry["n_units_shared"] == 4 and entry["icc_k"] == 2
        low, high = entry["ci95"]["icc_1_1"]
        assert low <= entry["icc_1_1"] <= high
    overall = data["overall"]
    assert CONTRACT_ROW | INTER_RATER <= set(overall)
    assert overall["n_units_shared"] == 4 * len(items) and overall["n_human_raters"] == 2
    assert overall["krippendorff_alpha_interval"] > 0.8 and overall["ci95"]["krippendorff_alpha_interval"]
    for group in data["groups"]:
        assert all(CONTRACT_ROW | INTER_RATER <= set(line) for line in (*group["rows"], group["overall"]))

    first = next(line for line in data["items"] if line["id"] == items[0])
    table = list(csv.DictReader(io.StringIO(export(client, rated, "csv").decode())))
    csv_item = next(line for line in table if line["level"] == "item" and line["id"] == items[0])
    assert float(csv_item["krippendorff_alpha_interval"]) == first["krippendorff_alpha_interval"]
    assert float(csv_item["icc_1_1_ci_low"]) == first["ci95"]["icc_1_1"][0]
    csv_overall = next(line for line in table if line["level"] == "overall")
    assert float(csv_overall["icc_1_k"]) == overall["icc_1_k"] and csv_overall["llm_avg"] == ""

    sheet = load_workbook(io.BytesIO(export(client, rated, "xlsx")))["agreement"]
    header = [cell.value for cell in sheet[1]]
    lines = [dict(zip(header, [cell.value for cell in row], strict=True)) for row in sheet.iter_rows(min_row=2)]
    xlsx_overall = next(line for line in lines if line["level"] == "overall")
    assert xlsx_overall["krippendorff_alpha_interval"] == overall["krippendorff_alpha_interval"]

    html = export(client, rated, "html").decode()
    assert "Agreement among raters" in html and f"{first['icc_1_1']:.3f}" in html


# Shrout & Fleiss (1979), Table 2: 6 targets rated by 4 judges; ICC(1,1) .17 and ICC(1,k) .44.
SHROUT_FLEISS = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
# Krippendorff (2011), example C: 4 coders x 12 units, None missing; alpha (interval) .849.
EXAMPLE_C = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]
WORKED = {
    "id": "worked",
    "title": "Published worked examples",
    "scale": {"min": 0, "max": 10},
    "groups": [
        {
            "id": "examples",
            "title": "Examples",
            "rows": [
                {
                    "id": "published",
                    "title": "Published",
                    "items": [
                        {"id": "published.shrout_fleiss", "title": "Shrout & Fleiss", "description": "Table 2"},
                        {"id": "published.example_c", "title": "Krippendorff C", "description": "Example C"},
                    ],
                }
            ],
        }
    ],
}


def test_published_examples_rated_in_a_study_come_back_through_its_export_without_a_judge(
    client, tmp_path, tasks_in_process
):
    rubric = tmp_path / "worked.json"
    rubric.write_text(json.dumps(WORKED))
    call_command("import_rubric", str(rubric))
    raters = [f"coder{index}" for index in range(4)]
    study = Study.objects.create(
        name="worked", rubric_id="worked", raters_per_trajectory=4, trajectory_ids=[f"u{n}" for n in range(12)]
    )
    study.raters.set([person(name, Role.RATER) for name in raters])
    rows = ["trajectory_id,rubric,item,rater,source,score,reason,study"]
    for unit, scores in enumerate(SHROUT_FLEISS):
        rows += [f"u{unit},worked,published.shrout_fleiss,{raters[j]},human,{s},r,worked" for j, s in enumerate(scores)]
    for coder, scores in enumerate(EXAMPLE_C):
        rows += [
            f"u{unit},worked,published.example_c,{raters[coder]},human,{s},r,worked"
            for unit, s in enumerate(scores)
            if s is not None
        ]
    ratings = tmp_path / "ratings.csv"
    ratings.write_text("\n".join(rows) + "\n")
    call_command("import_ratings", str(ratings))
    person("boss", Role.INSTRUCTOR, password="pw-123456")
    client.login(username="boss", password="pw-123456")

    data = json.loads(export(client, study, "json"))
    items = {line["id"]: line for line in data["items"]}
    assert round(items["published.shrout_fleiss"]["icc_1_1"], 6) == 0.165742
    assert round(items["published.shrout_fleiss"]["icc_1_k"], 6) == 0.442797
    assert round(items["published.example_c"]["krippendorff_alpha_interval"], 3) == 0.849
    table = list(csv.DictReader(io.StringIO(export(client, study, "csv").decode())))
    csv_items = {line["id"]: line for line in table if line["level"] == "item"}
    assert round(float(csv_items["published.shrout_fleiss"]["icc_1_1"]), 6) == 0.165742
    assert round(float(csv_items["published.example_c"]["krippendorff_alpha_interval"]), 3) == 0.849
    page = client.get(reverse("annotation:study_report", args=[study.pk])).content.decode()
    assert "0.166" in page and "0.443" in page and "0.849" in page
