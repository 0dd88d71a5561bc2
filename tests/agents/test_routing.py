"""Per-seat models and servers (``LEGALSIM_SEAT_MODELS``, issue #19 item 3): each server gets
exactly the calls of the seats routed to it, a bad value stops start-up, and the trajectory
records what played each seat."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from agents.routing import seat_models_check, seat_route
from legalsim.env import env_seat_models
from tests.conftest import DEMO_CASES, ROOT
from tests.llm_server import LoopbackLLM
from trials.models import Trial
from trials.services import cases_import


def test_each_server_receives_exactly_the_calls_of_its_seats(openai_settings, llm_server, capsys, db):
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    with LoopbackLLM() as bench, LoopbackLLM() as parties:
        openai_settings.LEGALSIM_SEAT_MODELS = {
            "judge": {"model": "judge-model", "base_url": bench.base_url, "api_key": ""},
            "client": {"model": "client-model", "base_url": parties.base_url, "api_key": ""},
        }
        call_command("simulate", "zh-civil-private-lending", "--backend", "openai", "--json", "--until", "FIT")
        result = json.loads(capsys.readouterr().out)
    trial = Trial.objects.get(pk=result["trial_id"])
    calls = list(trial.llm_calls.values_list("seat", "model"))
    assert {seat for seat, _ in calls} >= {"judge", "plaintiff_client", "defendant_client", "plaintiff_lawyer"}
    assert len(bench.requests) == sum(1 for seat, _ in calls if seat == "judge") > 0
    assert {request["model"] for request in bench.requests} == {"judge-model"}
    assert len(parties.requests) == sum(1 for seat, _ in calls if seat.endswith("_client")) > 0
    assert {request["model"] for request in parties.requests} == {"client-model"}
    lawyers = sum(1 for seat, _ in calls if seat.endswith("_lawyer"))
    assert len(llm_server.requests) == lawyers > 0, "unrouted seats keep the default server"
    meta = trial.trajectory.meta["seat_models"]
    assert meta["judge"] == {
        "model": "judge-model",
        "base_url": bench.base_url,
        "temperature": 0.7,
        "top_p": 0.95,
        "max_tokens": 4096,
        "seed": None,
    }
    assert meta["plaintiff_lawyer"]["model"] == "target-model"
    assert meta["defendant_lawyer"]["base_url"] == llm_server.base_url


def test_a_seat_id_beats_target_which_beats_the_role(settings):
    settings.LEGALSIM_SEAT_MODELS = {
        "plaintiff_lawyer": {"model": "by-seat"},
        "target": {"model": "by-target"},
        "lawyer": {"model": "by-role"},
    }
    assert seat_route("civil", "plaintiff_lawyer", is_target=True).model == "by-seat"
    assert seat_route("civil", "defendant_lawyer", is_target=True).model == "by-target"
    assert seat_route("civil", "defendant_lawyer", is_target=False).model == "by-role"
    assert seat_route("criminal", "attorney", is_target=False).model == "by-role", "defence counsel is a lawyer"
    settings.LEGALSIM_MODEL = "default-model"
    assert seat_route("civil", "judge", is_target=False).model == "default-model"


def test_a_seed_is_sent_when_set(openai_settings, llm_server, capsys, db):
    openai_settings.LEGALSIM_SEED = 7
    cases_import(paths=[DEMO_CASES / "zh-criminal-dangerous-driving.json"])
    call_command("simulate", "zh-criminal-dangerous-driving", "--backend", "openai", "--json", "--until", "preparation")
    assert {request.get("seed") for request in llm_server.requests} == {7}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("{judge: x}", "must be a JSON object"),
        ('["judge"]', "must be a JSON object from seat ids or roles"),
        ('{"Judge": "m"}', "Judge: is not a seat id or role"),
        ('{"judge": 3}', "judge: must be a model name or an object"),
        ('{"judge": {"model": "m", "url": "http://x"}}', "judge: unknown field 'url'"),
        ('{"judge": {"base_url": "http://x"}}', "judge: model is required"),
        ('{"judge": {"model": ""}}', "judge: model must be a non-empty string"),
        ('{"judge": {"model": "m", "base_url": "127.0.0.1:8001"}}', "judge: base_url must be an http(s) URL"),
        (
            '{"judge": {"model": "m", "api_key_env": "LEGALSIM_TEST_NO_SUCH_KEY"}}',
            "LEGALSIM_TEST_NO_SUCH_KEY, which is not set",
        ),
    ],
)
def test_a_malformed_value_is_refused_with_its_place(monkeypatch, raw, message):
    monkeypatch.setenv("LEGALSIM_SEAT_MODELS", raw)
    with pytest.raises(ImproperlyConfigured, match="LEGALSIM_SEAT_MODELS") as error:
        env_seat_models("LEGALSIM_SEAT_MODELS")
    assert message in str(error.value)


def test_a_key_from_the_environment_is_read_from_the_variable_named(monkeypatch):
    monkeypatch.setenv("JUDGE_SERVER_KEY", "sk-judge")
    monkeypatch.setenv(
        "LEGALSIM_SEAT_MODELS", '{"judge": {"model": "m", "api_key_env": "JUDGE_SERVER_KEY"}, "client": "c"}'
    )
    assert env_seat_models("LEGALSIM_SEAT_MODELS") == {
        "judge": {"model": "m", "base_url": "", "api_key": "sk-judge"},
        "client": {"model": "c", "base_url": "", "api_key": ""},
    }


def test_a_key_naming_no_seat_or_role_is_refused(settings):
    settings.LEGALSIM_SEAT_MODELS = {"juge": {"model": "m"}}
    with pytest.raises(ImproperlyConfigured, match="juge: is not a seat id or role"):
        seat_models_check()


def test_a_bad_value_stops_start_up():
    clean = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "LEGALSIM_"))}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={**clean, "DJANGO_SETTINGS_MODULE": "legalsim.settings", "LEGALSIM_SEAT_MODELS": '{"juge": "m"}'},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0 and "ImproperlyConfigured: LEGALSIM_SEAT_MODELS: juge" in result.stderr
