from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from legalsim.env import env_bool, env_choice, env_float
from tests.conftest import ROOT

REDIS_URL = os.environ.get("REDIS_URL")


def setting_values(env: dict[str, str], *names: str) -> list:
    """The named settings as a fresh interpreter with only ``env`` (of the DJANGO_ and service variables) sees them."""
    script = f"import json, django; from django.conf import settings as s; django.setup(); print(json.dumps([getattr(s, n) for n in {names!r}]))"
    ignored = ("DJANGO_", "DATABASE_URL", "REDIS_URL")
    clean = {key: value for key, value in os.environ.items() if not key.startswith(ignored)}
    result = subprocess.run(
        [sys.executable, "-c", script],
        env={**clean, "DJANGO_SETTINGS_MODULE": "legalsim.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def settings_under(env: dict[str, str]) -> dict:
    """What the settings chose for the database, channel layer, Celery and agents under ``env``."""
    databases, layers, eager, broker, backend = setting_values(
        env, "DATABASES", "CHANNEL_LAYERS", "CELERY_TASK_ALWAYS_EAGER", "CELERY_BROKER_URL", "LEGALSIM_AGENT_BACKEND"
    )
    return {
        "engine": databases["default"]["ENGINE"],
        "layer": layers["default"]["BACKEND"],
        "eager": eager,
        "broker": broker,
        "backend": backend,
        "pool": databases["default"].get("OPTIONS", {}).get("pool"),
    }


def test_embedded_defaults_need_no_service():
    chosen = settings_under({})
    assert chosen == {
        "engine": "django.db.backends.sqlite3",
        "layer": "legalsim.channel_layers.InMemoryChannelLayer",
        "eager": True,
        "broker": "memory://localhost/",
        "pool": None,
        "backend": "scripted",
    }


def test_production_urls_switch_to_postgres_redis_and_a_real_broker():
    chosen = settings_under(
        {"DATABASE_URL": "postgres://u@db.example:5432/legalsim", "REDIS_URL": "redis://cache:6379/1"}
    )
    assert chosen["engine"] == "django.db.backends.postgresql"
    assert chosen["layer"] == "legalsim.channel_layers.LocalFirstRedisLayer"
    assert chosen["eager"] is False and chosen["broker"] == "redis://cache:6379/1"
    assert chosen["pool"]["max_size"] == 20, "PostgreSQL connections come from psycopg's pool"


def test_a_bad_setting_fails_loudly(monkeypatch):
    monkeypatch.setenv("LEGALSIM_AGENT_BACKEND", "gpt")
    with pytest.raises(ImproperlyConfigured, match="LEGALSIM_AGENT_BACKEND must be one of scripted, openai"):
        env_choice("LEGALSIM_AGENT_BACKEND", "scripted", ("scripted", "openai"))
    monkeypatch.setenv("DJANGO_DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="DJANGO_DEBUG must be a boolean"):
        env_bool("DJANGO_DEBUG", False)
    monkeypatch.setenv("LEGALSIM_SCRIPTED_TOKENS_PER_S", "-3")
    with pytest.raises(ImproperlyConfigured, match=r">= 0\.0"):
        env_float("LEGALSIM_SCRIPTED_TOKENS_PER_S", 40.0, minimum=0.0)


@pytest.mark.django_db
def test_the_suite_runs_on_the_configured_database():
    from django.db import connection

    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    assert connection.vendor == expected


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (the production channel layer is tested in CI)")
async def test_redis_channel_layer_delivers_a_group_message():
    from channels.layers import get_channel_layer
    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubChannelLayer)
    channel = await layer.new_channel()
    await layer.group_add("trial-test", channel)
    await layer.group_send("trial-test", {"type": "turn.delta", "text": "法庭现在开庭"})
    assert await layer.receive(channel) == {"type": "turn.delta", "text": "法庭现在开庭"}
    await layer.group_discard("trial-test", channel)
    await layer.flush()


def run_manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args], env={**clean, **env}, cwd=ROOT, capture_output=True, text=True
    )


PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": "q7Vx-2mLpR9tZ4wK8nB1cD6fH3jS0aE5gY_uI9oP2lM7kN4xC1vB8",
}


def test_production_settings_pass_the_deployment_checklist():
    result = run_manage(PRODUCTION_ENV, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_with_the_development_secret_key():
    result = run_manage({"DJANGO_ENV": "production"}, "check")
    assert result.returncode != 0
    assert "DJANGO_ENV=production needs DJANGO_SECRET_KEY set" in result.stderr


def test_production_refuses_to_start_in_debug_mode():
    result = run_manage({**PRODUCTION_ENV, "DJANGO_DEBUG": "1"}, "check")
    assert result.returncode != 0 and "needs DJANGO_DEBUG off" in result.stderr


def test_production_cookies_are_https_only_and_hsts_is_on():
    env = {**PRODUCTION_ENV, "DJANGO_BEHIND_PROXY": "1", "DJANGO_CSRF_TRUSTED_ORIGINS": "https://legalsim.example.edu"}
    names = ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS")
    assert setting_values(env, *names) == [True, True, True, 31_536_000]
    assert setting_values(env, "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_PROXY_SSL_HEADER", "CSRF_TRUSTED_ORIGINS") == [
        True,
        ["HTTP_X_FORWARDED_PROTO", "https"],
        ["https://legalsim.example.edu"],
    ]


def test_development_runs_on_plain_http(settings):
    """Without DJANGO_ENV=production (tests, dev.py, a local daphne) cookies work over http."""
    assert not settings.SESSION_COOKIE_SECURE and not settings.SECURE_SSL_REDIRECT
    assert settings.X_FRAME_OPTIONS == "DENY" and settings.SECURE_CONTENT_TYPE_NOSNIFF


def test_a_redis_url_gives_the_shared_redis_cache():
    [caches] = setting_values({"REDIS_URL": "redis://cache:6379/1"}, "CACHES")
    assert caches["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"


def test_the_trusted_proxy_count_reaches_both_throttles_and_the_https_header():
    names = ("LEGALSIM_TRUSTED_PROXIES", "SECURE_PROXY_SSL_HEADER", "REST_FRAMEWORK")
    count, header, framework = setting_values({}, *names)
    assert (count, header, framework["NUM_PROXIES"]) == (0, None, 0)
    count, header, framework = setting_values({"LEGALSIM_TRUSTED_PROXIES": "1"}, *names)
    assert (count, header, framework["NUM_PROXIES"]) == (1, ["HTTP_X_FORWARDED_PROTO", "https"], 1)
    [header] = setting_values({"LEGALSIM_TRUSTED_PROXIES": "1", "DJANGO_BEHIND_PROXY": "0"}, "SECURE_PROXY_SSL_HEADER")
    assert header is None
