"""Trials finish with models that miss formats and servers that report no usage (issue #19
item 1 and 2): a decision is read from the words or taken by default and listed as a
warning, a document left blank is assembled from what its seat said, and tokens are
estimated and marked so. Through the real openai client and a loopback server."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.llm_server import LoopbackLLM, default_brain
from tests.users import person
from trials.models import Trial
from trials.services import cases_import

pytestmark = pytest.mark.django_db
DOCUMENT_REQUESTS = ("Now write the complete", "现在请写出完整")


def prose_brain(decision_words: str):
    """A weak model: it answers a decision in prose (never a ``DECISION:`` line) with
    ``decision_words``, and leaves documents blank."""

    def brain(request: dict) -> str | dict:
        last = request["messages"][-1].get("content") or ""
        if "DECISION:" in last:
            return decision_words
        if any(marker in last for marker in DOCUMENT_REQUESTS):
            return ""
        return default_brain(request)

    return brain


SAYS_NO = "我方不同意调解，请求法院依法判决。"


@pytest.fixture
def llm_server():
    with LoopbackLLM(prose_brain(SAYS_NO), usage=False) as server:
        yield server


def simulate(capsys, case_id: str) -> dict:
    call_command("simulate", case_id, "--backend", "openai", "--json")
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("words", "what"),
    [
        (SAYS_NO, "no DECISION line; 'decline' read from the model's words"),
        ("本案事实清楚，证据充分。", "no DECISION line and no clear answer in the words; 'decline' taken by default"),
    ],
)
def test_a_life_cycle_finishes_with_its_defaulted_decisions_listed(openai_settings, llm_server, capsys, words, what):
    llm_server.brain = prose_brain(words)
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    result = simulate(capsys, "zh-civil-private-lending")
    trial = Trial.objects.get(pk=result["trial_id"])
    assert trial.status == Trial.Status.FINISHED
    assert [stage["stage"] for stage in result["stages"]][-1] == "SIT"
    mediation = [turn for turn in trial.engine_state.turns if turn.act == "answer_mediation"]
    assert mediation and all(turn.decision == "decline" and turn.text == words for turn in mediation)
    expected = [{"stage": turn.stage, "seat": turn.seat, "what": f"answer_mediation: {what}"} for turn in mediation]
    assert result["warnings"] == expected


def test_the_room_lists_defaulted_decisions_for_instructors_only(openai_settings, llm_server, capsys, client):
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    trial_id = simulate(capsys, "zh-civil-private-lending")["trial_id"]
    room = reverse("trials:trial_room", args=[trial_id])
    client.force_login(person("ines", Role.INSTRUCTOR))
    page = client.get(room, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    box = page[page.index('id="model-warnings"') :].split("</section>")[0]
    assert box.count("read from its words: mediation declined") == 4
    assert box.count("一审庭审 · ") == 2 and box.count("二审庭审 · ") == 2, "stages named in the case's language"
    student = person("sam", Role.STUDENT)
    trial = Trial.objects.get(pk=trial_id)
    trial.seats.filter(seat="plaintiff_lawyer").update(user=student)
    client.force_login(student)
    assert 'id="model-warnings"' not in client.get(room).content.decode()


def test_a_document_the_model_left_blank_is_assembled_from_what_its_seat_said(openai_settings, llm_server, capsys):
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    result = simulate(capsys, "zh-civil-private-lending")
    state = Trial.objects.get(pk=result["trial_id"]).engine_state
    complaint = next(artifact for artifact in state.artifacts if artifact.kind == "complaint")
    said = [
        turn.text
        for turn in state.turns
        if turn.stage == complaint.stage and turn.seat == complaint.author_seat and turn.text != complaint.text
    ]
    assert said and complaint.text == "\n\n".join(said)


def test_tokens_a_server_did_not_report_are_estimated_and_marked(openai_settings, llm_server, capsys):
    cases_import(paths=[DEMO_CASES / "zh-criminal-dangerous-driving.json"])
    result = simulate(capsys, "zh-criminal-dangerous-driving")
    trial = Trial.objects.get(pk=result["trial_id"])
    assert trial.status == Trial.Status.FINISHED
    calls = list(trial.llm_calls.all())
    assert calls and all(call.tokens_estimated and call.prompt_tokens > 0 for call in calls)
    assert result["tokens"] == result["tokens_estimated"] == trial.tokens > 0
    assert trial.tokens == sum(call.prompt_tokens + call.completion_tokens for call in calls)


def test_tokens_a_server_reported_are_not_marked_estimated(openai_settings, capsys):
    cases_import(paths=[DEMO_CASES / "zh-criminal-dangerous-driving.json"])
    with LoopbackLLM() as reporting:
        openai_settings.OPENAI_BASE_URL = reporting.base_url
        result = simulate(capsys, "zh-criminal-dangerous-driving")
    assert result["tokens"] > 0 and result["tokens_estimated"] == 0
    assert not Trial.objects.get(pk=result["trial_id"]).llm_calls.filter(tokens_estimated=True).exists()
