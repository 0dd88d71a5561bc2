from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.services import cases_import

CASE = "en-civil-traffic-accident"


@pytest.fixture(autouse=True)
def fresh_throttle():
    """The login throttle counts in the cache, which outlives a test."""
    cache.clear()
    yield
    cache.clear()


def client_for(username: str | None, *roles: Role) -> APIClient:
    """An API client authenticated with the token of ``username`` (holding ``roles``), or
    anonymous for ``None``."""
    from rest_framework.authtoken.models import Token

    client = APIClient()
    if username is not None:
        token, _ = Token.objects.get_or_create(user=person(username, *roles))
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def student(db) -> APIClient:
    return client_for("student", Role.STUDENT)


@pytest.fixture
def other_student(db) -> APIClient:
    return client_for("other", Role.STUDENT)


@pytest.fixture
def rater(db) -> APIClient:
    return client_for("rater", Role.RATER)


@pytest.fixture
def instructor(db) -> APIClient:
    return client_for("instructor", Role.INSTRUCTOR)


@pytest.fixture
def admin(db) -> APIClient:
    return client_for("admin", Role.ADMIN)


@pytest.fixture
def anonymous(db) -> APIClient:
    return client_for(None)


@pytest.fixture
def demo_case(db) -> str:
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    return CASE
