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


def settings_under(env: dict[str, str]) -> dict:
    """Load the settings module in a fresh interpreter with ``env`` and report what it chose."""
    script = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps({'engine': settings.DATABASES['default']['ENGINE'],"
        "'layer': settings.CHANNEL_LAYERS['default']['BACKEND'], 'eager': settings.CELERY_TASK_ALWAYS_EAGER,"
        "'broker': settings.CELERY_BROKER_URL, 'backend': settings.LEGALSIM_AGENT_BACKEND,"
        "'pool': settings.DATABASES['default'].get('OPTIONS', {}).get('pool')}))"
    )
    clean = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    result = subprocess.run(
        [sys.executable, "-c", script],
        env={**clean, "DJANGO_SETTINGS_MODULE": "legalsim.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


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
    assert chosen["layer"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
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
