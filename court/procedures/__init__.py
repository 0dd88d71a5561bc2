"""Procedures as data: stages, phases and speaking order for every kind of trial.

The engine walks these structures; it has no code path of its own for a stage. A slot names
a *symbolic* seat (``target_lawyer``, ``appellant_client``...) that the engine resolves
against the trial state, so the same phase list serves the first- and second-instance trial.
"""

from __future__ import annotations

from court.procedures.civil import CIVIL_LIFE_CYCLE
from court.procedures.criminal import CRIMINAL_TRIAL
from court.procedures.structure import Procedure

PROCEDURES = {procedure.id: procedure for procedure in (CIVIL_LIFE_CYCLE, CRIMINAL_TRIAL)}


def procedure_for(name: str) -> Procedure:
    try:
        return PROCEDURES[name]
    except KeyError:
        raise KeyError(f"unknown procedure {name!r}; known: {', '.join(PROCEDURES)}") from None
