"""``study_create``: a study and its planned assignments from the command line, or, when
anything is wrong, every problem and nothing created."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from django.core.management import CommandError, call_command

from annotation.models import Assignment, Study, Trajectory
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db


@pytest.fixture
def stored(tmp_path) -> list[str]:
    """Three trajectories imported into a fresh database, and people to rate them."""
    ids = ["case-1.trial1", "case-1.trial2", "case-2.trial3"]
    path = tmp_path / "trajectories.json"
    path.write_text(
        json.dumps(
            [
                {
                    "id": trajectory_id,
                    "case_id": trajectory_id.split(".")[0],
                    "procedure": "civil",
                    "language": "en",
                    "title": trajectory_id,
                    "stages": [{"stage": "LC", "turns": [], "artifacts": []}],
                }
                for trajectory_id in ids
            ]
        )
    )
    call_command("import_trajectories", str(path))
    for name in ("ann", "bo", "cy"):
        person(name, Role.RATER)
    person("stu", Role.STUDENT)
    return ids


def ids_file(tmp_path, text: str):
    path = tmp_path / "ids.txt"
    path.write_text(text)
    return path


def test_a_study_is_created_and_planned_k_raters_per_trajectory(tmp_path, stored, capsys):
    path = ids_file(tmp_path, f"# pilot\n{stored[0]}\n\n  {stored[1]}  # the second\n{stored[2]}\n")
    call_command(
        "study_create",
        "pilot",
        "--rubric",
        "legalworld16",
        "--trajectories",
        str(path),
        "--raters",
        "ann,bo,cy",
        "--k",
        "2",
    )
    study = Study.objects.get(name="pilot")
    assert study.trajectory_ids == stored and study.raters_per_trajectory == 2 and study.rubric_id == "legalworld16"
    assert sorted(user.username for user in study.raters.all()) == ["ann", "bo", "cy"]
    per_trajectory = Counter(study.assignments.values_list("trajectory_id", flat=True))
    assert per_trajectory == {trajectory_id: 2 for trajectory_id in stored}
    assert sorted(Counter(study.assignments.values_list("rater__username", flat=True)).values()) == [2, 2, 2]
    assert "study pilot created: 3 trajectory(ies), 3 rater(s), k=2; 6 assignment(s) planned" in capsys.readouterr().out


def test_every_problem_is_reported_and_nothing_is_created(tmp_path, stored, capsys):
    path = ids_file(tmp_path, f"{stored[0]}\nno-such.trial99\n# fine\n{stored[0]}\n")
    with pytest.raises(CommandError, match="not created"):
        call_command("study_create", "pilot", "--trajectories", str(path), "--raters", "ann,stu,zed", "--k", "2")
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:2: id: no trajectory 'no-such.trial99'; import it with import_trajectories",
        f"{path}:4: id: '{stored[0]}' is listed twice (first on line 1)",
        "raters: 'stu' does not hold the rater role; grant it with grant_role",
        "raters: no user 'zed'",
        "k: 2 raters per trajectory need at least 2 raters who can rate; 1 given",
    ]
    assert not Study.objects.exists() and not Assignment.objects.exists()


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--rubric", "nope"], "rubric: no rubric 'nope'; import it with import_rubric"),
        (["--k", "0"], "k: must be at least 1, got 0"),
        (["--k", "4"], "k: 4 raters per trajectory need at least 4 raters who can rate; 3 given"),
    ],
)
def test_a_bad_rubric_or_k_creates_nothing(tmp_path, stored, capsys, args, problem):
    path = ids_file(tmp_path, "\n".join(stored))
    base = {"--rubric": "legalworld16", "--k": "2"} | dict(zip(args[::2], args[1::2], strict=True))
    with pytest.raises(CommandError):
        call_command(
            "study_create",
            "pilot",
            "--trajectories",
            str(path),
            "--raters",
            "ann,bo,cy",
            *[part for pair in base.items() for part in pair],
        )
    assert capsys.readouterr().err.splitlines() == [problem]
    assert not Study.objects.exists()


def test_a_taken_name_an_empty_file_and_a_missing_one_are_refused(tmp_path, stored, capsys):
    path = ids_file(tmp_path, "\n".join(stored))
    call_command("study_create", "pilot", "--trajectories", str(path), "--raters", "ann", "--k", "1")
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing yet\n\n")
    with pytest.raises(CommandError):
        call_command("study_create", "pilot", "--trajectories", str(empty), "--raters", "ann", "--k", "1")
    assert capsys.readouterr().err.splitlines() == [
        "name: a study named 'pilot' exists already",
        f"{empty}:1: file: lists no trajectory (one id a line)",
    ]
    with pytest.raises(CommandError):
        call_command(
            "study_create", "other", "--trajectories", str(tmp_path / "gone.txt"), "--raters", "ann", "--k", "1"
        )
    assert f"{tmp_path / 'gone.txt'}:1: file: cannot be read" in capsys.readouterr().err
    assert list(Study.objects.values_list("name", flat=True)) == ["pilot"]


def test_a_pairwise_study_lists_pairs_of_one_case(tmp_path, stored, capsys):
    criminal = [{"stage": "investigation", "turns": [], "artifacts": []}]  # the stages simcourt30 rates
    Trajectory.objects.filter(pk__in=stored).update(procedure="criminal", stages=criminal, stage_ids=["investigation"])
    path = ids_file(tmp_path, f"{stored[0]}|{stored[1]}\n{stored[0]}|{stored[2]}\n{stored[0]}\n")
    with pytest.raises(CommandError):
        call_command(
            "study_create",
            "pairs",
            "--rubric",
            "simcourt30",
            "--trajectories",
            str(path),
            "--raters",
            "ann",
            "--k",
            "1",
        )
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:2: id: both trajectories of a pair must be of one case, got case-1 and case-2",
        f"{path}:3: id: the rubric 'simcourt30' rates pairs: give two trajectories of one case as FIRST|SECOND",
    ]
    ids_file(tmp_path, f"{stored[0]}|{stored[1]}\n")
    call_command(
        "study_create", "pairs", "--rubric", "simcourt30", "--trajectories", str(path), "--raters", "ann", "--k", "1"
    )
    assignment = Assignment.objects.get()
    assert assignment.trajectory_id == f"{stored[0]}|{stored[1]}" and assignment.shown_first in stored[:2]


def test_a_rubric_for_stages_the_trajectories_never_played_is_refused_and_nothing_is_created(tmp_path, stored, capsys):
    """simcourt30 rates a criminal trial's stages; these are civil trajectories (issue 32, item 11)."""
    call_command("import_rubric", "annotation/rubrics/simcourt30.json")
    path = ids_file(tmp_path, f"{stored[0]}|{stored[1]}\n")
    with pytest.raises(CommandError):
        call_command(
            "study_create",
            "pairs",
            "--rubric",
            "simcourt30",
            "--trajectories",
            str(path),
            "--raters",
            "ann",
            "--k",
            "1",
        )
    err = capsys.readouterr().err
    assert "rubric: the rubric simcourt30 rates the stages investigation, evidence, debate, and 2 trajectories" in err
    assert not Study.objects.exists() and not Assignment.objects.exists()
