"""One permission class for the whole API, built on ``legalsim.roles.can``.

Every API view declares the one ability all its methods need as ``ability`` (``PUBLIC`` for
obtaining a token). Object rules (a student's own trials, a rater's own assignments) live
in the views' querysets, as on the web, so someone else's object is a 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.permissions import BasePermission

from legalsim.roles import Ability, can

if TYPE_CHECKING:  # DRF's views import the default permission classes: no cycle at run time
    from rest_framework.request import Request
    from rest_framework.views import APIView

PUBLIC = None


def ability_of(view: APIView) -> Ability | None:
    """The ability ``view`` declares; a view that declares none is a programming error,
    refused rather than left open."""
    if not hasattr(view, "ability"):
        raise LookupError(f"{type(view).__name__} declares no ability")
    return view.ability


class HasAbility(BasePermission):
    message = "your role does not allow this"

    def has_permission(self, request: Request, view: APIView) -> bool:
        ability = ability_of(view)
        if ability is PUBLIC:
            return True
        self.message = f"your role does not allow this ({ability})"
        return bool(request.user and request.user.is_authenticated and can(request.user, ability))
