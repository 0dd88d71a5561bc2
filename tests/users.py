"""People with roles, as the tests need them."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from legalsim.roles import Role, role_grant


def person(username: str, *roles: Role, password: str | None = None) -> AbstractBaseUser:
    """The user ``username`` (created when missing) holding ``roles``."""
    user, created = get_user_model().objects.get_or_create(username=username)
    if created and password:
        user.set_password(password)
        user.save(update_fields=["password"])
    for role in roles:
        role_grant(user, role)
    return user
