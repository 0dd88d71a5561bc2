from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Rating, Rubric, Trajectory
from annotation.ratings_file import read_ratings
from tests.conftest import DEMO_CASES

pytestmark = pytest.mark.django_db

HEADER = "trajectory_id,rubric,item,rater,source,score,reason\n"


def test_legalworld16_ships_with_the_contract_item_ids():
    definition = Rubric.objects.get(pk="legalworld16").definition
    stages = [
        f"{unit}.{dim}"
        for unit in ("LC", "CD_DD", "FIT", "AD_AR", "SIT")
        for dim in ("procedural_compliance", "process_coherence")
    ]
    roles = [
        f"{role}.{dim}"
        for role in ("client", "lawyer", "judge")
        for dim in ("stance_authenticity", "role_distinguishability")
    ]
    assert definition.item_ids == (*stages, *roles)
    assert (definition.scale_min, definition.scale_max) == (0, 10)
    assert definition.data["anchors"]["stage_authenticity"][0]["range"] == "9-10"


def test_import_rubric_creates_and_replaces(tmp_path):
    document = {
        "id": "tiny",
        "title": "Tiny",
        "scale": {"min": 1, "max": 5},
        "groups": [
            {
                "id": "g",
                "title": "G",
                "rows": [{"id": "r", "title": "R", "items": [{"id": "r.q", "title": "Q", "description": "?"}]}],
            }
        ],
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(document))
    call_command("import_rubric", str(path))
    document["title"] = "Tiny v2"
    path.write_text(json.dumps(document))
    call_command("import_rubric", str(path))
    assert Rubric.objects.get(pk="tiny").title == "Tiny v2"


def test_a_bad_rubric_names_its_problems(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"id": "bad", "scale": {"min": 5, "max": 1}, "groups": []}))
    with pytest.raises(CommandError) as error:
        call_command("import_rubric", str(path))
    assert (
        "title: is required" in str(error.value)
        and "scale: must be" in str(error.value)
        and "groups: must be a non-empty list" in str(error.value)
    )


def test_a_bad_ratings_file_reports_every_row_and_stores_nothing(tmp_path, capsys):
    path = tmp_path / "ratings.csv"
    path.write_text(
        HEADER
        + "t1,legalworld16,LC.procedural_compliance,ann,human,8,fine\n"
        + "t1,legalworld16,LC.made_up,ann,human,8,\n"
        + "t1,legalworld16,FIT.process_coherence,ann,human,11,\n"
        + "t1,legalworld16,FIT.procedural_compliance,ann,human,7.5,\n"
        + "t1,legalworld16,SIT.process_coherence,ann,robot,7,\n"
        + "t1,nope,SIT.process_coherence,ann,human,7,\n"
        + "t1,legalworld16,LC.procedural_compliance,ann,human,9,again\n"
        + "t1,legalworld16,judge.role_distinguishability,judge-x,llm,seven,\n"
    )
    with pytest.raises(CommandError, match="rejected 1 file"):
        call_command("import_ratings", str(path))
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"{path}:3: item: unknown item 'LC.made_up' of rubric 'legalworld16'",
        f"{path}:4: score: 11 is outside the scale 0-10",
        f"{path}:5: score: a person's score must be a whole number, got 7.5",
        f"{path}:6: source: must be human or llm, got 'robot'",
        f"{path}:7: rubric: unknown rubric 'nope'; import it with import_rubric",
        f"{path}:8: rater: duplicate rating of LC.procedural_compliance on t1 by ann (first on line 2)",
        f"{path}:9: score: must be a number, got 'seven'",
    ]
    assert not Rating.objects.exists()


def test_ratings_jsonl_and_missing_columns(tmp_path, capsys):
    jsonl = tmp_path / "ratings.jsonl"
    jsonl.write_text(
        json.dumps(
            {
                "trajectory_id": "t9",
                "rubric": "legalworld16",
                "item": "judge.stance_authenticity",
                "rater": "m",
                "source": "llm",
                "score": 8.25,
                "reason": "",
            }
        )
        + "\n"
    )
    call_command("import_ratings", str(jsonl))
    assert Rating.objects.get().score == 8.25
    headless = tmp_path / "headless.csv"
    headless.write_text("trajectory_id,item,score\nt1,LC.process_coherence,5\n")
    with pytest.raises(CommandError):
        call_command("import_ratings", str(headless))
    assert f"{headless}:1: header: missing column(s): rubric, rater, source, reason" in capsys.readouterr().err


def test_reimporting_a_rating_replaces_it(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text(HEADER + "t1,legalworld16,LC.process_coherence,ann,human,5,first\n")
    call_command("import_ratings", str(path))
    path.write_text(HEADER + "t1,legalworld16,LC.process_coherence,ann,human,6,second\n")
    call_command("import_ratings", str(path))
    assert list(Rating.objects.values_list("score", "reason")) == [(6.0, "second")]


def test_trajectories_round_trip_through_export_and_import(tmp_path, capsys):
    call_command("import_cases", str(DEMO_CASES / "en-civil-traffic-accident.json"))
    call_command("simulate", "en-civil-traffic-accident")
    call_command("export_trajectories", "--out", str(tmp_path / "out"))
    exported = next((tmp_path / "out").glob("*.json"))
    original = json.loads(exported.read_text())
    Trajectory.objects.all().delete()
    call_command("import_trajectories", str(exported))
    assert Trajectory.objects.get(pk=original["id"]).as_contract() == original
    call_command("import_trajectories", str(exported))
    assert Trajectory.objects.count() == 1, "the identical trajectory again is skipped"


def test_a_changed_trajectory_with_a_known_id_is_refused(tmp_path, capsys):
    trajectory = {
        "id": "x.1",
        "case_id": "x",
        "procedure": "civil",
        "language": "en",
        "title": "X",
        "stages": [],
        "meta": {},
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(trajectory))
    call_command("import_trajectories", str(path))
    path.write_text(json.dumps(trajectory | {"title": "Y"}))
    with pytest.raises(CommandError):
        call_command("import_trajectories", str(path))
    assert "exists with other content; trajectories are immutable" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"id": "y.1", "stages": [{"stage": "LC", "turns": [{"seq": 1, "text": "hi"}]}]}]))
    with pytest.raises(CommandError):
        call_command("import_trajectories", str(bad))
    assert f"{bad}:1: stages[0].turns[0]: missing phase, role, side, speaker, author" in capsys.readouterr().err
    assert not Trajectory.objects.filter(pk="y.1").exists()


def rating(**changes) -> dict:
    return {
        "trajectory_id": "t1",
        "rubric": "legalworld16",
        "item": "LC.process_coherence",
        "rater": "ann",
        "source": "human",
        "score": 7,
        "reason": "",
    } | changes


def test_a_ratings_line_nested_1000_deep_is_refused_on_its_line_and_the_next_file_is_stored(tmp_path, capsys):
    deep = tmp_path / "deep.jsonl"
    deep.write_text(json.dumps(rating()) + "\n" + "[" * 1000 + "]" * 1000 + "\n")
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps(rating(trajectory_id="t2")) + "\n")
    with pytest.raises(CommandError, match="rejected 1 file"):
        call_command("import_ratings", str(deep), str(good))
    assert capsys.readouterr().err.splitlines() == [f"{deep}:2: json: nested deeper than 64 levels"]
    assert list(Rating.objects.values_list("trajectory_id", flat=True)) == ["t2"]


def test_scores_json_cannot_carry_are_refused_on_their_line(tmp_path, capsys):
    path = tmp_path / "scores.jsonl"
    lines = [json.dumps(rating(item=item)) for item in ("LC.procedural_compliance", "FIT.process_coherence")]
    lines += ['{"score": NaN, "rubric": "legalworld16"}', '{"score": ' + "9" * 400 + "}", '{"score": 1e400}']
    path.write_text("\n".join(lines) + "\n" + json.dumps(rating(score="1e400")) + "\n")
    with pytest.raises(CommandError):
        call_command("import_ratings", str(path))
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:3: score: NaN is not allowed: JSON has no NaN or Infinity",
        f"{path}:4: score: 999999999999...(400 characters) is too large for a number",
        f"{path}:5: score: 1e400 is too large for a number",
        f"{path}:6: score: must be a number, got '1e400'",
    ]
    assert not Rating.objects.exists()


def test_ratings_text_with_a_nul_character_is_refused(tmp_path, capsys):
    path = tmp_path / "nul.jsonl"
    path.write_text(json.dumps(rating(reason="a\x00b")) + "\n")
    with pytest.raises(CommandError):
        call_command("import_ratings", str(path))
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:1: reason: contains a NUL character (\\u0000), which cannot be stored"
    ]


def test_a_trajectory_file_nested_1000_deep_is_refused_and_the_next_file_is_stored(tmp_path, capsys):
    trajectory = {"id": "x.1", "case_id": "x", "procedure": "civil", "language": "en", "title": "X", "stages": []}
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps(trajectory | {"meta": {}})[:-1] + ',\n"more": ' + "[" * 1000 + "]" * 1000 + "}")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(trajectory | {"id": "x.2"}))
    with pytest.raises(CommandError, match="rejected 1 file"):
        call_command("import_trajectories", str(deep), str(good))
    assert capsys.readouterr().err.splitlines() == [f"{deep}:2: json: nested deeper than 64 levels"]
    assert list(Trajectory.objects.values_list("pk", flat=True)) == ["x.2"]


def test_a_trajectory_file_of_wrong_shapes_is_refused_not_a_crash(tmp_path, capsys):
    trajectory = {"id": "y.1", "case_id": "y", "procedure": "civil", "language": "en", "title": "Y", "stages": []}
    path = tmp_path / "shapes.json"
    records = [
        trajectory | {"stages": [{"stage": "LC", "turns": 5, "artifacts": True}]},
        trajectory | {"id": "y.2", "title": "T" * 301},
        trajectory | {"id": "y.3"},
        trajectory | {"id": "y.3"},
    ]
    path.write_text("[\n" + ",\n".join(json.dumps(record) for record in records) + "\n]")
    with pytest.raises(CommandError):
        call_command("import_trajectories", str(path))
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:2: stages[0].turns: must be a list",
        f"{path}:2: stages[0].artifacts: must be a list",
        f"{path}:3: title: must be at most 300 characters",
        f"{path}:5: id: duplicate id 'y.3' (first on line 4)",
    ]
    assert not Trajectory.objects.exists()


def test_a_rubric_nested_1000_deep_is_refused_with_its_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"id": "deep",\n "groups": ' + "[" * 1000 + "]" * 1000 + "}")
    with pytest.raises(CommandError) as error:
        call_command("import_rubric", str(path))
    assert str(error.value) == f"{path}:2: json: nested deeper than 64 levels"
    assert not Rubric.objects.filter(pk="deep").exists()


def test_csv_lines_end_at_lf_and_a_quoted_cell_keeps_its_line_breaks(tmp_path):
    """Found by the property suite: a CR inside a quoted reason counted as a line."""
    path = tmp_path / "breaks.csv"
    rows = [
        't1,legalworld16,LC.process_coherence,ann,human,5,"first\r\nsecond\rthird\u2028fourth"',
        "t1,legalworld16,FIT.process_coherence,ann,human,5,",
        "t1,legalworld16,FIT.process_coherence,ann,human,5,again",
    ]
    path.write_bytes(("trajectory_id,rubric,item,rater,source,score,reason\r\n" + "\r\n".join(rows) + "\r\n").encode())
    rubrics = {"legalworld16": Rubric.objects.get(pk="legalworld16").definition}
    stored, problems = read_ratings(path, rubrics)
    assert [(row.line, row.reason) for row in stored] == [(3, "first\r\nsecond\rthird\u2028fourth"), (4, "")]
    assert [str(problem) for problem in problems] == [
        f"{path}:5: rater: duplicate rating of FIT.process_coherence on t1 by ann (first on line 4)"
    ]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (
            "t1,legalworld16,LC.process_coherence,ann,human,5," + "x" * 200_000,
            "2: csv: a cell is longer than 131072 characters",
        ),
        (
            "t1,legalworld16,LC.process_coherence,ann,human,5,a\rb",
            "2: csv: a carriage return (CR) outside quotes; quote the cell, or end lines with LF or CRLF",
        ),
    ],
)
def test_csv_the_csv_module_cannot_read_is_a_problem_on_its_line(tmp_path, capsys, body, problem):
    path = tmp_path / "bad.csv"
    path.write_bytes((HEADER + body + "\n").encode())
    with pytest.raises(CommandError):
        call_command("import_ratings", str(path))
    assert capsys.readouterr().err.splitlines() == [f"{path}:{problem}"]


def test_a_csv_file_with_cr_line_endings_is_read(tmp_path):
    path = tmp_path / "mac.csv"
    path.write_bytes((HEADER + "t1,legalworld16,LC.process_coherence,ann,human,5,ok\n").replace("\n", "\r").encode())
    call_command("import_ratings", str(path))
    assert list(Rating.objects.values_list("trajectory_id", "reason")) == [("t1", "ok")]


def trajectory_file(tmp_path, trajectory_id: str, *stages: str):
    path = tmp_path / f"{trajectory_id}.json"
    path.write_text(
        json.dumps(
            {
                "id": trajectory_id,
                "case_id": "case-1",
                "procedure": "civil",
                "language": "en",
                "title": trajectory_id,
                "stages": [{"stage": stage, "turns": [], "artifacts": []} for stage in stages],
            }
        )
    )
    return path


@pytest.fixture
def first_instance_only(tmp_path):
    """A stored trajectory that never reached the appeal (no AD/AR, no SIT)."""
    call_command("import_trajectories", str(trajectory_file(tmp_path, "no-appeal", "LC", "CD", "FIT")))


def test_na_is_refused_for_a_stage_the_trajectory_has_and_a_number_for_one_it_lacks(
    tmp_path, capsys, first_instance_only
):
    path = tmp_path / "ratings.csv"
    path.write_text(
        HEADER
        + "no-appeal,legalworld16,SIT.process_coherence,ann,human,NA,\n"
        + "no-appeal,legalworld16,FIT.process_coherence,ann,human,NA,\n"
        + "no-appeal,legalworld16,AD_AR.procedural_compliance,ann,human,6,made up\n"
        + "no-appeal,legalworld16,judge.role_distinguishability,ann,human,NA,\n"
        + "no-appeal,legalworld16,LC.process_coherence,ann,human,8,fine\n"
    )
    with pytest.raises(CommandError, match="rejected 1 file"):
        call_command("import_ratings", str(path))
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:3: score: NA refused: trajectory no-appeal has a FIT stage; give a score",
        f"{path}:4: score: trajectory no-appeal has no AD_AR stage; its items take NA, not a number",
        f"{path}:5: score: NA is only for an item whose stage the trajectory lacks; this item rates no stage",
    ]
    assert not Rating.objects.exists(), "a file with any bad row stores nothing"


def test_na_for_an_absent_stage_is_stored_as_no_score_and_exported_as_na(tmp_path, first_instance_only):
    path = tmp_path / "ratings.jsonl"
    path.write_text(
        "\n".join(
            json.dumps(rating(trajectory_id="no-appeal", item=item, score=score))
            for item, score in (
                ("SIT.process_coherence", "NA"),
                ("AD_AR.procedural_compliance", "na"),
                ("FIT.process_coherence", 7),
            )
        )
        + "\n"
        + json.dumps(rating(trajectory_id="only-an-id", item="SIT.procedural_compliance", score="NA"))
        + "\n"
    )
    call_command("import_ratings", str(path))
    stored = dict(Rating.objects.values_list("item", "score").filter(trajectory_id="no-appeal"))
    assert stored == {"SIT.process_coherence": None, "AD_AR.procedural_compliance": None, "FIT.process_coherence": 7.0}
    assert Rating.objects.get(trajectory_id="only-an-id").not_applicable, "a trajectory known by id only is not checked"

    out = tmp_path / "long.csv"
    call_command("export_ratings", "--out", str(out))
    assert "no-appeal,legalworld16,SIT.process_coherence,ann,human,NA," in out.read_text()
    before = sorted(Rating.objects.values_list("trajectory_id", "item", "score"))
    Rating.objects.all().delete()
    call_command("import_ratings", str(out))
    assert sorted(Rating.objects.values_list("trajectory_id", "item", "score")) == before
