"""No API key, secret key, credentials header or case text reaches the logs."""

from __future__ import annotations

import io
import logging

import pytest

from legalsim.llm import LLMCall, LLMClient, LLMError
from legalsim.log_redaction import SecretRedactingFilter
from legalsim.roles import Role
from tests.cases import case_stored
from tests.users import person
from trials.services import trial_simulate

CANARY_KEY = "sk-canary-7f3a9c1e5b2d4068"
CANARY_TEXT = "CANARY-CASE-TEXT-QX81"


@pytest.mark.django_db
def test_an_llm_trial_logs_neither_the_key_nor_the_case_text_at_debug(
    openai_settings, llm_server, civil_seed, caplog, capfd
):
    openai_settings.OPENAI_API_KEY = CANARY_KEY
    civil_seed["first_instance"]["facts_and_reasons"] = f"{CANARY_TEXT}: the loan was never repaid."
    case = case_stored(civil_seed)
    person("student", Role.STUDENT)
    llm_server.fail_next(("status", 500))
    with caplog.at_level(logging.DEBUG):
        trial_simulate(case=case, backend="openai", until="LC")
        with pytest.raises(LLMError):
            llm_server.fail_next(("status", 401))
            LLMClient.from_settings().complete(LLMCall(model="m", messages=[{"role": "user", "content": CANARY_TEXT}]))
    assert any(CANARY_TEXT in str(request) for request in llm_server.requests), "the case text was sent"
    logged = caplog.text + capfd.readouterr().err
    assert CANARY_KEY not in logged and CANARY_TEXT not in logged


def filtered(settings, message: str, *args: object, exc: BaseException | None = None) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(SecretRedactingFilter())
    logger = logging.getLogger("tests.redaction")
    logger.addHandler(handler)
    try:
        logger.error(message, *args, exc_info=(type(exc), exc, None) if exc else None)
    finally:
        logger.removeHandler(handler)
    return stream.getvalue()


def test_the_filter_redacts_configured_secrets_and_credentials_headers(settings):
    settings.OPENAI_API_KEY = CANARY_KEY
    settings.SECRET_KEY = "django-secret-canary-0123456789"
    line = filtered(settings, "calling with %s and %s", CANARY_KEY, settings.SECRET_KEY)
    assert CANARY_KEY not in line and "django-secret-canary" not in line and line.count("[redacted]") == 2
    headers = filtered(settings, "headers %s", {"Authorization": "Bearer abc.def-123", "X-Other": "kept"})
    assert "abc.def-123" not in headers and "'Authorization': 'Bearer [redacted]'" in headers and "kept" in headers
    token = filtered(settings, "retrying with Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b")
    assert "9944b091" not in token and "Token [redacted]" in token
    raised = filtered(settings, "failed", exc=RuntimeError(f"bad key {CANARY_KEY}"))
    assert CANARY_KEY not in raised and "RuntimeError: bad key [redacted]" in raised


def test_the_filter_leaves_ordinary_text_alone(settings):
    text = "the token accounting of turn 12 used 3400 prompt tokens"
    assert filtered(settings, text) == text + "\n"
