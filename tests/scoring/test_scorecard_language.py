"""A Chinese student reads the scorecard of a Chinese case in Chinese: the rule-based scorer's
reasons and the items' names translated, and deductions that say the same of the same line
merged (one line, "×4"), those that differ named by their question, phase or field."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from legalsim.roles import Role
from scoring.names import capability_name, item_name
from scoring.reasons import reason_shown
from scoring.selectors import deductions_merged
from tests.conftest import DEMO_CASES
from tests.scoring.test_nonsense import Typist, played
from tests.users import person
from trials.models import Case, Seat, Trial
from trials.services import cases_import

pytestmark = pytest.mark.django_db
CASE = "zh-civil-private-lending"
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def scorecard_in_chinese(typed: str) -> str:
    """The scorecard page of a finished trial of the Chinese case in which the student, at
    plaintiff's counsel, typed ``typed`` at every turn and in every section."""
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    case = json.loads((DEMO_CASES / f"{CASE}.json").read_text(encoding="utf-8"))
    state = played(case, "plaintiff_lawyer", Typist([typed], "zh"))
    trial = Trial.objects.create(
        case=Case.objects.get(pk=CASE),
        procedure="civil",
        target_side="plaintiff",
        backend="scripted",
        state=state.to_dict(),
        status=Trial.Status.FINISHED,
    )
    student = person("student", Role.STUDENT)
    Seat.objects.create(trial=trial, seat="plaintiff_lawyer", user=student)
    client = Client()
    client.force_login(student)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    response = client.get(f"/trials/{trial.pk}/scorecard/", HTTP_HOST="127.0.0.1")
    assert response.status_code == 200
    return response.content.decode()


def shown(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def test_a_chinese_scorecard_has_no_english_reasons_or_names_and_no_line_said_twice():
    card = scorecard_in_chinese("asdf")
    deductions = [shown(line) for line in re.findall(r'<li class="deduction">(.*?)</li>', card, re.DOTALL)]
    assert deductions
    english = [line for line in deductions if LATIN_WORD.search(line)]
    assert not english, english
    assert any("没有本案的法律内容" in line for line in deductions)
    assert len(deductions) == len(set(deductions)), "every deduction says something the others do not"
    consultation = [line for line in deductions if line.startswith("争点识别")]
    assert consultation and all("×4" in line for line in consultation), consultation
    assert any("问题 1 · 法律关系、适用规则、风险、法律意见" in line for line in consultation), consultation

    reveal = card[card.index('id="reveal"') :]
    headings = [shown(heading) for heading in re.findall(r"<h3>(.*?)</h3>", reveal, re.DOTALL)]
    assert "起诉状撰写 · 诉讼请求" in headings, headings
    assert not [heading for heading in headings if LATIN_WORD.search(heading)], headings


def test_items_are_named_by_their_field_in_a_pleading_and_by_their_phase_at_a_hearing():
    with translation.override("zh-hans"):
        assert item_name("CD.evidence", "zh") == "起诉状撰写 · 列明的证据"
        assert item_name("FIT.evidence.legal_reasoning", "zh") == "一审庭审 · 举证质证 · 法律论证"
        assert item_name("CD.party.defendant", "zh") == "起诉状撰写 · 写明被告"
    with translation.override("en"):
        assert item_name("DD.claims", "en") == "Drafting the defence · Defences pleaded"
        assert item_name("LC.q2.risk", "en") == "Legal consultation · question 2 · Risk"


def test_deductions_that_say_the_same_of_the_same_line_are_one_and_the_others_stay_apart():
    link = [{"turn": 5, "stage": "LC", "phase": "questions"}]
    items = [
        {
            "stage": "LC",
            "capability": "issue_spotting",
            "id": f"LC.q1.{part}",
            "score": 0.0,
            "reason": "x",
            "links": link,
        }
        for part in ("relationship", "rule")
    ] + [
        {"stage": "LC", "capability": "issue_spotting", "id": "LC.q1.risk", "score": 0.5, "reason": "y", "links": link},
        {
            "stage": "LC",
            "capability": "issue_spotting",
            "id": "LC.q1.advice",
            "score": 1.0,
            "reason": "z",
            "links": link,
        },
    ]
    with translation.override("en"):
        merged = deductions_merged(items, "en")
    assert [(line["count"], line["detail"]) for line in merged] == [
        (2, "question 1 · Legal relationship, Applicable rule"),
        (1, "question 1 · Risk"),
    ]


def test_the_grounding_and_capping_notes_read_in_chinese_with_their_numbers():
    stored = (
        "covers 9 of 9 reference terms; little of this case (2 case terms, 5 others): counted at 23%; "
        "capped at the mean of the document's content fields"
    )
    with translation.override("zh-hans"):
        assert reason_shown(stored, capability_name) == (
            "涵盖参考答案 9 个要点词中的 9 个; 与本案关联不足（本案用语 2 个，其他用语 5 个）：按 23% 计分; "
            "不超过文书各内容项得分的平均值"
        )
        assert reason_shown("names Liu Fang; names none of this case's parties", capability_name) == (
            "写明了 Liu Fang; 未写明本案任何当事人"
        )
