"""Password guessing is throttled per username and per address (legalsim/login_throttle.py)."""

from __future__ import annotations

import re
import time
import uuid

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from legalsim.login_throttle import client_address
from legalsim.roles import Role
from tests.conftest import ROOT
from tests.users import person

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-42"
LOCKED = "Too many failed attempts. Try again in 15 minutes."


@pytest.fixture(autouse=True)
def own_cache(settings):
    """A fresh in-process cache per test, so counters never leak between tests or runs."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}
    }
    settings.LEGALSIM_LOGIN_MAX_FAILURES = 5
    settings.LEGALSIM_LOGIN_MAX_FAILURES_PER_IP = 20
    settings.LEGALSIM_LOGIN_WINDOW_S = 15 * 60
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast guesses


def log_in(client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_after_five_wrong_passwords_even_the_right_one_is_refused(client):
    person("alice", Role.STUDENT, password=PASSWORD)
    for _ in range(5):
        page = log_in(client, "alice", "guess").content.decode()
        assert "Please enter a correct username and password" in page
    response = log_in(client, "alice", PASSWORD)
    assert response.status_code == 200 and LOCKED in response.content.decode()
    assert not signed_in(client)


def test_other_users_still_log_in_from_the_same_address(client):
    person("alice", Role.STUDENT, password=PASSWORD)
    person("bob", Role.STUDENT, password=PASSWORD)
    for _ in range(6):
        log_in(client, "alice", "guess")
    response = log_in(client, "bob", PASSWORD)
    assert response.status_code == 302 and signed_in(client)


def test_the_lock_lifts_once_the_window_has_passed(client, settings):
    settings.LEGALSIM_LOGIN_WINDOW_S = 2
    person("alice", Role.STUDENT, password=PASSWORD)
    for _ in range(5):
        log_in(client, "alice", "guess")
    assert "Try again in 1 minute." in log_in(client, "alice", PASSWORD).content.decode()
    time.sleep(2.1)
    assert log_in(client, "alice", PASSWORD).status_code == 302 and signed_in(client)


def test_one_address_guessing_many_usernames_is_throttled(client, settings):
    settings.LEGALSIM_LOGIN_MAX_FAILURES_PER_IP = 3
    person("carol", Role.STUDENT, password=PASSWORD)
    for name in ("a", "b", "c"):
        log_in(client, name, "guess", address="203.0.113.9")
    assert LOCKED in log_in(client, "carol", PASSWORD, address="203.0.113.9").content.decode()
    assert log_in(client, "carol", PASSWORD, address="198.51.100.7").status_code == 302


def test_the_admin_login_is_refused_while_locked(client):
    person("root", Role.ADMIN, password=PASSWORD)
    for _ in range(5):
        log_in(client, "root", "guess")
    client.post(
        reverse("admin:login"), {"username": "root", "password": PASSWORD, "next": "/admin/"}, REMOTE_ADDR="10.0.0.1"
    )
    assert not signed_in(client)


def test_guessing_the_old_password_on_the_change_form_is_throttled(client):
    user = person("alice", Role.STUDENT, password=PASSWORD)
    client.force_login(user)
    change = {"new_password1": "a-new-pass-phrase-7", "new_password2": "a-new-pass-phrase-7"}
    for _ in range(5):
        response = client.post(reverse("password_change"), {"old_password": "guess", **change}, REMOTE_ADDR="10.0.0.1")
        assert response.status_code == 200
    response = client.post(reverse("password_change"), {"old_password": PASSWORD, **change}, REMOTE_ADDR="10.0.0.1")
    assert LOCKED in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


# -- Behind the shipped proxy (issue #31, item 2) ---------------------------------------------
# deploy/nginx.conf sets ``X-Forwarded-For: $proxy_add_x_forwarded_for`` (what the client sent,
# then the address nginx received the request from) and ``X-Forwarded-Proto: $scheme``; daphne
# (the Procfile and the systemd unit alike, no --proxy-headers) sees nginx as REMOTE_ADDR.
# The proxy count is the one deploy/legalsim.env.example documents.

DEPLOY = ROOT / "deploy"
NGINX = "127.0.0.1"


def documented_proxies() -> int:
    lines = (DEPLOY / "legalsim.env.example").read_text().splitlines()
    return int(next(line.split("=", 1)[1] for line in lines if line.startswith("LEGALSIM_TRUSTED_PROXIES=")))


def through_nginx(peer: str, sent: str | None = None) -> dict[str, str]:
    """The request headers deploy/nginx.conf hands daphne for a client at ``peer`` that sent
    ``X-Forwarded-For: sent`` itself (or none)."""
    return {
        "REMOTE_ADDR": NGINX,
        "HTTP_X_FORWARDED_FOR": f"{sent}, {peer}" if sent else peer,
        "HTTP_X_FORWARDED_PROTO": "https",
    }


@pytest.fixture
def behind_nginx(settings):
    settings.LEGALSIM_TRUSTED_PROXIES = documented_proxies()
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": documented_proxies()}


def log_in_via_nginx(client, username: str, password: str, peer: str, sent: str | None = None):
    return client.post(reverse("login"), {"username": username, "password": password}, **through_nginx(peer, sent))


def test_the_shipped_config_is_the_chain_these_tests_send():
    nginx = (DEPLOY / "nginx.conf").read_text()
    forwarded = re.findall(r"proxy_set_header\s+X-Forwarded-For\s+(\S+);", nginx)
    assert forwarded and set(forwarded) == {"$proxy_add_x_forwarded_for"}
    assert set(re.findall(r"proxy_set_header\s+X-Forwarded-Proto\s+(\S+);", nginx)) == {"$scheme"}
    daphne = [
        line
        for path in (DEPLOY / "Procfile", *sorted((DEPLOY / "systemd").glob("*.service")))
        for line in path.read_text().splitlines()
        if "bin/daphne" in line and not line.lstrip().startswith("#")
    ]
    assert len(daphne) == 2 and not any("--proxy-headers" in line for line in daphne), daphne
    assert documented_proxies() == 1


def test_the_client_address_is_the_entry_the_trusted_proxy_appended(settings, rf):
    settings.LEGALSIM_TRUSTED_PROXIES = 0
    assert client_address(rf.get("/", **through_nginx("198.51.100.7", "203.0.113.7"))) == NGINX
    settings.LEGALSIM_TRUSTED_PROXIES = 1
    assert client_address(rf.get("/", **through_nginx("198.51.100.7", "203.0.113.7, 10.1.1.1"))) == "198.51.100.7"
    settings.LEGALSIM_TRUSTED_PROXIES = 2  # a load balancer in front of nginx, appending the same way
    assert client_address(rf.get("/", **through_nginx("10.0.0.2", "203.0.113.7, 198.51.100.7"))) == "198.51.100.7"
    assert client_address(rf.get("/", **through_nginx("198.51.100.7"))) == "198.51.100.7"  # fewer entries
    assert client_address(rf.get("/", REMOTE_ADDR="192.0.2.1")) == "192.0.2.1"  # no header: REMOTE_ADDR


def test_rotating_the_left_most_entries_does_not_escape_the_address_limit(client, behind_nginx):
    person("carol", Role.STUDENT, password=PASSWORD)
    for n in range(20):
        log_in_via_nginx(client, f"user{n}", "guess", peer="192.0.2.10", sent=f"198.51.100.{n}, 127.0.0.1")
    response = log_in_via_nginx(client, "carol", PASSWORD, peer="192.0.2.10", sent="198.51.100.99")
    assert LOCKED in response.content.decode() and not signed_in(client)


def test_a_forged_chain_does_not_lock_out_the_address_it_names(client, behind_nginx):
    person("carol", Role.STUDENT, password=PASSWORD)
    for n in range(21):
        log_in_via_nginx(client, f"user{n}", "guess", peer="198.51.100.66", sent="203.0.113.7, 10.0.0.1")
    assert log_in_via_nginx(client, "carol", PASSWORD, peer="203.0.113.7").status_code == 302
    assert signed_in(client)
    client.logout()
    response = log_in_via_nginx(client, "carol", PASSWORD, peer="198.51.100.66", sent="203.0.113.7")
    assert LOCKED in response.content.decode()  # the guesser's own address is what got locked


def test_one_guesser_behind_the_proxy_does_not_lock_out_everyone_else(client, behind_nginx):
    person("carol", Role.STUDENT, password=PASSWORD)
    for n in range(20):
        log_in_via_nginx(client, f"user{n}", "guess", peer="198.51.100.66")
    assert log_in_via_nginx(client, "carol", PASSWORD, peer="192.0.2.44").status_code == 302


def test_an_account_hammered_from_many_addresses_is_locked_until_the_window_passes(client, behind_nginx, settings):
    settings.LEGALSIM_LOGIN_WINDOW_S = 2
    person("alice", Role.STUDENT, password=PASSWORD)
    for n in range(5):
        log_in_via_nginx(client, "alice", "guess", peer=f"198.51.100.{n}", sent=f"203.0.113.{n}")
    response = log_in_via_nginx(client, "ALICE ", PASSWORD, peer="192.0.2.44")
    assert "Try again in 1 minute." in response.content.decode() and not signed_in(client)
    time.sleep(2.1)  # the owner's way back: the window that began with the first failure ends
    assert log_in_via_nginx(client, "alice", PASSWORD, peer="192.0.2.44").status_code == 302


def test_the_api_token_throttle_keys_on_the_same_address(behind_nginx):
    api = APIClient()
    codes = [
        api.post(
            "/api/token/",
            {"username": f"user{n}", "password": "guess"},
            format="json",
            **through_nginx("192.0.2.10", f"198.51.100.{n}"),
        ).status_code
        for n in range(12)
    ]
    assert codes[:10] == [400] * 10 and codes[10:] == [429, 429]
    other = api.post(
        "/api/token/", {"username": "x", "password": "guess"}, format="json", **through_nginx("192.0.2.44")
    )
    assert other.status_code == 400
