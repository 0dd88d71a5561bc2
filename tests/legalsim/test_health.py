"""The health checks a container runtime or load balancer calls (issue #35 item 6): ``/healthz``
on every web process, ``manage.py health --worker`` on every worker host."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import time
import uuid

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from legalsim.health import worker_check
from tests.conftest import ROOT
from tests.servers import daphne, database_url_in_use, free_port

REDIS_URL = os.environ.get("REDIS_URL", "")
REAL_KEY = "q7Vx-2mLpR9tZ4wK8nB1cD6fH3jS0aE5gY_uI9oP2lM7kN4xC1vB8"


def health(*args: str, **env: str | None) -> subprocess.CompletedProcess:
    """``manage.py health ARGS`` in a process of its own, on the test database unless ``env``
    says otherwise (a variable given as None is unset)."""
    environment = {**os.environ, "DATABASE_URL": database_url_in_use(), **env}
    environment = {name: value for name, value in environment.items() if value is not None}
    return subprocess.run(
        [sys.executable, "manage.py", "health", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.django_db
def test_healthz_answers_200_naming_each_dependency():
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "redis": "ok" if REDIS_URL else "not configured",
    }
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_healthz_answers_any_host_on_plain_http_and_sets_no_cookie(settings):
    """A container's probe calls http://127.0.0.1:8000/healthz: in production neither the
    redirect to https nor the host check may turn it away, as they do every page."""
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["legalsim.example.edu"]
    client = Client(HTTP_HOST="127.0.0.1:8000")
    assert client.get("/accounts/login/").status_code == 400, "a page refuses a host not allowed"
    assert Client(HTTP_HOST="legalsim.example.edu").get("/accounts/login/").status_code == 301
    response = client.get("/healthz")
    assert response.status_code == 200
    assert not response.cookies
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


@pytest.mark.django_db
def test_healthz_is_503_when_redis_is_unreachable(settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "ok", "redis": "error"}
    assert b"127.0.0.1" not in response.content, "the public page says what failed, not where"


def health_here(*args: str) -> tuple[str, str]:
    """``manage.py health ARGS`` in this process: (its output, the error it stopped with or "")."""
    output = io.StringIO()
    try:
        call_command("health", *args, stdout=output)
    except CommandError as error:
        return output.getvalue(), str(error)
    return output.getvalue(), ""


@pytest.mark.django_db
def test_the_command_passes_on_a_reachable_database():
    output, error = health_here()
    assert error == ""
    assert output.splitlines() == ["database: ok", f"redis: {'ok' if REDIS_URL else 'not configured'}"]


@pytest.mark.django_db
def test_the_command_exits_non_zero_when_the_database_is_unreachable():
    result = health(DATABASE_URL=f"postgres://legalsim@127.0.0.1:{free_port()}/legalsim")
    assert result.returncode == 1
    assert "database: error (OperationalError" in result.stdout
    assert "unhealthy: database" in result.stderr


@pytest.mark.django_db
def test_the_worker_check_fails_without_a_broker(settings):
    settings.REDIS_URL = ""
    output, error = health_here("--worker")
    assert error == "unhealthy: worker"
    assert "worker: error (REDIS_URL is not set" in output


@pytest.mark.django_db
def test_the_worker_check_fails_when_redis_is_unreachable(settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    output, error = health_here("--worker")
    assert error == "unhealthy: redis, worker"
    assert "worker: error (not asked: Redis is unreachable)" in output


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set (a Celery worker needs Redis)")
def test_the_worker_check_passes_while_this_hosts_worker_answers_and_fails_once_it_stops(tmp_path):
    node = f"legalsim-health-{uuid.uuid4().hex[:8]}@{socket.gethostname()}"
    command = [sys.executable, "-m", "celery", "-A", "legalsim", "worker", "-c", "1", "-l", "warning", "-n", node]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    environment = {**os.environ, "DATABASE_URL": database_url_in_use(), "LEGALSIM_CELERY_QUEUE": node}
    with (tmp_path / "worker.log").open("w") as log:
        worker = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 60
        while not worker_check(node=node, timeout_s=1).healthy:
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            assert time.monotonic() < deadline, "the worker never answered"
        answered = health("--worker", "--node", node)
        assert answered.returncode == 0, answered.stdout + answered.stderr
        assert f"worker: ok ({node})" in answered.stdout
        assert node in worker_check().detail, "without --node, any worker named *@<this host> will do"
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
    stopped = health("--worker", "--node", node, "--timeout", "1")
    assert stopped.returncode == 1
    assert f"worker: error ({node} did not answer within 1 s" in stopped.stdout


def web_probe(port: int) -> list[str]:
    """The web service's healthcheck in docker-compose.yml, pointed at ``port``."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    kind, *command = compose["services"]["web"]["healthcheck"]["test"]
    assert kind == "CMD" and command[0] == "python"
    return [sys.executable, *(part.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for part in command[1:])]


@pytest.mark.django_db(transaction=True)
def test_the_compose_web_probe_passes_on_a_production_daphne_and_fails_without_redis(tmp_path):
    """The probe runs inside the web container: plain http to 127.0.0.1, a host the
    production settings do not allow."""
    production = {
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": REAL_KEY,
        "DJANGO_ALLOWED_HOSTS": "legalsim.example.edu",
        "LEGALSIM_TRUSTED_PROXIES": "1",
    }
    with daphne(tmp_path / "web.log", **production) as port:
        passed = subprocess.run(web_probe(port), capture_output=True, text=True, timeout=30)
        assert passed.returncode == 0, passed.stderr
    with daphne(tmp_path / "web-no-redis.log", **production, REDIS_URL=f"redis://127.0.0.1:{free_port()}/0") as port:
        failed = subprocess.run(web_probe(port), capture_output=True, text=True, timeout=30)
        assert failed.returncode != 0
        assert "HTTP Error 503" in failed.stderr
