"""Password guessing is throttled per username and per address (legalsim/login_throttle.py)."""

from __future__ import annotations

import time
import uuid

import pytest
from django.urls import reverse

from legalsim.roles import Role
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
