"""What configuration a trajectory was played with, the pairs a comparison rates, and the
masking of configuration names in what raters and the judge read.

A configuration is what the batch and the trial record: the target seat's model, the
backend, the MASER supervisor, SimCourt's strategy module and the reflective skill notes.
Its name lists only the settings that differ among the trajectories compared (two models
under one setting are named by their models alone).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations

from annotation.models import Trajectory
from court.procedures.seats import target_seat
from trials.models import BatchRun

SETTINGS = ("model", "backend", "supervised", "strategy", "skill_notes")
MASK = "[model]"


@dataclass(frozen=True)
class Played:
    """A trajectory with the case, the seat under evaluation and its configuration's settings."""

    trajectory_id: str
    case_id: str
    seat: str
    settings: tuple[tuple[str, object], ...]


def settings_of(trajectory: Trajectory, run: BatchRun | None) -> dict[str, object]:
    """The configuration a trajectory was played with, from its trial and its batch."""
    meta, trial = trajectory.meta or {}, trajectory.trial
    seat = target_seat(trajectory.procedure, str(meta.get("target_side", "")))
    seat_model = (meta.get("seat_models") or {}).get(seat, {}).get("model", "")
    model = (trial.target_model if trial else "") or seat_model or ", ".join(meta.get("models") or []) or "?"
    batch = run.batch if run else None
    return {
        "model": model,
        "backend": str(meta.get("backend") or (trial.backend if trial else "")),
        "supervised": bool(trial.supervised) if trial else bool(batch and batch.supervised),
        "strategy": batch.strategy if batch else True,
        "skill_notes": bool(trial.skill_notes) if trial else bool(batch and batch.skill_notes),
    }


def played_of(trajectories: list[Trajectory]) -> list[Played]:
    runs = {
        run.trial_id: run
        for run in BatchRun.objects.select_related("batch").filter(trial_id__in=[t.trial_id for t in trajectories])
    }
    return [
        Played(
            t.pk,
            t.case_id,
            target_seat(t.procedure, str((t.meta or {}).get("target_side", ""))),
            tuple(settings_of(t, runs.get(t.trial_id)).items()),
        )
        for t in trajectories
    ]


def names_of(settings: list[tuple[tuple[str, object], ...]]) -> dict[tuple, str]:
    """A readable name for each distinct configuration: the settings that differ among them."""
    distinct = sorted(set(settings), key=str)
    varying = [key for key in SETTINGS if len({dict(one)[key] for one in distinct}) > 1]
    names = {}
    for one in distinct:
        values = dict(one)
        parts = [_part(key, values[key]) for key in varying] or [_part("model", values["model"])]
        names[one] = " · ".join(parts)
    return names


def _part(key: str, value: object) -> str:
    if key in ("model", "backend"):
        return str(value)
    return f"{key.replace('_', ' ')} {'on' if value else 'off'}"


def described(settings: dict) -> str:
    """Every setting of a configuration, e.g. ``model m · backend openai · supervised off · …``."""
    return " · ".join(
        f"{key} {_part(key, settings[key])}" if key in ("model", "backend") else _part(key, settings[key])
        for key in SETTINGS
        if key in settings
    )


def pairs_of(played: list[Played], names: dict[tuple, str]) -> list[tuple[str, str, Played, Played]]:
    """(case, seat, first, second): for each case and seat, each two configurations once, their
    trajectories matched in id order (a configuration run twice on a case pairs both runs)."""
    groups: dict[tuple[str, str], dict[str, list[Played]]] = defaultdict(lambda: defaultdict(list))
    for one in sorted(played, key=lambda p: p.trajectory_id):
        groups[(one.case_id, one.seat)][names[one.settings]].append(one)
    pairs = []
    for (case_id, seat), by_name in sorted(groups.items()):
        for left, right in combinations(sorted(by_name), 2):
            for first, second in zip(by_name[left], by_name[right], strict=False):
                pairs.append((case_id, seat, first, second))
    return pairs


def masked(record: dict, models: list[str]) -> dict:
    """A trajectory's contract with every compared model's name replaced by ``MASK`` (and no meta)."""
    tokens = sorted({part for model in models for part in re.split(r"\s*,\s*", model) if len(part) > 2}, key=len)
    if not tokens:
        return record
    pattern = re.compile("|".join(re.escape(token) for token in reversed(tokens)), re.IGNORECASE)

    def clean(text: str) -> str:
        return pattern.sub(MASK, text)

    stages = [
        stage
        | {
            "turns": [turn | {"text": clean(turn["text"])} for turn in stage.get("turns", [])],
            "artifacts": [
                artifact | {"text": clean(artifact["text"]), "title": clean(artifact["title"])}
                for artifact in stage.get("artifacts", [])
            ],
        }
        for stage in record["stages"]
    ]
    return record | {"stages": stages, "meta": {}}
