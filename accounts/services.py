"""Writes of a person's preferences."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from accounts.models import Profile


def language_set(*, user: AbstractBaseUser, language: str) -> Profile:
    """Remember ``language`` (one of ``LANGUAGES``) as the person's interface language."""
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"language": language})
    return profile


def language_of(user: AbstractBaseUser) -> str:
    """The language the person chose, or "" when they left it to their browser."""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""
