"""A small study with reference trajectories, as the rater-quality tests need it: stored
trajectories (some lacking the appeal stages), raters, and helpers to answer questionnaires
and write reference files."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable
from pathlib import Path

from django.core.management import call_command

from annotation.models import Assignment, Rating, Rubric, Study
from annotation.studies import assignment_submit
from legalsim.roles import Role
from tests.users import person

FULL = ["LC", "CD", "FIT", "AD-Det", "AD", "SIT"]
FIRST_INSTANCE = ["LC", "CD", "FIT"]
"""No appeal: the AD_AR and SIT items are N/A."""
APPEAL_ITEMS = (
    "AD_AR.procedural_compliance",
    "AD_AR.process_coherence",
    "SIT.procedural_compliance",
    "SIT.process_coherence",
)


def items() -> tuple[str, ...]:
    return Rubric.objects.get(pk="legalworld16").definition.item_ids


def spoken_in(stage: str) -> dict:
    """The one turn of ``stage``: its words name the stage."""
    return {
        "seq": 1,
        "phase": "opening",
        "role": "judge",
        "side": "court",
        "speaker": "Judge",
        "author": "agent",
        "text": f"Words spoken in {stage}",
    }


def trajectories_store(tmp_path: Path, stages_of: dict[str, list[str]]) -> None:
    """Import one trajectory per id, with the stages given, each with one turn."""
    path = tmp_path / "trajectories.json"
    path.write_text(
        json.dumps(
            [
                {
                    "id": trajectory_id,
                    "case_id": trajectory_id.split(".")[0],
                    "procedure": "civil",
                    "language": "en",
                    "title": f"Title of {trajectory_id}",
                    "stages": [{"stage": stage, "turns": [spoken_in(stage)], "artifacts": []} for stage in stages],
                }
                for trajectory_id, stages in stages_of.items()
            ]
        )
    )
    call_command("import_trajectories", str(path))


def study_make(name: str, units: list[str], raters: Iterable[str], k: int) -> Study:
    study = Study.objects.create(name=name, rubric_id="legalworld16", raters_per_trajectory=k, trajectory_ids=units)
    study.raters.set([person(rater, Role.RATER, password="pw-123456") for rater in raters])
    return study


def reference_rows(trajectory_id: str, kind: str, score_of: Callable[[str], int], skip: Iterable[str] = ()) -> list:
    """A reference row per item: ``score_of(item)``, ``NA`` for the items in ``skip``."""
    return [
        {
            "trajectory_id": trajectory_id,
            "item": item,
            "score": "NA" if item in skip else score_of(item),
            "reason": "" if item in skip else f"reference reason for {item}",
            "kind": kind,
        }
        for item in items()
    ]


def references_csv(tmp_path: Path, rows: list[dict], name: str = "references.csv") -> Path:
    path = tmp_path / name
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["trajectory_id", "item", "score", "reason", "kind"])
        writer.writeheader()
        writer.writerows(rows)
    return path


def submit(assignment: Assignment, score_of: Callable[[str], int], skip: Iterable[str] = ()) -> None:
    """Answer every item the trajectory has a stage for and submit; fails on any problem."""
    answers = {
        item: {"score": str(score_of(item)), "reason": f"{assignment.rater.username} on {item}"}
        for item in items()
        if item not in skip
    }
    result = assignment_submit(assignment_id=assignment.pk, rater=assignment.rater, answers=answers)
    assert not result.problems, result.problems


def judge_ratings(tmp_path: Path, units: list[str], score: int, skip: Iterable[str] = ()) -> None:
    """The LLM judge's scores of the units, imported: the same score on every item."""
    path = tmp_path / "judge.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["trajectory_id", "rubric", "item", "rater", "source", "score", "reason"])
        for unit in units:
            for item in items():
                if item not in skip:
                    writer.writerow([unit, "legalworld16", item, "judge-m", "llm", score, "judge"])
    call_command("import_ratings", str(path))
    assert Rating.objects.filter(source="llm").exists()
