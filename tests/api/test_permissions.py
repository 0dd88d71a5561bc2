"""Every API view declares an ability, and the roles without it are refused."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, reverse

from api.permissions import PUBLIC, ability_of
from api.urls import urlpatterns
from legalsim.roles import MATRIX, Ability, Role
from tests.api.conftest import client_for

SAMPLE_KWARGS = {
    "case_id": "x",
    "trial_id": 1,
    "seat": "judge",
    "trajectory_id": "x",
    "study_id": 1,
    "assignment_id": 1,
    "comparison_id": 1,
}


def endpoints() -> list[tuple[str, str, list[str], Ability | None]]:
    """(name, url, methods, ability) of every API route."""
    found = []
    for pattern in urlpatterns:
        assert isinstance(pattern, URLPattern)
        view = pattern.callback.view_class
        kwargs = {name: SAMPLE_KWARGS[name] for name in pattern.pattern.regex.groupindex}
        methods = [method for method in ("get", "post", "put", "delete") if hasattr(view, method)]
        found.append((pattern.name, reverse(f"api:{pattern.name}", kwargs=kwargs), methods, ability_of(view())))
    return found


ENDPOINTS = endpoints()
GUARDED = [(name, url, methods, ability) for name, url, methods, ability in ENDPOINTS if ability is not PUBLIC]


def test_every_view_declares_an_ability_and_only_token_and_docs_are_public():
    public = sorted(name for name, _url, _methods, ability in ENDPOINTS if ability is PUBLIC)
    assert public == ["docs", "redoc", "schema", "token"]
    assert {ability for *_rest, ability in GUARDED} == {Ability.PLAY, Ability.RATE, Ability.TEACH}


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "url", "methods", "ability"), GUARDED, ids=[entry[0] for entry in GUARDED])
def test_anonymous_callers_get_401_and_roles_without_the_ability_get_403(name, url, methods, ability):
    anonymous = client_for(None)
    lacking = [role for role in Role if ability not in MATRIX[role]]
    for method in methods:
        response = getattr(anonymous, method)(url)
        assert response.status_code == 401, (method, url)
        assert response["WWW-Authenticate"].startswith("Token")
        for role in lacking:
            refused = getattr(client_for(f"only-{role}", role), method)(url)
            assert refused.status_code == 403, (role, method, url)
            assert str(ability) in refused.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "url", "methods", "ability"), GUARDED, ids=[entry[0] for entry in GUARDED])
def test_roles_with_the_ability_get_past_the_permission_check(name, url, methods, ability):
    for role in [role for role in Role if ability in MATRIX[role]]:
        client = client_for(f"holder-{role}", role)
        for method in methods:
            assert getattr(client, method)(url).status_code not in (401, 403), (role, method, url)
