"""Writes of a person's preferences; whether a sign-in still holds."""

from __future__ import annotations

from importlib import import_module

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model, load_backend
from django.contrib.auth.models import AbstractBaseUser
from django.utils.crypto import constant_time_compare

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


def sign_in_holds(*, user_id: int, session_key: str | None) -> bool:
    """Whether someone signed in as ``user_id`` long ago (a socket) still is, as Django would
    judge their next request: the session ``session_key`` still exists and, when it is this
    person's, its backend still knows them as active and it was opened under the password
    they have now (the session auth hash, or one made with a ``SECRET_KEY_FALLBACKS`` key).
    Without a session of theirs (a token socket) the person must still be active."""
    if session_key is not None:
        store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
        if not store.exists(session_key):
            return False
        data = store.load()
        if str(data.get(SESSION_KEY)) == str(user_id):
            return _session_current(data, user_id)
    return get_user_model()._default_manager.filter(pk=user_id, is_active=True).exists()


def _session_current(data: dict, user_id: int) -> bool:
    backend_path = data.get(BACKEND_SESSION_KEY)
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return False
    user = load_backend(backend_path).get_user(user_id)
    if user is None or not hasattr(user, "get_session_auth_hash"):
        return False
    session_hash = data.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return bool(session_hash) and any(constant_time_compare(session_hash, known) for known in hashes)
