"""Rubrics in two languages (issue #18): the rubric file's language maps, the rater's
questionnaire in the interface language with the trajectory in its own, and an LLM judge that
prompts in the case's language."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from annotation.models import Assignment, Rubric, Study
from annotation.rubric import RUBRIC_DIR, RubricError, rubric_load, rubric_parse
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.models import Case
from trials.services import cases_import, trial_simulate

LEGALWORLD = rubric_load(RUBRIC_DIR / "legalworld16.json")
SIMCOURT = rubric_load(RUBRIC_DIR / "simcourt30.json")
OLD_STYLE = {
    "id": "tiny",
    "title": "A rubric from before the language maps",
    "scale": {"min": 1, "max": 5},
    "groups": [
        {"id": "g", "title": "Group", "rows": [{"id": "r", "title": "Row", "items": [{"id": "r.x", "title": "X"}]}]}
    ],
}


def test_a_rubric_file_without_language_maps_stays_valid_and_reads_the_same_in_any_language():
    rubric = rubric_parse(copy.deepcopy(OLD_STYLE))
    assert rubric.languages == ("en",)
    chinese = rubric.localized("zh-hans")
    assert (chinese.title, chinese.groups, chinese.rows) == (rubric.title, rubric.groups, rubric.rows)


def test_the_shipped_rubrics_speak_chinese_with_the_papers_terms():
    assert LEGALWORLD.languages == SIMCOURT.languages == ("en", "zh")
    legalworld = LEGALWORLD.localized("zh-hans")
    assert dict(legalworld.groups) == {"stage_authenticity": "阶段真实性", "role_consistency": "角色一致性"}
    assert legalworld.item_ids == LEGALWORLD.item_ids
    assert [anchor["range"] for anchor in legalworld.data["anchors"]["stage_authenticity"]] == [
        "9-10",
        "7-8",
        "5-6",
        "3-4",
        "0-2",
    ]
    assert all("i18n" not in json.dumps(node) for node in legalworld.data["groups"])
    simcourt = SIMCOURT.localized("zh")
    assert dict(simcourt.groups) == {
        "investigation": "法庭调查",
        "evidence": "举证质证",
        "debate": "法庭辩论",
        "overall": "整体表现",
    }
    assert {row.title for row in simcourt.rows} >= {"法庭调查 · 审判长", "举证质证 · 公诉人", "法庭辩论 · 辩护人"}
    assert "A、B" in simcourt.data["instructions"]
    assert LEGALWORLD.localized("en").title == LEGALWORLD.title == "LegalWorld human evaluation (16 items)"


def test_a_translation_falls_back_field_by_field_to_the_rubric_s_own_text():
    data = copy.deepcopy(OLD_STYLE)
    data["groups"][0]["rows"][0]["items"][0] |= {"description": "Explain X", "i18n": {"zh": {"title": "某项"}}}
    item = rubric_parse(data).localized("zh-hans").data["groups"][0]["rows"][0]["items"][0]
    assert (item["title"], item["description"]) == ("某项", "Explain X")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(i18n=["zh"]), "i18n: must be an object from language codes"),
        (lambda d: d.update(i18n={"zh!": {"title": "x"}}), "i18n.zh!: is not a language code"),
        (lambda d: d.update(i18n={"en": {"title": "x"}}), "i18n.en: is the rubric's own language (en)"),
        (lambda d: d.update(language=7), "language: must be a language code"),
        (
            lambda d: d["groups"][0].update(i18n={"zh": {"description": "x"}}),
            "groups[0].i18n.zh.description: cannot be translated here (only title)",
        ),
        (
            lambda d: d["groups"][0]["rows"][0]["items"][0].update(i18n={"zh": {"title": " "}}),
            "groups[0].rows[0].items[0].i18n.zh.title: must be a non-empty string",
        ),
        (
            lambda d: d.update(anchors={"g": [{"range": "1-5", "text": "t", "i18n": {"zh": "文本"}}]}),
            "anchors.g[0].i18n.zh: must be an object with text",
        ),
    ],
)
def test_a_bad_language_map_is_refused_naming_its_place(change, message):
    data = copy.deepcopy(OLD_STYLE)
    change(data)
    with pytest.raises(RubricError) as refused:
        rubric_parse(data)
    assert message in str(refused.value)


@pytest.mark.django_db
def test_import_rubric_reports_every_bad_translation(tmp_path):
    data = copy.deepcopy(OLD_STYLE)
    data["i18n"] = {"zh": {"title": "", "summary": "x"}}
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_rubric", str(path))
    assert "i18n.zh.title: must be a non-empty string" in str(refused.value)
    assert "i18n.zh.summary: cannot be translated here (only title, instructions)" in str(refused.value)
    assert not Rubric.objects.filter(pk="tiny").exists()


@pytest.fixture
def english_assignment(db, default_rubric):
    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
    trajectory = trial_simulate(case=Case.objects.get(), backend="scripted").trajectory
    study = Study.objects.create(
        name="bilingual", rubric_id="legalworld16", trajectory_ids=[trajectory.id], raters_per_trajectory=1
    )
    study.raters.set([person("rater", Role.RATER)])
    study_plan(study=study)
    return Assignment.objects.get()


def test_a_chinese_rater_reads_the_rubric_in_chinese_and_the_trajectory_in_english(english_assignment):
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(english_assignment.rater)
    page = client.get(f"/rate/{english_assignment.pk}/").content.decode()
    assert '<html lang="zh-hans">' in page
    assert "阶段真实性" in page and "程序合规性" in page and "程序完整或基本完整" in page
    assert "Stage authenticity" not in page and "Procedural compliance" not in page
    assert 'class="trajectory" lang="en"' in page
    strings = page.split('id="questionnaire-strings" type="application/json">', 1)[1].split("</script>", 1)[0]
    assert json.loads(strings)["saving"] == "正在保存…"
    stage = client.get(f"/rate/{english_assignment.pk}/stage/0/").content.decode()
    assert 'lang="en"' in stage


def test_an_english_rater_keeps_the_english_rubric(english_assignment):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(english_assignment.rater)
    page = client.get(f"/rate/{english_assignment.pk}/").content.decode()
    assert "Stage authenticity" in page and "Procedural compliance" in page and "阶段真实性" not in page
