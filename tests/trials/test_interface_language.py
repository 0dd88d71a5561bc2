"""The trials app speaks the interface's language (chosen per person, or the browser's),
while a case's own words, and the names of its seats and stages, stay in the case's language."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from legalsim.json_input import Problem
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.caselibrary.authoring import problem_shown, validator_message
from trials.models import Case
from trials.services import cases_import
from trials.views import ROOM_STRINGS

pytestmark = pytest.mark.django_db


@pytest.fixture
def chinese_trial():
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    student = person("student", Role.STUDENT)
    trial = prepared_trial(
        case=Case.objects.get(pk="zh-civil-private-lending"), humans={"plaintiff_lawyer": student}, stages=["FIT"]
    )
    return trial, student


def page(user, name: str, args: list, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def room_strings(body: str) -> dict:
    found = re.search(r'<script id="room-strings" type="application/json">(.*?)</script>', body, re.DOTALL)
    assert found, "the room puts its script's words in a JSON data block"
    return json.loads(found.group(1))


def test_the_room_script_reads_its_words_from_the_page_in_the_interface_language(chinese_trial):
    trial, student = chinese_trial
    english = room_strings(page(student, "trials:trial_room", [trial.pk], "en"))
    chinese = room_strings(page(student, "trials:trial_room", [trial.pk], "zh-hans"))
    assert english.keys() == chinese.keys() == ROOM_STRINGS.keys()
    assert english["ended"] == "The trial has ended" and chinese["ended"] == "庭审已结束"
    assert chinese["actions"]["pause"] == "已暂停"
    for key, text in english.items():
        if isinstance(text, str):
            assert re.findall(r"%\(\w+\)s", text) == re.findall(r"%\(\w+\)s", chinese[key]), key


def test_the_room_marks_the_case_language_of_its_turns(chinese_trial):
    trial, student = chinese_trial
    body = page(student, "trials:trial_room", [trial.pk], "en")
    assert '<html lang="en"' in body and '<ol id="transcript" class="transcript" lang="zh">' in body
    assert "Waiting for your turn as 原告代理人" in body, "the seat is named in the case's language"
    chinese = page(student, "trials:trial_room", [trial.pk], "zh-hans")
    assert "等待轮到您发言（原告代理人）" in chinese and ">发言</button>" in chinese


def test_the_transcript_document_is_in_the_interface_language_its_turns_in_the_case_language(chinese_trial):
    trial, student = chinese_trial
    chinese = page(student, "trials:trial_transcript", [trial.pk], "zh-hans")
    assert '<html lang="zh-hans">' in chinese and ">打印</button>" in chinese
    english = page(student, "trials:trial_transcript", [trial.pk], "en")
    assert '<html lang="en">' in english and ">Print</button>" in english
    assert 'class="turn" id="turn-1" lang="zh"' in english


def test_a_validator_message_is_shown_in_the_interface_language_and_printed_in_english():
    problem = Problem("cases.jsonl", 3, "language", "must be one of zh, en, got 'fr'")
    assert validator_message(problem.message) == "must be one of zh, en, got 'fr'"
    assert str(problem) == "cases.jsonl:3: language: must be one of zh, en, got 'fr'", "the contract stays English"
    with translation.override("zh-hans"):
        assert problem_shown(problem) == "cases.jsonl:3: language: 必须是 zh, en 之一，实际为 'fr'"
        assert validator_message("is required") == "为必填项"
        assert validator_message("a message no table knows") == "a message no table knows"
