"""Trajectories of two or three configurations on the same cases, for the arena's tests."""

from __future__ import annotations

from annotation.models import Trajectory

MODELS = ("alpha-7b", "beta-13b", "gamma-70b")


def trajectories(models: tuple[str, ...] = MODELS[:2], cases: tuple[str, ...] = ("c1", "c2", "c3")) -> list[str]:
    """One stored trajectory per case and model; each one's counsel names its own model."""
    made = []
    for case in cases:
        for model in models:
            turn = {
                "seq": 1,
                "phase": "statement",
                "role": "attorney",
                "side": "defence",
                "speaker": "Counsel",
                "author": "agent",
                "text": f"As {model} I say the defendant is not guilty.",
            }
            made.append(
                Trajectory.objects.create(
                    id=f"{case}.{model}",
                    case_id=case,
                    procedure="criminal",
                    language="en",
                    title=f"Case {case}",
                    stages=[{"stage": "court_debate", "turns": [turn], "artifacts": []}],
                    meta={"target_side": "defence", "backend": "openai", "seat_models": {"attorney": {"model": model}}},
                ).pk
            )
    return made
