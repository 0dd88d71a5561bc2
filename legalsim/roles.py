"""Roles and what each may do: the permission matrix, written once and enforced from here.

A role is a Django group of the same name; a user holds any number of them and may do what
any of their roles allows. Superusers are admins. Views use ``ability_required``, the API
its permission class, the websocket consumer ``can``: none of them names a role.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import wraps

from django.contrib.auth.backends import BaseBackend
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse


class Role(StrEnum):
    STUDENT = "student"
    RATER = "rater"
    INSTRUCTOR = "instructor"
    ADMIN = "admin"


class Ability(StrEnum):
    PLAY = "play"
    """Browse the case library (without evaluation-only fields), start trials, take free
    seats, read one's own transcripts and scorecards."""
    RATE = "rate"
    """Rate the trajectories assigned to oneself."""
    TEACH = "teach"
    """Everything about cases and trials: full case files, any trial, any seat, room controls,
    case import, batch runs, studies, LLM-judge runs, exports, reports, model profiles."""
    ADMINISTER = "administer"
    """The Django admin: users, roles and raw records."""


MATRIX: dict[Role, frozenset[Ability]] = {
    Role.STUDENT: frozenset({Ability.PLAY}),
    Role.RATER: frozenset({Ability.RATE}),
    Role.INSTRUCTOR: frozenset({Ability.PLAY, Ability.RATE, Ability.TEACH}),
    Role.ADMIN: frozenset(Ability),
}

User = AbstractBaseUser | AnonymousUser


def roles_of(user: User) -> frozenset[Role]:
    """The roles ``user`` holds (none for anonymous or inactive users); cached on the user."""
    if not user.is_authenticated or not user.is_active:
        return frozenset()
    cached = getattr(user, "_legalsim_roles", None)
    if cached is None:
        names = set(user.groups.filter(name__in=list(Role)).values_list("name", flat=True))
        if user.is_superuser:
            names.add(Role.ADMIN)
        cached = frozenset(Role(name) for name in names)
        user._legalsim_roles = cached
    return cached


def abilities_of(user: User) -> frozenset[Ability]:
    return frozenset().union(*(MATRIX[role] for role in roles_of(user)))


def can(user: User, ability: Ability) -> bool:
    return ability in abilities_of(user)


def role_grant(user: AbstractBaseUser, role: Role) -> None:
    """Give ``user`` a role; admins also get Django's staff flag, which its admin site checks."""
    group, _ = Group.objects.get_or_create(name=role)
    user.groups.add(group)
    if role == Role.ADMIN and not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    user.__dict__.pop("_legalsim_roles", None)


def role_revoke(user: AbstractBaseUser, role: Role) -> None:
    user.groups.remove(*Group.objects.filter(name=role))
    if role == Role.ADMIN and user.is_staff and not user.is_superuser:
        user.is_staff = False
        user.save(update_fields=["is_staff"])
    user.__dict__.pop("_legalsim_roles", None)


def ability_required(ability: Ability) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Anonymous users go to the login page; a signed-in user without ``ability`` gets 403."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        @login_required
        def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if not can(request.user, ability):
                raise PermissionDenied(f"your role does not allow this ({ability})")
            return view(request, *args, **kwargs)

        return guarded

    return decorate


class AbilityBackend(BaseBackend):
    """Gives holders of ``administer`` every model permission, so the admin site lets an admin
    (not only a superuser) manage users, roles and records. It authenticates no one."""

    def has_perm(self, user_obj: User, perm: str, obj: object = None) -> bool:
        return can(user_obj, Ability.ADMINISTER)

    def has_module_perms(self, user_obj: User, app_label: str) -> bool:
        return can(user_obj, Ability.ADMINISTER)


def abilities_context(request: HttpRequest) -> dict[str, frozenset[str]]:
    """Templates show links by ability: ``{% if "teach" in abilities %}``."""
    user = getattr(request, "user", None) or AnonymousUser()  # none when a 400 comes before AuthenticationMiddleware
    return {"abilities": frozenset(str(ability) for ability in abilities_of(user))}
