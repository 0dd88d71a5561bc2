"""Writes for the annotation app: trajectories from trials, and their export."""

from __future__ import annotations

import json
from pathlib import Path

from annotation.models import Trajectory
from trials.models import Trial


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
            "seats": {seat.seat: seat.holder for seat in trial.seats.all()},
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
