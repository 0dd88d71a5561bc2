"""The API's JSON parser refuses bodies nested too deep with a 400 before parsing them."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from legalsim.json_input import MAX_DEPTH
from legalsim.roles import Role
from tests.users import person

DEEP_BODIES = {
    "100,000 open brackets": "[" * 100_000,
    "a well-formed array 5,000 deep": "[" * 5_000 + "]" * 5_000,
    "an object 200 deep": '{"a":' * 200 + "1" + "}" * 200,
}


@pytest.mark.django_db
@pytest.mark.parametrize("body", DEEP_BODIES.values(), ids=DEEP_BODIES.keys())
@pytest.mark.parametrize(
    ("path", "role"), [("/api/token/", None), ("/api/trials/", Role.STUDENT), ("/api/ratings/", Role.RATER)]
)
def test_a_deeply_nested_json_body_is_a_400_naming_the_limit(path: str, role: Role | None, body: str):
    client = APIClient()
    if role is not None:  # the token endpoint is open to anyone; the others to their role
        client.force_authenticate(person("someone", role))
    response = client.post(path, body, content_type="application/json")
    assert response.status_code == 400, response.content[:200]
    assert f"nested deeper than {MAX_DEPTH} levels" in response.json()["detail"]


@pytest.mark.django_db
def test_json_nested_within_the_limit_still_reaches_the_view():
    person("student", Role.STUDENT, password="a-long-password-1")
    nested = {"username": "student", "password": "a-long-password-1", "extra": json.loads("[" * 40 + "]" * 40)}
    response = APIClient().post("/api/token/", nested, format="json")
    assert response.status_code == 200 and response.json()["token"]
