"""The shipped deployment example is production-safe (issue #31, item 9): the environment file
``deploy/legalsim.env.example`` passes ``check --deploy`` once its secret key is set, its
placeholder key is refused at start-up, and the Procfile's web line behind the TLS proxy of
``deploy/nginx.conf`` serves https pages instead of redirecting forever."""

from __future__ import annotations

import http.client
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"
REAL_KEY = "q7Vx-2mLpR9tZ4wK8nB1cD6fH3jS0aE5gY_uI9oP2lM7kN4xC1vB8"
HOST = "legalsim.example.edu"
OWN = ("DJANGO_", "DATABASE_URL", "REDIS_URL", "LEGALSIM_", "OPENAI_")


def example_env() -> dict[str, str]:
    """The variables the example file sets, as systemd's EnvironmentFile and a Procfile
    runner's .env read them (``NAME=value`` lines; ``#`` starts a comment line)."""
    pairs = {}
    for line in (DEPLOY / "legalsim.env.example").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            pairs[name.strip()] = value.strip()
    return pairs


def process_env(env: dict[str, str]) -> dict[str, str]:
    """This process's environment without anything of a deployment's, then ``env``."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(OWN)}
    return {**clean, **env}


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], env=process_env(env), cwd=ROOT, capture_output=True, text=True
    )


def test_the_example_is_a_production_environment_behind_one_proxy():
    env = example_env()
    assert env["DJANGO_ENV"] == "production"
    assert env["LEGALSIM_TRUSTED_PROXIES"] == "1"
    assert "DJANGO_DEBUG" not in env and "DJANGO_BEHIND_PROXY" not in env, "both follow from the above"


def test_the_example_with_a_real_key_passes_the_deployment_checklist():
    result = manage({**example_env(), "DJANGO_SECRET_KEY": REAL_KEY}, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_examples_placeholder_key_is_refused_at_start_up():
    env = example_env()
    assert env["DJANGO_SECRET_KEY"].startswith("CHANGE-ME")
    result = manage(env, "check")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "not the placeholder of an example file" in result.stderr
    assert env["DJANGO_SECRET_KEY"] not in result.stderr, "the message does not echo the key"


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("change_me_" + REAL_KEY, "not the placeholder"),
        (REAL_KEY[:40], "at least 50 characters, 5 of them different (it has 40)"),
        ("ab" * 30, "at least 50 characters, 5 of them different"),
        ("django-insecure-" + REAL_KEY, "not the built-in development key"),
    ],
    ids=["placeholder", "short", "few-characters", "django-insecure"],
)
def test_production_refuses_a_key_below_djangos_bar(key, message):
    result = manage({"DJANGO_ENV": "production", "DJANGO_SECRET_KEY": key}, "check")
    assert result.returncode != 0 and message in result.stderr, result.stderr


def web_command(port: int) -> list[str]:
    """The Procfile's web line, its $PORT set and its .venv the one running these tests."""
    [line] = [line for line in (DEPLOY / "Procfile").read_text().splitlines() if line.startswith("web:")]
    command = shlex.split(line.removeprefix("web:").replace("$PORT", str(port)))
    assert "--proxy-headers" not in command, "daphne would trust the left-most X-Forwarded-For"
    venv_bin = str(Path(sys.executable).parent)
    return [part.replace(".venv/bin", venv_bin, 1) if part.startswith(".venv/bin/") else part for part in command]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def through_nginx(port: int, path: str, scheme: str) -> http.client.HTTPResponse:
    """A request as deploy/nginx.conf passes it on from a client that asked with ``scheme``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Host": HOST, "X-Forwarded-For": "198.51.100.7, 203.0.113.9", "X-Forwarded-Proto": scheme}
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_the_procfiles_web_line_behind_the_tls_proxy_serves_https_without_a_redirect_loop(tmp_path):
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert nginx.count("proxy_set_header X-Forwarded-Proto $scheme;") == 2
    # The example's services replaced by embedded ones: the redirect depends on the settings alone.
    env = {**example_env(), "DJANGO_SECRET_KEY": REAL_KEY, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env.pop("REDIS_URL")
    port = free_port()
    web = subprocess.Popen(
        web_command(port), env=process_env(env), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert web.poll() is None, web.stderr.read().decode()
                assert time.monotonic() < deadline, "daphne did not start"
                time.sleep(0.2)
        secure = through_nginx(port, "/accounts/login/", "https")
        assert secure.status == 200, (secure.status, secure.getheader("Location"))
        assert secure.getheader("Strict-Transport-Security", "").startswith("max-age=31536000")
        assert re.search(r"csrftoken=[^;]+;.*\bSecure\b", secure.getheader("Set-Cookie", ""))
        plain = through_nginx(port, "/accounts/login/", "http")
        assert plain.status == 301 and plain.getheader("Location") == f"https://{HOST}/accounts/login/"
    finally:
        web.terminate()
        try:
            web.wait(timeout=10)
        except subprocess.TimeoutExpired:
            web.kill()
            web.wait()
        web.stderr.close()
