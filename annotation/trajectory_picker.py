"""What the instructor's study set-up picks from: the stored trajectories, filtered by case,
cause of action, procedure, target model, the stages they played and the day they were
stored; and the people who can rate, filtered by name. Reads only (selectors)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date, datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q
from django.http import QueryDict
from django.utils import timezone

from annotation.models import Assignment
from annotation.trajectory_access import trajectories_for_studies
from court.procedures.seats import target_seat
from legalsim.roles import MATRIX, Ability, User
from trials.models import Case

SHOWN = 200
"""Matching rows listed at most; "choose all matching" takes every one of them."""
AGENT = "agent:"


@dataclass(frozen=True)
class PickerRow:
    id: str
    title: str
    language: str
    case_id: str
    cause: str
    procedure: str
    model: str
    """The target seat's holder: an agent's model, or ``human:USERNAME``."""
    stages: tuple[str, ...]
    created_at: datetime

    @property
    def procedure_name(self) -> str:
        return procedure_name(self.procedure)


@dataclass(frozen=True)
class TrajectoryFilter:
    case: str = ""
    cause: str = ""
    procedure: str = ""
    model: str = ""
    stages: tuple[str, ...] = ()
    """Stage ids a trajectory must all have played."""
    since: date | None = None
    until: date | None = None

    @classmethod
    def from_query(cls, query: QueryDict) -> TrajectoryFilter:
        """The filter a form sent (``f_*`` fields); a date that does not parse filters nothing."""
        stages = query.getlist("f_stage")
        return cls(
            case=query.get("f_case", "").strip(),
            cause=query.get("f_cause", "").strip(),
            procedure=query.get("f_procedure", "").strip(),
            model=query.get("f_model", "").strip(),
            stages=tuple(dict.fromkeys(stage for stage in stages if stage)),
            since=_day(query.get("f_since", "")),
            until=_day(query.get("f_until", "")),
        )

    def admits(self, row: PickerRow) -> bool:
        day = timezone.localdate(row.created_at)
        return (
            (not self.case or row.case_id == self.case)
            and (not self.cause or row.cause == self.cause)
            and (not self.procedure or row.procedure == self.procedure)
            and (not self.model or row.model == self.model)
            and set(self.stages) <= set(row.stages)
            and (self.since is None or day >= self.since)
            and (self.until is None or day <= self.until)
        )


def procedure_name(procedure: str) -> str:
    """A procedure as the interface names it ("Civil life cycle")."""
    return str(dict(Case.Procedure.choices).get(procedure, procedure))


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        return None


def target_model(procedure: str, meta_seats: object, target_side: object) -> str:
    """Who held the seat under evaluation (``meta.seats``, trajectories of trials stored here);
    an agent by its model name. Blank when the trajectory does not say (imported ones)."""
    if not isinstance(meta_seats, dict) or not isinstance(target_side, str) or not target_side:
        return ""
    holder = str(meta_seats.get(target_seat(procedure, target_side), ""))
    return holder.removeprefix(AGENT)


def trajectory_rows(*, user: User) -> list[PickerRow]:
    """Every stored trajectory ``user`` may put in a study (``annotation.trajectory_access``),
    by case then id, without its stages' text."""
    stored = list(
        trajectories_for_studies(user=user)
        .order_by("case_id", "id")
        .values(
            "id",
            "title",
            "language",
            "case_id",
            "procedure",
            "stage_ids",
            "created_at",
            "meta__seats",
            "meta__target_side",
        )
    )
    causes = dict(Case.objects.filter(pk__in={row["case_id"] for row in stored}).values_list("pk", "cause_of_action"))
    return [
        PickerRow(
            id=row["id"],
            title=row["title"],
            language=row["language"],
            case_id=row["case_id"],
            cause=causes.get(row["case_id"], ""),
            procedure=row["procedure"],
            model=target_model(row["procedure"], row["meta__seats"], row["meta__target_side"]),
            stages=tuple(row["stage_ids"] or ()),
            created_at=row["created_at"],
        )
        for row in stored
    ]


@dataclass(frozen=True)
class FilterOptions:
    cases: list[tuple[str, str]] = field(default_factory=list)
    """(case id, title)"""
    causes: list[str] = field(default_factory=list)
    procedures: list[tuple[str, str]] = field(default_factory=list)
    """(procedure, its name)"""
    models: list[str] = field(default_factory=list)
    stages: list[str] = field(default_factory=list)


def filter_options(rows: list[PickerRow]) -> FilterOptions:
    """The values each filter offers: those the stored trajectories have."""
    return FilterOptions(
        cases=sorted({(row.case_id, row.title) for row in rows}),
        causes=sorted({row.cause for row in rows if row.cause}),
        procedures=[(procedure, procedure_name(procedure)) for procedure in sorted({row.procedure for row in rows})],
        models=sorted({row.model for row in rows if row.model}),
        stages=list(dict.fromkeys(stage for row in rows for stage in row.stages)),
    )


@dataclass(frozen=True)
class TrajectoryChoice:
    chosen: list[PickerRow]
    """The trajectories ticked, whatever the filter."""
    matching: list[PickerRow]
    """The first ``SHOWN`` of the others the filter admits."""
    n_matching: int
    """How many others the filter admits in all."""


def trajectory_choice(rows: list[PickerRow], chosen_ids: Collection[str], query: TrajectoryFilter) -> TrajectoryChoice:
    chosen = set(chosen_ids)
    others = [row for row in rows if row.id not in chosen and query.admits(row)]
    return TrajectoryChoice([row for row in rows if row.id in chosen], others[:SHOWN], len(others))


def all_matching(rows: list[PickerRow], query: TrajectoryFilter) -> list[str]:
    return [row.id for row in rows if query.admits(row)]


def people_who_rate() -> list[AbstractBaseUser]:
    """Active users whose roles let them rate (``legalsim.roles.MATRIX``; admins are superusers
    too), by username, each with ``open_assignments``: their questionnaires not submitted yet,
    in every study, to spread the load."""
    rating_roles = [str(role) for role, abilities in MATRIX.items() if Ability.RATE in abilities]
    holders = Q(groups__name__in=rating_roles) | Q(is_superuser=True)
    open_ones = Count("assignments", filter=~Q(assignments__status=Assignment.Status.SUBMITTED), distinct=True)
    users = get_user_model().objects.filter(holders, is_active=True).distinct()
    return list(users.annotate(open_assignments=open_ones).order_by("username"))


def rater_matches(user: AbstractBaseUser, text: str) -> bool:
    """Whether ``text`` is part of the user's username, full name or e-mail (any case)."""
    text = text.strip().casefold()
    name = f"{user.get_username()} {user.get_full_name()} {user.email}".casefold()
    return not text or text in name
