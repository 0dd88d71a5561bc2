"""Writes for the annotation app: trajectories (from trials, import, export), rubrics, ratings."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from django.db import DatabaseError, models, transaction
from django.db.models import Q

from agents.prompts import PROMPT_VERSION
from annotation.judge import Judgment, pair_judge, trajectory_judge
from annotation.models import JudgeFlag, Rating, Rubric, Study, Trajectory
from annotation.ratings_file import RatingRow, read_ratings
from annotation.rubric import RubricDefinition, rubric_load
from annotation.rubric_kind import Pair
from annotation.stages import stored_stage_units
from legalsim.json_input import Problem, read_records
from legalsim.llm import LLMClient
from trials.models import Trial
from trials.selectors import seat_models_meta


def trajectory_from_trial(*, trial: Trial) -> Trajectory:
    """Freeze a finished trial into the trajectory-file contract's shape."""
    state = trial.engine_state
    stages = []
    for stage in state.stage_history:
        stages.append(
            {
                "stage": stage,
                "turns": [
                    {
                        "seq": turn.seq,
                        "phase": turn.phase,
                        "role": turn.role,
                        "side": turn.side,
                        "speaker": turn.speaker,
                        "author": turn.author,
                        "text": turn.text,
                    }
                    for turn in state.turns
                    if turn.stage == stage
                ],
                "artifacts": [
                    {"kind": artifact.kind, "title": artifact.title, "text": artifact.text}
                    for artifact in state.artifacts
                    if artifact.stage == stage
                ],
            }
        )
    case = state.case
    seats = list(trial.seats.all())
    return Trajectory.objects.create(
        id=f"{case['id']}.trial{trial.pk}",
        case_id=case["id"],
        procedure=state.procedure,
        language=state.language,
        title=case["title"],
        stages=stages,
        meta={
            "trial_id": trial.pk,
            "target_side": state.target_side,
            "backend": trial.backend,
            "appellant_side": state.appellant_side,
            "mediated": state.mediated,
            "tokens": trial.tokens,
            "prompt_version": PROMPT_VERSION if trial.backend == "openai" else None,
            "models": sorted({seat.agent_model for seat in seats}),
            "seat_models": seat_models_meta(trial),
            "seats": {seat.seat: seat.holder for seat in seats},
        },
        trial=trial,
    )


def trajectories_export(*, out_dir: Path, ids: list[str] | None = None) -> list[Path]:
    """Write one ``ID.json`` per trajectory; returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    queryset = Trajectory.objects.all()
    if ids:
        queryset = queryset.filter(id__in=ids)
    written = []
    for trajectory in queryset.iterator():
        path = out_dir / f"{trajectory.id}.json"
        path.write_text(json.dumps(trajectory.as_contract(), ensure_ascii=False, indent=2), encoding="utf-8")
        written.append(path)
    return written


def rubric_import(*, path: Path) -> Rubric:
    """Create or replace a rubric from a rubric file; raises ``RubricError`` naming every problem."""
    definition = rubric_load(path)
    rubric, _ = Rubric.objects.update_or_create(
        id=definition.id,
        defaults={
            "title": definition.title,
            "scale_min": definition.scale_min,
            "scale_max": definition.scale_max,
            "document": definition.data,
        },
    )
    return rubric


@dataclass
class ImportReport:
    imported: int = 0
    problems: list[Problem] = field(default_factory=list)
    rejected_files: list[str] = field(default_factory=list)


def ratings_import(*, paths: list[Path]) -> ImportReport:
    """Import ratings files, each atomically: a file with any bad row stores nothing.

    Re-importing a rating (same rubric, trajectory, item, rater, source and study) replaces it.
    An ``NA`` score is checked against the stages of the trajectory when it is stored here.
    """
    report = ImportReport()
    rubrics = {rubric.id: rubric.definition for rubric in Rubric.objects.all()}
    studies = dict(Study.objects.values_list("name", "rubric_id"))
    for path in paths:
        rows, problems = read_ratings(path, rubrics, stage_units=stored_stage_units, studies=studies)
        if problems:
            report.problems.extend(problems)
            report.rejected_files.append(str(path))
            continue
        try:
            with transaction.atomic():
                _ratings_store(rows, source_file=str(path))
        except DatabaseError as error:
            report.problems.append(Problem(str(path), 1, "file", f"could not be stored: {error}"))
            report.rejected_files.append(str(path))
            continue
        report.imported += len(rows)
    return report


def _ratings_store(rows: list[RatingRow], *, source_file: str) -> None:
    study_ids = dict(Study.objects.filter(name__in={row.study for row in rows if row.study}).values_list("name", "pk"))
    for rubric_id in {row.rubric for row in rows}:
        keys = [row for row in rows if row.rubric == rubric_id]
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            match = Q()
            for row in chunk:
                match |= Q(
                    trajectory_id=row.trajectory_id,
                    item=row.item,
                    rater=row.rater,
                    source=row.source,
                    study_id=study_ids.get(row.study),
                )
            Rating.objects.filter(match, rubric_id=rubric_id).delete()
    Rating.objects.bulk_create(
        (
            Rating(
                rubric_id=row.rubric,
                trajectory_id=row.trajectory_id,
                item=row.item,
                rater=row.rater,
                source=row.source,
                score=row.score,
                reason=row.reason,
                study_id=study_ids.get(row.study),
                imported_from=source_file,
            )
            for row in rows
        ),
        batch_size=2000,
    )


TRAJECTORY_KEYS = ("id", "case_id", "procedure", "language", "title", "stages")
TRAJECTORY_LENGTHS = {"id": 200, "case_id": 120, "procedure": 16, "language": 8, "title": 300}  # as stored
TURN_KEYS = ("seq", "phase", "role", "side", "speaker", "author", "text")


def _trajectory_problems(data: object) -> list[tuple[str, str]]:
    """(field, message) for everything that breaks the trajectory-file contract."""
    if not isinstance(data, dict):
        return [("trajectory", "must be a JSON object")]
    problems = [
        (key, "is required and must be a non-empty string")
        for key in TRAJECTORY_KEYS[:5]
        if not isinstance(data.get(key), str) or not data[key].strip()
    ]
    problems += [
        (key, f"must be at most {limit} characters")
        for key, limit in TRAJECTORY_LENGTHS.items()
        if isinstance(data.get(key), str) and len(data[key]) > limit
    ]
    if not isinstance(data.get("stages"), list):
        return [*problems, ("stages", "must be a list")]
    for s_index, stage in enumerate(data["stages"]):
        where = f"stages[{s_index}]"
        if not isinstance(stage, dict) or not isinstance(stage.get("stage"), str):
            problems.append((where, "needs a stage name"))
            continue
        for key in ("turns", "artifacts"):
            if not isinstance(stage.get(key) or [], list):
                problems.append((f"{where}.{key}", "must be a list"))
        for t_index, turn in enumerate(_list(stage.get("turns"))):
            missing = [key for key in TURN_KEYS if not isinstance(turn, dict) or key not in turn]
            if missing:
                problems.append((f"{where}.turns[{t_index}]", f"missing {', '.join(missing)}"))
            elif turn["author"] not in ("human", "agent"):
                problems.append((f"{where}.turns[{t_index}].author", "must be human or agent"))
            elif not isinstance(turn["seq"], int) or isinstance(turn["seq"], bool):
                problems.append((f"{where}.turns[{t_index}].seq", "must be an integer"))
        for a_index, artifact in enumerate(_list(stage.get("artifacts"))):
            if not isinstance(artifact, dict) or not all(
                isinstance(artifact.get(key), str) for key in ("kind", "title", "text")
            ):
                problems.append((f"{where}.artifacts[{a_index}]", "needs kind, title and text strings"))
    if "meta" in data and not isinstance(data["meta"], dict):
        problems.append(("meta", "must be an object"))
    return problems


def _list(value: object) -> list:
    return value if isinstance(value, list) else []


def trajectories_import(*, paths: list[Path]) -> ImportReport:
    """Import trajectory files (one object or a list per file), each file atomically.

    Trajectories are immutable: an id already stored with different content is an error,
    the identical trajectory again is skipped.
    """
    report = ImportReport()
    for path in paths:
        records, problems = read_records(path)
        accepted = []
        first_line: dict[str, int] = {}
        for record in records:
            found = _trajectory_problems(record.data)
            problems.extend(Problem(str(path), record.line, where, message) for where, message in found)
            if found:
                continue
            if record.data["id"] in first_line:
                message = f"duplicate id {record.data['id']!r} (first on line {first_line[record.data['id']]})"
                problems.append(Problem(str(path), record.line, "id", message))
                continue
            first_line[record.data["id"]] = record.line
            existing = Trajectory.objects.filter(pk=record.data["id"]).first()
            if existing is not None and existing.as_contract() != _contract_of(record.data):
                problems.append(
                    Problem(
                        str(path),
                        record.line,
                        "id",
                        f"trajectory {record.data['id']!r} exists with other content; trajectories are immutable",
                    )
                )
            elif existing is None:
                accepted.append(record.data)
        if problems:
            report.problems.extend(problems)
            report.rejected_files.append(str(path))
            continue
        try:
            with transaction.atomic():
                for data in accepted:
                    Trajectory.objects.create(**_contract_of(data))
        except DatabaseError as error:
            report.problems.append(Problem(str(path), 1, "file", f"could not be stored: {error}"))
            report.rejected_files.append(str(path))
            continue
        report.imported += len(accepted)
    return report


def _contract_of(data: dict) -> dict:
    return {key: data[key] for key in TRAJECTORY_KEYS} | {"meta": data.get("meta") or {}}


@dataclass
class JudgeReport:
    scored: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)


def trajectories_judge(*, rubric_id: str, model: str, trajectory_ids: list[str], progress=None) -> JudgeReport:
    """Score trajectories with the LLM judge; scores are stored as ``source=llm`` ratings by
    ``model`` (replacing that model's earlier ones), unusable replies as ``JudgeFlag``."""
    rubric = Rubric.objects.get(pk=rubric_id)
    definition = rubric.definition
    client = LLMClient.from_settings()
    report = JudgeReport()
    for index, (unit, judgment) in enumerate(_judgments(client, model, definition, trajectory_ids), 1):
        with transaction.atomic():
            Rating.objects.filter(rubric=rubric, trajectory_id=unit, source="llm", rater=model).delete()
            JudgeFlag.objects.filter(rubric=rubric, trajectory_id=unit, model=model).delete()
            if judgment.scores is None:
                JudgeFlag.objects.create(
                    rubric=rubric, trajectory_id=unit, model=model, problem=judgment.problem, reply=judgment.reply
                )
                report.flagged.append(unit)
            else:
                Rating.objects.bulk_create(
                    Rating(
                        rubric=rubric,
                        trajectory_id=unit,
                        item=item,
                        rater=model,
                        source="llm",
                        score=score,
                        reason=reason,
                    )
                    for item, (score, reason) in judgment.scores.items()
                )
                report.scored.append(unit)
        if progress is not None:
            progress(index, len(trajectory_ids))
    return report


def _judgments(
    client: LLMClient, model: str, rubric: RubricDefinition, units: list[str]
) -> Iterator[tuple[str, Judgment]]:
    """(unit, judgment) for every unit whose trajectories are stored: one trajectory, or for a
    pairwise rubric the pair ``FIRST|SECOND``."""
    needed = {tid for unit in units for tid in rubric.kind.trajectory_ids(unit)}
    stored = {trajectory.pk: trajectory.as_contract() for trajectory in Trajectory.objects.filter(pk__in=needed)}
    for unit in sorted(units):
        rated = rubric.kind.unit(unit)
        if isinstance(rated, Pair) and set(rated.trajectory_ids) <= stored.keys():
            records = (stored[rated.first], stored[rated.second])
            yield unit, pair_judge(client=client, model=model, rubric=rubric, pair=rated, records=records)
        elif isinstance(rated, str) and rated in stored:
            yield unit, trajectory_judge(client=client, model=model, rubric=rubric, trajectory=stored[rated])


def course_practice_trials_set(*, course: models.Model, allowed: bool) -> models.Model:
    """Let the course's instructors put its students' trials in rating studies, or stop them:
    withdrawn, those trajectories leave every queue and judge run at once
    (``annotation.trajectory_access``)."""
    course.practice_trials_in_studies = allowed
    course.save(update_fields=["practice_trials_in_studies"])
    return course
