"""What a person choosing a seat may read of a case before the trial starts: the visibility
rule applied to a trial positioned at its start. It sits above both the machine (which starts
the trial) and the visibility rule, so neither imports the other for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from court.engine.machine import trial_start
from court.engine.speakers import stage_participants
from court.engine.visibility import build_view
from court.procedures import procedure_for
from court.procedures.seats import CIVIL_SIDES, seat_info


def case_brief(case: Mapping[str, Any], seat: str, *, target_side: str | None = None) -> dict[str, Any]:
    """What a person choosing ``seat`` may read before the trial: the fields and persona that
    seat sees at the first stage it takes part in, by the same matrix every prompt goes through.

    ``target_side`` is the side under evaluation (which side's consultation is played), as a
    person typed it; anything but a civil side means the seat's own side, as a student
    choosing a side's seat usually plays it (the plaintiff for the judge)."""
    procedure = procedure_for(case["procedure"])
    own_side = seat_info(procedure.id, seat).side
    if target_side not in CIVIL_SIDES:
        target_side = own_side if own_side in CIVIL_SIDES else "plaintiff"
    if procedure.id == "criminal":
        target_side = "defendant"
    state = trial_start(case=dict(case), target_side=target_side)
    first = next(stage for stage in procedure.stages if seat in stage_participants(state, stage))
    view = build_view(state, seat, stage=first.id)
    return {"seat": seat, "stage": first.id, "fields": view.fields, "persona": view.persona}
