"""Which rubric items a trajectory can be rated on: N/A for the stages it lacks.

A row of a scale rubric whose id is a stage unit of a procedure (``court.procedures``:
legalworld16's ``LC``, ``CD_DD``, ``FIT``, ``AD_AR``, ``SIT``; a criminal trial's
``investigation``, ``debate``...) rates that stage, so its items apply only to a trajectory
that played a stage of that unit. A transition stage does not count: AD-Det only decides who
appeals; the AD/AR unit is the appeal or the response drafted after it (LegalWorld §2.2).
Every other item (a role, say) always applies, and so does every item of a pairwise rubric.
A trajectory known only by its id (an imported study) cannot be checked: ``None``.

Raters see those items as N/A and answer nothing; the LLM judge is not asked for them;
ratings files say ``NA`` for them; the agreement report counts them apart (``n_na``).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from annotation.models import Trajectory
from annotation.rubric import RubricDefinition
from court.procedures import procedure_for

NA = "NA"
"""A ratings file's score of an item whose stage the trajectory lacks."""
PROCEDURES = ("civil", "criminal")
TRANSITION = "transition"


@cache
def _stage_units() -> dict[str, dict[str, str | None]]:
    """Per procedure, the unit each of its stages is rated under (``None``: a transition)."""
    return {
        name: {stage.id: None if stage.kind == TRANSITION else stage.unit for stage in procedure_for(name).stages}
        for name in PROCEDURES
    }


@cache
def _units_of_any_procedure() -> frozenset[str]:
    return frozenset(unit for units in _stage_units().values() for unit in units.values() if unit)


def stage_units(procedure: str, stage_ids: Iterable[str]) -> frozenset[str]:
    """The units a trajectory's stages cover."""
    return frozenset(unit for stage_id in stage_ids if (unit := _unit_of(procedure, stage_id)))


def _unit_of(procedure: str, stage_id: str) -> str | None:
    """The unit a stage is rated under. A stage its procedure does not know (a file naming
    stages by unit, ``CD_DD``) stands for itself; a transition for nothing (``None``)."""
    return _stage_units().get(procedure, {}).get(stage_id, stage_id)


def item_stages(rubric: RubricDefinition) -> dict[str, str]:
    """Item id -> the stage unit it rates, for the items that rate a stage."""
    if not rubric.kind.scores_points:
        return {}
    units = _units_of_any_procedure()
    return {item: row.id for row in rubric.rows if row.id in units for item in row.items}


def items_not_applicable(rubric: RubricDefinition, procedure: str, stage_ids: Iterable[str]) -> dict[str, str]:
    """Item id -> the missing stage unit, for the items a trajectory with these stages lacks."""
    present = stage_units(procedure, stage_ids)
    return {item: unit for item, unit in item_stages(rubric).items() if unit not in present}


def stages_read_for(rubric: RubricDefinition, item: str, trajectory: Trajectory) -> tuple[list[dict], bool]:
    """The trajectory's stages a reader weighs ``item`` on, and whether the item rates a stage:
    the stages of its unit (both of CD_DD), or every stage for an item that rates none (a
    role's, read across the whole trial)."""
    unit = item_stages(rubric).get(item)
    if unit is None:
        return list(trajectory.stages), False
    return [stage for stage in trajectory.stages if _unit_of(trajectory.procedure, stage["stage"]) == unit], True


def trajectory_not_applicable(rubric: RubricDefinition, trajectory: Trajectory | None) -> dict[str, str]:
    """``items_not_applicable`` of a stored trajectory; nothing for one known only by its id."""
    if trajectory is None:
        return {}
    return items_not_applicable(rubric, trajectory.procedure, trajectory.stage_ids)


def stored_stage_units(trajectory_ids: Iterable[str]) -> dict[str, frozenset[str]]:
    """Trajectory id -> the stage units it covers, for the ids stored here."""
    wanted = list(dict.fromkeys(trajectory_ids))
    found: dict[str, frozenset[str]] = {}
    for start in range(0, len(wanted), 500):
        rows = Trajectory.objects.filter(pk__in=wanted[start : start + 500]).values_list("pk", "procedure", "stage_ids")
        found |= {pk: stage_units(procedure, stage_ids) for pk, procedure, stage_ids in rows}
    return found


def rubric_stage_units(rubric: RubricDefinition) -> tuple[str, ...]:
    """The stage units a rubric rates, in its order: its groups (simcourt30's
    ``investigation``) or rows (legalworld16's ``FIT``) named after one; empty for a rubric
    that rates no stage."""
    named = [group_id for group_id, _title in rubric.groups] + [row.id for row in rubric.rows]
    units = _units_of_any_procedure()
    return tuple(dict.fromkeys(name for name in named if name in units))


def trajectories_without_rubric_stages(rubric: RubricDefinition, trajectory_ids: Iterable[str]) -> list[str]:
    """The stored trajectories among ``trajectory_ids`` that played none of the stages the
    rubric rates (a criminal rubric for civil trajectories): nothing of them could be rated.
    A trajectory that lacks only some of them is rated on the others (N/A for the rest)."""
    rated = rubric_stage_units(rubric)
    if not rated:
        return []
    wanted = list(dict.fromkeys(trajectory_ids))
    covered = stored_stage_units(wanted)
    return [tid for tid in wanted if tid in covered and not covered[tid].intersection(rated)]
