"""Typed readers for settings that come from the environment.

Each helper fails loudly with ``ImproperlyConfigured`` when a value is present but
unusable, so a typo in a deployment never silently falls back to a default.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

N = TypeVar("N", int, float)
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    return _env_number(name, default, float, "a number", minimum)


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    return _env_number(name, default, int, "a whole number", minimum)


def _env_number(name: str, default: N, parse: Callable[[str], N], kind: str, minimum: N | None) -> N:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = parse(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be {kind}, got {raw!r}") from exc
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name} must be >= {minimum}, got {value}")
    return value


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default).strip() or default
    if value not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def production_check(*, debug: bool, secret_key: str, development_key: str) -> None:
    """Refuse to start a production deployment that debug pages or a public key would expose."""
    if debug:
        raise ImproperlyConfigured("DJANGO_ENV=production needs DJANGO_DEBUG off")
    if not secret_key or secret_key == development_key or secret_key.startswith("django-insecure"):
        raise ImproperlyConfigured(
            "DJANGO_ENV=production needs DJANGO_SECRET_KEY set to a long random value (not the built-in "
            "development key); e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
