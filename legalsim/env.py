"""Typed readers for settings that come from the environment.

Each helper fails loudly with ``ImproperlyConfigured`` when a value is present but
unusable, so a typo in a deployment never silently falls back to a default.
"""

from __future__ import annotations

import json
import os
import re
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


SEAT_MODEL_FIELDS = ("model", "base_url", "api_key_env")
ROUTE_KEY = re.compile(r"^[a-z][a-z_]{0,39}$")


def env_seat_models(name: str) -> dict[str, dict[str, str]]:
    """A JSON object from a seat id or role to a model name or ``{"model", "base_url",
    "api_key_env"}`` (docs/llm-servers.md, "Per-seat models"), as ``{key: {"model", "base_url",
    "api_key"}}`` with the key read from the variable ``api_key_env`` names (blank: the
    defaults). Which keys exist is the trials app's to say (``agents.routing``)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be a JSON object: {exc}") from exc
    if not isinstance(data, dict):
        raise ImproperlyConfigured(f"{name} must be a JSON object from seat ids or roles to models")
    return {key: _seat_model(name, key, value) for key, value in data.items()}


def _seat_model(name: str, key: str, value: object) -> dict[str, str]:
    where = f"{name}: {key}"
    if not ROUTE_KEY.match(key):
        raise ImproperlyConfigured(f"{where}: is not a seat id or role (lower-case letters and _)")
    if isinstance(value, str):
        value = {"model": value}
    if not isinstance(value, dict):
        raise ImproperlyConfigured(f"{where}: must be a model name or an object with {', '.join(SEAT_MODEL_FIELDS)}")
    unknown = sorted(set(value) - set(SEAT_MODEL_FIELDS))
    if unknown:
        raise ImproperlyConfigured(f"{where}: unknown field {unknown[0]!r} (fields: {', '.join(SEAT_MODEL_FIELDS)})")
    for field in SEAT_MODEL_FIELDS:
        if field in value and (not isinstance(value[field], str) or not value[field].strip()):
            raise ImproperlyConfigured(f"{where}: {field} must be a non-empty string")
    if "model" not in value:
        raise ImproperlyConfigured(f"{where}: model is required")
    base_url = value.get("base_url", "")
    if base_url and not base_url.startswith(("http://", "https://")):
        raise ImproperlyConfigured(f"{where}: base_url must be an http(s) URL, got {base_url!r}")
    key_variable = value.get("api_key_env", "")
    if key_variable and key_variable not in os.environ:
        raise ImproperlyConfigured(f"{where}: api_key_env names {key_variable}, which is not set")
    return {
        "model": value["model"],
        "base_url": base_url,
        "api_key": os.environ.get(key_variable, "") if key_variable else "",
    }


EVERY_MODEL = "*"
PRICE_FIELDS = ("input", "cached_input", "output")


def env_model_context(name: str) -> dict[str, int]:
    """Context windows in tokens: a whole number for every model (``{"*": n}``), or a JSON
    object from model names (as ``LEGALSIM_MODEL``, ``LEGALSIM_SEAT_MODELS`` name them, ``*``
    for the rest) to whole numbers (docs/llm-servers.md, "Context windows")."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return {}
    if raw.isdigit():
        return {EVERY_MODEL: _window(name, EVERY_MODEL, int(raw))}
    data = _json_object(name, raw, "a whole number or a JSON object from model names to whole numbers")
    return {model: _window(name, model, value) for model, value in data.items()}


def _window(name: str, model: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 256:
        raise ImproperlyConfigured(f"{name}: {model}: must be a whole number of tokens, at least 256, got {value!r}")
    return value


def env_prices(name: str) -> dict[str, dict[str, float]]:
    """Prices per million tokens: a JSON object from model names to ``{"input", "cached_input",
    "output"}`` (``cached_input`` defaults to ``input``), or to ``[input, cached_input, output]``
    (docs/llm-servers.md, "Prices")."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return {}
    data = _json_object(name, raw, "a JSON object from model names to prices")
    return {model: _prices(f"{name}: {model}", value) for model, value in data.items()}


def _prices(where: str, value: object) -> dict[str, float]:
    if isinstance(value, list) and len(value) == len(PRICE_FIELDS):
        value = dict(zip(PRICE_FIELDS, value, strict=True))
    if not isinstance(value, dict) or not {"input", "output"} <= set(value) or set(value) - set(PRICE_FIELDS):
        raise ImproperlyConfigured(
            f'{where}: must be {{"input", "cached_input", "output"}} or [input, cached_input, output] '
            "per million tokens"
        )
    prices = {"cached_input": value["input"], **value}
    for field, price in prices.items():
        if isinstance(price, bool) or not isinstance(price, int | float) or price < 0:
            raise ImproperlyConfigured(f"{where}: {field} must be a price of zero or more, got {price!r}")
    return {field: float(prices[field]) for field in PRICE_FIELDS}


def _json_object(name: str, raw: str, what: str) -> dict:
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name} must be {what}: {exc}") from exc
    if not isinstance(data, dict):
        raise ImproperlyConfigured(f"{name} must be {what}")
    return data


SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE = 5
"""Django's own bar for a secret key (``check --deploy``, security.W009)."""
_PLACEHOLDER = re.compile(r"change[-_ ]?me", re.IGNORECASE)
_NEW_KEY = "python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def production_check(*, debug: bool, secret_key: str, development_key: str) -> None:
    """Refuse to start a production deployment that debug pages or a public key would expose:
    the development key, a placeholder copied from an example (``CHANGE-ME...``, as in
    deploy/legalsim.env.example), or a key below Django's bar (W009)."""
    if debug:
        raise ImproperlyConfigured("DJANGO_ENV=production needs DJANGO_DEBUG off")
    if not secret_key or secret_key == development_key or secret_key.startswith("django-insecure"):
        raise ImproperlyConfigured(
            "DJANGO_ENV=production needs DJANGO_SECRET_KEY set to a long random value (not the built-in "
            f"development key); e.g. {_NEW_KEY}"
        )
    if _PLACEHOLDER.search(secret_key):
        raise ImproperlyConfigured(
            "DJANGO_ENV=production needs DJANGO_SECRET_KEY set to a long random value, not the placeholder of "
            f"an example file (it says CHANGE-ME); e.g. {_NEW_KEY}"
        )
    if len(secret_key) < SECRET_KEY_MIN_LENGTH or len(set(secret_key)) < SECRET_KEY_MIN_UNIQUE:
        raise ImproperlyConfigured(
            f"DJANGO_ENV=production needs DJANGO_SECRET_KEY of at least {SECRET_KEY_MIN_LENGTH} characters, "
            f"{SECRET_KEY_MIN_UNIQUE} of them different (it has {len(secret_key)}); e.g. {_NEW_KEY}"
        )
