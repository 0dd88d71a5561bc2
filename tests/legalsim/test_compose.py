"""The class server's compose file (issue #35 item 6), read as docker compose reads it: no
container runtime needed. Web, worker, a one-shot migration, PostgreSQL and Redis; every
variable the settings read is provided or listed in ``.env.example``; the healthchecks call the
app's own health check; worker hosts elsewhere reach the class server's services by name."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import dj_database_url
import yaml
from django.core.management import load_command_class

from legalsim.health import HEALTH_PATH
from tests.conftest import ROOT

SERVICES = {"web", "worker", "migrate", "postgres", "redis"}
APP_SERVICES = ("web", "worker", "migrate")
REAL_KEY = "q7Vx-2mLpR9tZ4wK8nB1cD6fH3jS0aE5gY_uI9oP2lM7kN4xC1vB8"
PRODUCTION_NEEDS = (
    "DJANGO_ENV",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    "LEGALSIM_TRUSTED_PROXIES",
    "DATABASE_URL",
    "REDIS_URL",
    "LEGALSIM_MEDIA_ROOT",
    "LEGALSIM_AGENT_BACKEND",
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
    "LEGALSIM_MODEL",
)
"""What a class server cannot leave to the embedded defaults."""
INTERPOLATION = re.compile(r"\$\{(\w+)(?::([-?])([^}]*))?\}")


@cache
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def service(name: str) -> dict:
    return compose()["services"][name]


def env_example() -> tuple[dict[str, str], set[str]]:
    """``.env.example``'s variables that are set, and those only listed (``# NAME=default``)."""
    assigned, listed = {}, set()
    for line in (ROOT / ".env.example").read_text().splitlines():
        if match := re.fullmatch(r"([A-Z][A-Z0-9_]*)=(.*)", line.strip()):
            assigned[match[1]] = match[2]
        elif match := re.fullmatch(r"#\s*([A-Z][A-Z0-9_]*)=.*", line.strip()):
            listed.add(match[1])
    return assigned, listed


def interpolate(text: str, env: dict[str, str]) -> str:
    """docker compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}``."""

    def value(match: re.Match) -> str:
        name, kind, rest = match.groups()
        if env.get(name):
            return env[name]
        assert kind != "?", f"docker compose stops: {rest}"
        return rest if kind == "-" else ""

    return INTERPOLATION.sub(value, text)


def container_env(name: str, dotenv: dict[str, str]) -> dict[str, str]:
    """The environment of service ``name``'s containers: the .env file, then its ``environment``."""
    own = {key: interpolate(str(value), dotenv) for key, value in service(name).get("environment", {}).items()}
    return {**dotenv, **own} if service(name).get("env_file") == ".env" else own


def settings_variables() -> set[str]:
    """Every variable ``legalsim/settings.py`` reads through the ``env_*`` helpers."""
    tree = ast.parse((ROOT / "legalsim" / "settings.py").read_text())
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id.startswith("env_")
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def test_the_class_server_runs_web_worker_a_migration_postgres_and_redis():
    assert set(compose()["services"]) == SERVICES
    assert service("postgres")["image"] == "postgres:16"
    assert service("redis")["image"] == "redis:7"
    assert service("migrate")["command"] == ["python", "manage.py", "migrate", "--noinput"]
    assert service("migrate")["restart"] == "no", "a one-shot step"
    assert service("worker")["command"][:4] == ["celery", "-A", "legalsim", "worker"]
    assert "command" not in service("web"), "web runs the image's command (daphne)"
    assert all(service(name)["build"] == "." for name in APP_SERVICES)


def test_web_and_worker_start_on_healthy_services_after_the_migration():
    expected = {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
        "migrate": {"condition": "service_completed_successfully"},
    }
    assert service("web")["depends_on"] == expected
    assert service("worker")["depends_on"] == expected
    assert service("migrate")["depends_on"] == {"postgres": {"condition": "service_healthy"}}


def test_workers_scale_each_answering_as_its_own_host():
    """``--scale worker=3``: no fixed name, host port or host name (the health check pings the
    worker named after its container's host name)."""
    worker = service("worker")
    assert not {"container_name", "hostname", "ports"} & set(worker)
    assert "-n" not in worker["command"] and "--hostname" not in worker["command"]


def test_every_variable_the_settings_read_is_provided_or_listed():
    assigned, listed = env_example()
    provided = set(assigned) | set(service("web")["environment"])
    missing = sorted(settings_variables() - provided - listed)
    assert not missing, f"neither set nor listed in .env.example: {missing}"
    for name in APP_SERVICES:
        environment = container_env(name, assigned)
        assert not [need for need in PRODUCTION_NEEDS if not environment.get(need)], name
        assert environment["DJANGO_ENV"] == "production"
        assert "CHANGE-ME" in environment["DJANGO_SECRET_KEY"], "a placeholder the app refuses, never a usable key"


def test_every_variable_the_compose_file_needs_is_set_or_has_a_default():
    assigned, _ = env_example()
    text = (ROOT / "docker-compose.yml").read_text()
    for name, kind, _rest in INTERPOLATION.findall(text):
        assert kind == "-" or name in assigned, f"${{{name}}} has no default and .env.example does not set it"
    assert "${" not in interpolate(text, assigned)


def test_the_example_environment_passes_the_deployment_checklist():
    """The web container's environment as the compose file builds it, its key replaced."""
    assigned, _ = env_example()
    environment = {**container_env("web", assigned), "DJANGO_SECRET_KEY": REAL_KEY}
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "LEGALSIM_"))}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**clean, **environment},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_worker_hosts_elsewhere_reach_the_class_servers_postgres_and_redis():
    assigned, listed = env_example()
    assert {"POSTGRES_HOST", "REDIS_HOST"} <= listed
    here = container_env("worker", assigned)
    elsewhere = container_env("worker", {**assigned, "POSTGRES_HOST": "10.0.0.5", "REDIS_HOST": "10.0.0.5"})
    assert dj_database_url.parse(here["DATABASE_URL"])["HOST"] == "postgres"
    assert dj_database_url.parse(elsewhere["DATABASE_URL"])["HOST"] == "10.0.0.5"
    assert here["REDIS_URL"].startswith(f"redis://:{assigned['REDIS_PASSWORD']}@redis:6379/")
    assert elsewhere["REDIS_URL"].startswith(f"redis://:{assigned['REDIS_PASSWORD']}@10.0.0.5:6379/")
    assert service("redis")["command"][1:3] == ["--requirepass", "${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}"]
    published = {name: service(name)["ports"] for name in ("postgres", "redis")}
    assert published == {
        "postgres": ["${LEGALSIM_SERVICES_BIND:-127.0.0.1}:5432:5432"],
        "redis": ["${LEGALSIM_SERVICES_BIND:-127.0.0.1}:6379:6379"],
    }, "this machine only, unless the class server names its LAN address"


def test_the_healthchecks_call_the_apps_own_health_check():
    web = service("web")["healthcheck"]["test"]
    assert web[:3] == ["CMD", "python", "-c"] and f"http://127.0.0.1:8000{HEALTH_PATH}" in web[3]
    kind, python, manage, command, *options = service("worker")["healthcheck"]["test"]
    assert (kind, python, manage, command) == ("CMD", "python", "manage.py", "health")
    parsed = load_command_class("legalsim", "health").create_parser("manage.py", "health").parse_args(options)
    assert parsed.worker is True
    assert "pg_isready" in service("postgres")["healthcheck"]["test"][1]
    assert "redis-cli ping" in service("redis")["healthcheck"]["test"][1]


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(maxsplit=1)[0], line.split(maxsplit=1)[1]) for line in lines]


def test_the_image_runs_daphne_as_a_user_of_its_own():
    instructions = dockerfile_instructions()
    assert re.fullmatch(r"python:3\.1[12]-slim", instructions[0][1])
    assert ("RUN", "pip install -r requirements.txt") in instructions
    [user] = [value for kind, value in instructions if kind == "USER"]
    assert user not in ("root", "0")
    [command] = [json.loads(value) for kind, value in instructions if kind == "CMD"]
    assert command[0] == "daphne" and (Path(sys.executable).parent / "daphne").exists()
    module, _, attribute = command[-1].partition(":")
    assert importlib.util.find_spec(module) is not None and attribute == "application"
    assert "collectstatic" in " ".join(value for kind, value in instructions if kind == "RUN")


def test_the_image_leaves_out_secrets_and_local_state():
    ignored = set((ROOT / ".dockerignore").read_text().split())
    assert {".env", ".venv", ".git", "media/"} <= ignored
