"""What a procedure is made of: stages, phases and slots, and the turn budgets of a stage.

``court.procedures`` holds the procedures themselves (civil and criminal) by id."""

from __future__ import annotations

from dataclasses import dataclass, field
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
