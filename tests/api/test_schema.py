"""The OpenAPI schema drives schemathesis through every operation as an instructor: whatever
it sends, the API answers without a server error. Bounded and derandomised."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

APP = get_wsgi_application()
schema = schemathesis.openapi.from_wsgi("/api/schema/", APP)


@pytest.fixture
def in_process_requests():
    """Requests served in the test's own transaction: the WSGI handler must not close the
    connection when a request ends (Django's test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def instructor_headers(db, in_process_requests) -> dict[str, str]:
    """An instructor's token, and a library with a finished trial for the operations to find."""
    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
    trial_simulate(case=Case.objects.get(pk="en-civil-traffic-accident"), backend="scripted")
    token, _ = Token.objects.get_or_create(user=person("instructor", Role.INSTRUCTOR))
    return {"Authorization": f"Token {token.key}"}


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_no_operation_answers_with_a_server_error(case, instructor_headers):
    response = case.call(headers=instructor_headers)
    case.validate_response(response, checks=[not_a_server_error])
