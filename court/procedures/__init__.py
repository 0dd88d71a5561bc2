"""Procedures as data: stages, phases and speaking order for every kind of trial.

The engine walks these structures; it has no code path of its own for a stage. A slot names
a *symbolic* seat (``target_lawyer``, ``appellant_client``...) that the engine resolves
against the trial state, so the same phase list serves the first- and second-instance trial.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Literal

StageKind = Literal["dialogue", "drafting", "trial", "transition"]

DIALOGUE_TURN_BUDGET = 30
TRIAL_TURN_BUDGET = 60


@dataclass(frozen=True)
class Slot:
    """One utterance in a phase round: who speaks and what procedural act they perform."""

    seat: str
    act: str
    artifact: str | None = None
    """An artifact this utterance produces besides the stage's own (the criminal judgment)."""


@dataclass(frozen=True)
class Phase:
    id: str
    slots: tuple[Slot, ...]
    rounds: int = 1
    repeat_per: str | None = None
    """Repeat the round once per item of a list: the case's consultation questions, or the
    seats asked whether they appeal (``appeal_deciders``)."""
    decision: str | None = None
    """A phase whose replies carry a decision the engine acts on (``mediation``, ``appeal``)."""


@dataclass(frozen=True)
class Stage:
    id: str
    unit: str
    """The rubric stage unit this stage is rated under (``LC``, ``CD_DD``, ``FIT``...)."""
    kind: StageKind
    phases: tuple[Phase, ...]
    closing: Slot | None = None
    """The slot that produces the stage artifact; forced when the turn budget runs out."""
    artifact: str | None = None
    """What the stage yields: written by the closing slot, or by the environment for a
    transition stage."""
    when: tuple[str, ...] = ()
    """Conditions (all must hold) for the stage to run: the target's side, an appeal..."""

    @property
    def turn_budget(self) -> int:
        if self.kind == "trial":
            return TRIAL_TURN_BUDGET
        return DIALOGUE_TURN_BUDGET


@dataclass(frozen=True)
class Procedure:
    id: str
    seats: tuple[str, ...]
    stages: tuple[Stage, ...] = field(default_factory=tuple)

    def stage(self, stage_id: str) -> Stage:
        for stage in self.stages:
            if stage.id == stage_id:
                return stage
        raise KeyError(f"procedure {self.id!r} has no stage {stage_id!r}")

    @property
    def stage_ids(self) -> tuple[str, ...]:
        return tuple(stage.id for stage in self.stages)


@cache
def _procedures() -> dict[str, Procedure]:
    """The procedures by id, built once (every view asks for its procedure, a thousand times a
    life cycle); imported here because the procedures' modules import this one."""
    from court.procedures.civil import CIVIL_LIFE_CYCLE
    from court.procedures.criminal import CRIMINAL_TRIAL

    return {CIVIL_LIFE_CYCLE.id: CIVIL_LIFE_CYCLE, CRIMINAL_TRIAL.id: CRIMINAL_TRIAL}


def procedure_for(name: str) -> Procedure:
    procedures = _procedures()
    try:
        return procedures[name]
    except KeyError:
        raise KeyError(f"unknown procedure {name!r}; known: {', '.join(procedures)}") from None
