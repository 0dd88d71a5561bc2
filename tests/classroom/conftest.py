"""The instructor of course "civ", signed in: the roster tests' client."""

from __future__ import annotations

import pytest
from django.test import Client

from classroom.services import course_create
from legalsim.roles import Role
from tests.users import person


@pytest.fixture
def prof_client() -> Client:
    course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    client = Client()
    client.force_login(person("prof"))
    return client
