"""The count of unread comments on one's trials, for the "Feedback" badge in the nav."""

from __future__ import annotations

from django.http import HttpRequest

from classroom.selectors import feedback_unread_count
from legalsim.roles import Ability, can


def feedback_unread(request: HttpRequest) -> dict[str, int]:
    user = getattr(request, "user", None)
    if user is None or not can(user, Ability.PLAY):
        return {}
    return {"feedback_unread": feedback_unread_count(user=user)}
