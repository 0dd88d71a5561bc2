"""Setting up a study without the admin site (``manage.py study_create``, and the
instructor's form, ``annotation.study_form``): its trajectories, its raters, k. Every problem
is found before anything is stored, and a study is created with its assignments planned
(``studies.study_plan``, as the admin's "Plan assignments" does) or not at all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.models import Rubric, Study, Trajectory
from annotation.rubric import RubricDefinition
from annotation.rubric_kind import SCALE
from annotation.stages import rubric_stage_units, trajectories_without_rubric_stages
from annotation.studies import study_plan
from annotation.trajectory_access import trajectories_refused
from legalsim.json_input import Problem, UnreadableFile, file_text, shown
from legalsim.roles import Ability, can

COMMENT = "#"
MAX_ID = 200  # as Assignment.trajectory_id stores it


class StudySetupError(ValueError):
    """The study cannot be created as asked; ``problems`` lists every reason, one a line."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class StudyCreated:
    study: Study
    planned: int
    """Assignments created by planning."""


def listed_units(text: str) -> list[tuple[int, str]]:
    """(line, id) for each id of a list of trajectories: one a line, blank lines and ``#``
    comments (whole lines, or the end of one) ignored."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        unit = line.split(COMMENT, 1)[0].strip()
        if unit:
            found.append((number, unit))
    return found


def trajectory_lines(path: Path) -> tuple[list[tuple[int, str]], list[Problem]]:
    """(line, id) for each id of a trajectories file (``listed_units``)."""
    try:
        text = file_text(path)
    except UnreadableFile as error:
        return [], [error.problem]
    found = listed_units(text)
    if not found:
        return [], [Problem(str(path), 1, "file", "lists no trajectory (one id a line)")]
    return found, []


def _unit_problems(path: Path, lines: list[tuple[int, str]], rubric: RubricDefinition | None) -> list[Problem]:
    """Every id that is not a stored trajectory, too long or listed twice; for a pairwise
    rubric, every line that is not two stored trajectories of one case as FIRST|SECOND."""
    kind = rubric.kind if rubric is not None else SCALE
    wanted = {tid for _line, unit in lines for tid in kind.trajectory_ids(unit)}
    case_of = dict(Trajectory.objects.filter(pk__in=wanted).values_list("pk", "case_id"))
    private = trajectories_refused(case_of)
    problems, first_on = [], {}
    for line, unit in lines:

        def problem(message: str, line: int = line) -> None:
            problems.append(Problem(str(path), line, "id", message))

        if len(unit) > MAX_ID:
            problem(f"must be at most {MAX_ID} characters, got {len(unit)}")
        elif unit in first_on:
            problem(f"{shown(unit)} is listed twice (first on line {first_on[unit]})")
        elif not (tids := kind.trajectory_ids(unit)):
            problem(f"the rubric {rubric.id!r} rates pairs: give two trajectories of one case as FIRST|SECOND")
        else:
            unknown = [tid for tid in tids if tid not in case_of]
            refused = [tid for tid in tids if tid in private]
            if unknown:
                problem(f"no trajectory {shown(unknown[0])}; import it with import_trajectories")
            elif refused:
                problem(
                    f"{shown(refused[0])} is the trajectory of a trial students played in; only its course's "
                    "instructors may rate it, once the course allows practice trials in rating studies"
                )
            elif len({case_of[tid] for tid in tids}) > 1:
                problem(
                    f"both trajectories of a pair must be of one case, got {case_of[tids[0]]} and {case_of[tids[1]]}"
                )
        first_on.setdefault(unit, line)
    return problems


# The checks of one field each, shared by the command and the instructor's form
# (``annotation.study_form``): messages in the active language, without the field's name.


def name_problems(name: str) -> list[str]:
    """What is wrong with ``name`` (already stripped) as the name of a new study."""
    limit = Study._meta.get_field("name").max_length
    if not name:
        return [_("is required")]
    if len(name) > limit:
        return [_("must be at most %(limit)d characters") % {"limit": limit}]
    if Study.objects.filter(name=name).exists():
        return [_("a study named %(name)s exists already") % {"name": shown(name)}]
    return []


def rubric_found(rubric_id: str) -> tuple[Rubric | None, list[str]]:
    rubric = Rubric.objects.filter(pk=rubric_id).first()
    if rubric is None:
        return None, [_("no rubric %(rubric)s; import it with import_rubric") % {"rubric": shown(rubric_id)}]
    return rubric, []


def raters_found(names: Sequence[str]) -> tuple[list[AbstractBaseUser], list[str]]:
    """The users named who can rate, and a problem for each name that is no user or cannot rate."""
    wanted = list(dict.fromkeys(name.strip() for name in names if name.strip()))
    if not wanted:
        return [], [_("name at least one rater")]
    users = {user.get_username(): user for user in get_user_model().objects.filter(username__in=wanted)}
    problems = []
    for name in wanted:
        if name not in users:
            problems.append(_("no user %(name)s") % {"name": shown(name)})
        elif not can(users[name], Ability.RATE):
            problems.append(
                _("%(name)s does not hold the rater role; grant it with grant_role") % {"name": shown(name)}
            )
    return [users[name] for name in wanted if name in users and can(users[name], Ability.RATE)], problems


def rubric_stage_problems(rubric: Rubric, units: Sequence[str]) -> list[str]:
    """What is wrong with ``rubric`` for the study's units: a rubric whose stages some
    trajectories never played (simcourt30, for criminal trials, given civil trajectories)."""
    trajectory_ids = [tid for unit in units for tid in rubric.definition.kind.trajectory_ids(unit)]
    lacking = trajectories_without_rubric_stages(rubric.definition, trajectory_ids)
    if not lacking:
        return []
    shown_ids = ", ".join(shown(tid) for tid in lacking[:3]) + (" …" if len(lacking) > 3 else "")
    return [
        ngettext(
            "the rubric %(rubric)s rates the stages %(stages)s, and %(count)d trajectory chosen played none of "
            "them (%(ids)s); choose a rubric for its procedure, or other trajectories",
            "the rubric %(rubric)s rates the stages %(stages)s, and %(count)d trajectories chosen played none of "
            "them (%(ids)s); choose a rubric for their procedure, or other trajectories",
            len(lacking),
        )
        % {
            "rubric": rubric.pk,
            "stages": ", ".join(rubric_stage_units(rubric.definition)),
            "count": len(lacking),
            "ids": shown_ids,
        }
    ]


def k_problems(k: int, raters: int) -> list[str]:
    """What is wrong with k raters per trajectory when ``raters`` people can rate the study."""
    if k < 1:
        return [_("must be at least 1, got %(k)d") % {"k": k}]
    if k > raters:
        return [
            ngettext(
                "%(k)d rater per trajectory needs at least %(k)d rater who can rate; %(raters)d given",
                "%(k)d raters per trajectory need at least %(k)d raters who can rate; %(raters)d given",
                k,
            )
            % {"k": k, "raters": raters}
        ]
    return []


def study_store(
    *,
    name: str,
    rubric: Rubric,
    units: list[str],
    raters: Sequence[AbstractBaseUser],
    k: int,
    instructions: str = "",
    deadline: datetime | None = None,
    owner: AbstractBaseUser | None = None,
) -> StudyCreated:
    """Create a study whose every field has been checked, and plan its assignments, in one
    transaction: the study exists with its assignments or not at all. ``owner`` (who set it up
    on the page; None from a command) reads and runs it with those they share it with."""
    with transaction.atomic():
        study = Study.objects.create(
            owner=owner,
            name=name,
            rubric=rubric,
            raters_per_trajectory=k,
            trajectory_ids=units,
            instructions=instructions,
            deadline=deadline,
        )
        study.raters.set(raters)
        planned = study_plan(study=study)
    return StudyCreated(study, planned)


def study_create(
    *, name: str, rubric_id: str, trajectories_file: Path, rater_names: Sequence[str], k: int
) -> StudyCreated:
    """Create the study and plan its assignments, k raters per trajectory; raises
    ``StudySetupError`` with every problem, having stored nothing."""
    name = name.strip()
    problems = [f"name: {problem}" for problem in name_problems(name)]
    rubric, rubric_problems = rubric_found(rubric_id)
    problems += [f"rubric: {problem}" for problem in rubric_problems]
    lines, file_problems = trajectory_lines(trajectories_file)
    if rubric is not None:
        units = [unit for _line, unit in lines]
        problems += [f"rubric: {problem}" for problem in rubric_stage_problems(rubric, units)]
    file_problems += _unit_problems(trajectories_file, lines, rubric.definition if rubric else None)
    problems += [str(problem) for problem in file_problems]
    raters, rater_problems = raters_found(rater_names)
    problems += [f"raters: {problem}" for problem in rater_problems]
    problems += [f"k: {problem}" for problem in k_problems(k, len(raters))]
    if problems:
        raise StudySetupError(problems)
    return study_store(name=name, rubric=rubric, units=[unit for _line, unit in lines], raters=raters, k=k)
