"""What a trial's model calls cost (issue #46): each call's cached prompt tokens as the server
reports them, its cost at LEGALSIM_PRICES, and the sums on the case page an instructor reads."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from legalsim.roles import Role
from tests.trials.test_simulate_openai import simulate
from tests.users import person
from trials.models import Trial

pytestmark = pytest.mark.django_db

PRICES = {
    "env-model": {"input": 2.0, "cached_input": 0.5, "output": 8.0},
    "target-model": {"input": 1.0, "cached_input": 1.0, "output": 4.0},
}


def test_each_call_costs_its_uncached_cached_and_completion_tokens_at_its_models_price(
    openai_settings,
    llm_server,
    lending_case,
    capsys,
):
    openai_settings.LEGALSIM_PRICES = PRICES
    trial = Trial.objects.get(pk=simulate(capsys, lending_case.pk, "--until", "LC")["trial_id"])
    calls = list(trial.llm_calls.all())
    assert calls and any(call.cached_tokens > 0 for call in calls), "a seat's later calls reuse its prefix"
    for call in calls:
        price = PRICES[call.model]
        uncached = call.prompt_tokens - call.cached_tokens
        expected = (
            uncached * price["input"]
            + call.cached_tokens * price["cached_input"]
            + call.completion_tokens * price["output"]
        ) / 1_000_000
        assert call.cost == pytest.approx(expected)

    teacher = Client()
    teacher.force_login(person("prof", Role.INSTRUCTOR))
    page = teacher.get(reverse("trials:case_detail", args=[lending_case.pk])).content.decode()
    total = sum(call.cost for call in calls)
    cached = sum(call.cached_tokens for call in calls)
    assert f"{total:.4f}" in page and f"({cached} cached)" in page


def test_a_model_without_a_price_costs_nothing_shown(openai_settings, llm_server, lending_case, capsys):
    openai_settings.LEGALSIM_PRICES = {}
    trial = Trial.objects.get(pk=simulate(capsys, lending_case.pk, "--until", "LC")["trial_id"])
    assert trial.llm_calls.exists() and not trial.llm_calls.filter(cost__isnull=False).exists()
