"""legalsim.W001 (issue #44 item 15): trusted proxies while the web process is reached directly.
Behind a trusted proxy the client's address is the last X-Forwarded-For entry; a client that
reaches the process directly writes that entry itself, so it picks the address the login
throttle counts. The check warns wherever that is so, and stays quiet behind the shipped proxy."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.checks import run_checks
from django.test import RequestFactory

from legalsim.login_throttle import client_address
from tests.conftest import ROOT


def warnings_of(settings, monkeypatch, *, proxies: int, hosts: list[str], bind: str | None) -> list[str]:
    settings.LEGALSIM_TRUSTED_PROXIES, settings.ALLOWED_HOSTS = proxies, hosts
    if bind is None:
        monkeypatch.delenv("LEGALSIM_WEB_BIND", raising=False)
    else:
        monkeypatch.setenv("LEGALSIM_WEB_BIND", bind)
    return [message.id for message in run_checks() if message.id == "legalsim.W001"]


def test_a_forged_entry_is_the_client_address_when_the_proxy_is_bypassed(settings):
    """The attack the warning is about: straight to the process, the header is the client's."""
    settings.LEGALSIM_TRUSTED_PROXIES = 1
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="203.0.113.7", REMOTE_ADDR="192.168.1.50")

    assert client_address(request) == "203.0.113.7"


@pytest.mark.parametrize(
    ("hosts", "bind"),
    [
        (["legalsim.example.edu"], "192.168.1.20"),
        (["legalsim.example.edu"], "0.0.0.0"),
        (["*"], None),
        (["192.168.1.20", "localhost"], None),
        (["legalsim.example.edu"], "::"),
    ],
)
def test_trusted_proxies_with_a_process_reached_directly_warn(settings, monkeypatch, hosts, bind):
    assert warnings_of(settings, monkeypatch, proxies=1, hosts=hosts, bind=bind) == ["legalsim.W001"]


@pytest.mark.parametrize(
    ("proxies", "hosts", "bind"),
    [
        (1, ["legalsim.example.edu"], "127.0.0.1"),
        (1, ["legalsim.example.edu", "127.0.0.1", "[::1]", "localhost"], None),
        (0, ["*"], "0.0.0.0"),
    ],
)
def test_behind_the_proxy_or_without_trusted_proxies_nothing_warns(settings, monkeypatch, proxies, hosts, bind):
    assert warnings_of(settings, monkeypatch, proxies=proxies, hosts=hosts, bind=bind) == []


def test_manage_py_check_warns_as_dev_py_up_on_a_classroom_network_runs_it(tmp_path):
    """``dev.py up --host 0.0.0.0`` sets DJANGO_ALLOWED_HOSTS=*; with the proxy count copied
    from a production file, its migrate step (which runs the checks) warns."""
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "LEGALSIM_"))}
    environment = {
        **clean,
        "DJANGO_ALLOWED_HOSTS": "*",
        "LEGALSIM_TRUSTED_PROXIES": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=environment, capture_output=True, text=True
    )

    assert "legalsim.W001" in result.stderr + result.stdout
    assert "ALLOWED_HOSTS holds *" in result.stderr + result.stdout
