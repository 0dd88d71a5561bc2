"""Pages show words, not the case file's keys, in either interface language: the sentencing
recommendation as a court writes it, with its units; the parties without "(person)"; a
criminal defendant as 被告人; the objection grounds in the reader's language; the admin's
model names translated."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.trials.test_plain_language import visible
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import

pytestmark = pytest.mark.django_db
LANGUAGES = ("en", "zh-hans")
RECOMMENDATION = {
    "en-criminal-telecom-fraud": ["36 months' imprisonment", "a fine of RMB 20,000"],
    "zh-criminal-dangerous-driving": ["缓刑3个月", "罚金人民币5000元"],
}
RAW_KEYS = re.compile(r"Imprisonment months|Probation (?:\d|no|yes)|Fine \d")


def defence_counsel_trial(case_id: str) -> Trial:
    """The case's hearing at its evidence stage, with a student as defence counsel."""
    cases_import(paths=[DEMO_CASES / f"{case_id}.json"])
    student = person("student", Role.STUDENT)
    return prepared_trial(case=Case.objects.get(pk=case_id), humans={"attorney": student}, stages=["evidence"])


def reader(user, language: str) -> Client:
    """A signed-in client whose interface language is set with the header's switch."""
    client = Client()
    client.force_login(user)
    assert client.post("/i18n/language/", {"language": language, "next": "/"}).status_code == 302
    return client


def page(client: Client, name: str, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("case_id", RECOMMENDATION)
def test_the_sentencing_recommendation_reads_as_a_sentence_with_its_units(case_id, language):
    trial = defence_counsel_trial(case_id)
    client = reader(trial.seats.get(seat="attorney").user, language)
    for name, arg in (("trials:case_detail", case_id), ("trials:trial_room", trial.pk)):
        text = visible(page(client, name, arg))
        assert all(words in text for words in RECOMMENDATION[case_id]), (name, RECOMMENDATION[case_id])
        assert not RAW_KEYS.search(text), (name, RAW_KEYS.search(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_parties_are_listed_by_name_and_particulars_without_their_kind(language):
    cases_import(paths=[DEMO_CASES / "en-criminal-telecom-fraud.json", DEMO_CASES / "zh-civil-private-lending.json"])
    client = reader(person("student", Role.STUDENT), language)
    for case_id in ("en-criminal-telecom-fraud", "zh-civil-private-lending"):
        text = visible(page(client, "trials:case_detail", case_id))
        assert "(person)" not in text and "(organization)" not in text, case_id
    criminal = page(client, "trials:case_detail", "en-criminal-telecom-fraud")
    assert "<strong>Defendant</strong>: Zhou Wei — male, born 2001" in criminal


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_criminal_defendant_is_被告人_where_a_civil_one_is_被告(language):
    trial = defence_counsel_trial("zh-criminal-dangerous-driving")
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    client = reader(trial.seats.get(seat="attorney").user, language)
    case_page = page(client, "trials:case_detail", "zh-criminal-dangerous-driving")
    assert "<strong>被告人</strong>: 刘某某" in case_page, "the parties"
    assert "<dt>被告人</dt>" in case_page and "<dt>被告</dt>" not in case_page, "the brief's evidence and goals"
    room = page(client, "trials:trial_room", trial.pk)
    assert "<dt>被告人</dt>" in room and "<dt>被告</dt>" not in room, "the case file in the room"
    assert "<strong>被告</strong>:" in page(client, "trials:case_detail", "zh-civil-private-lending")


@pytest.mark.parametrize(
    ("case_id", "language", "shown", "not_shown"),
    [
        ("en-criminal-telecom-fraud", "zh-hans", "诱导性发问", "leading question"),
        ("zh-criminal-dangerous-driving", "en", "leading question", "诱导性发问"),
    ],
)
def test_the_objection_grounds_are_in_the_interface_language(case_id, language, shown, not_shown):
    trial = defence_counsel_trial(case_id)
    room = page(reader(trial.seats.get(seat="attorney").user, language), "trials:trial_room", trial.pk)
    menu = re.search(r'<div id="objection-grounds".*?</div>', room, re.DOTALL).group(0)
    assert f'data-ground="leading">{shown}</button>' in menu and not_shown not in menu


@pytest.mark.parametrize(
    ("language", "names", "untranslated"),
    [
        (
            "zh-hans",
            ["庭审", "案例", "课程", "作业", "运行轨迹", "评分任务", "评审标记", "人工标注", "课堂"],
            ["Judge flags"],
        ),
        ("en", ["Trials", "Cases", "Courses", "Enrolments", "Trajectories", "Rating assignments", "Judge flags"], []),
    ],
)
def test_the_admin_names_the_models_in_the_interface_language(language, names, untranslated):
    text = visible(page(reader(person("root", Role.ADMIN), language), "admin:index"))
    assert all(name in text for name in names), [name for name in names if name not in text]
    assert not any(name in text for name in untranslated)
