"""Rating in comfort: pointwise raters read blind, the stage text is not muted, the page says
how many items are answered ("n / 16", N/A ones not counted), the anchors are shown beside the
scales, each study has an instructions page linked from the queue and the questionnaire, the
queue shows deadlines, and the LLM judge button says why it is off without a model server."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from annotation.models import Assignment, Job, Rubric, Study, Trajectory
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db
ABSENT = {
    "AD_AR.procedural_compliance",
    "AD_AR.process_coherence",
    "SIT.procedural_compliance",
    "SIT.process_coherence",
}


def turn(seq: int, author: str, text: str) -> dict:
    return {
        "seq": seq,
        "phase": "opening",
        "role": "lawyer",
        "side": "plaintiff",
        "speaker": "Counsel",
        "author": author,
        "text": text,
    }


@pytest.fixture
def assignment() -> Assignment:
    """A trajectory without an appeal (its AD/AR and SIT items are N/A) whose first turn a
    person wrote, in a study with instructions and a deadline, assigned to rita."""
    Trajectory.objects.create(
        id="no-appeal",
        case_id="case-1",
        procedure="civil",
        language="en",
        title="A lease",
        stages=[
            {
                "stage": stage,
                "turns": [turn(1, "human", f"{stage} by a person"), turn(2, "agent", f"{stage} by an agent")],
                "artifacts": [],
            }
            for stage in ("LC", "CD", "FIT")
        ],
    )
    study = Study.objects.create(
        name="comfort",
        rubric_id="legalworld16",
        raters_per_trajectory=1,
        trajectory_ids=["no-appeal"],
        instructions="Read <b>every</b> stage first.\nThen score.",
        deadline=timezone.now() + timedelta(days=3),
    )
    study.raters.set([person("rita", Role.RATER)])
    study_plan(study=study)
    return Assignment.objects.get()


def rater(assignment: Assignment) -> Client:
    client = Client()
    client.force_login(assignment.rater)
    return client


def applicable() -> list[str]:
    return [item for item in Rubric.objects.get(pk="legalworld16").definition.item_ids if item not in ABSENT]


def test_pointwise_raters_read_blind_on_the_page_and_through_the_api(assignment):
    client = rater(assignment)
    stage = client.get(reverse("annotation:assignment_stage", args=[assignment.pk, 0])).content.decode()
    assert "LC by a person" in stage and "LC by an agent" in stage
    assert 'class="turn"' in stage and "human" not in stage, "nothing tells a person's turn from an agent's"
    detail = client.get(f"/api/assignments/{assignment.pk}/").content.decode()
    assert "LC by a person" in detail and '"author"' not in detail


def test_the_stage_text_is_not_muted(assignment):
    page = rater(assignment).get(reverse("annotation:assignment", args=[assignment.pk])).content.decode()
    panel = re.search(r'<div id="stage-panel" class="([^"]*)"', page)
    assert panel and "muted" not in panel.group(1).split()


def test_the_progress_counts_answered_items_of_those_to_answer(assignment):
    client = rater(assignment)
    url = reverse("annotation:assignment", args=[assignment.pk])
    assert '<strong id="progress-done">0</strong> / 12 answered' in client.get(url).content.decode()
    first, second, third = applicable()[:3]
    draft = {f"score__{first}": "7", f"reason__{first}": "fine", f"score__{second}": "4", f"reason__{second}": "thin"}
    client.post(reverse("annotation:assignment_draft", args=[assignment.pk]), draft | {f"score__{third}": "5"})
    assert '<strong id="progress-done">2</strong> / 12 answered' in client.get(url).content.decode(), "no reason yet"
    answers = {f"score__{item}": "6" for item in applicable()} | {f"reason__{item}": "seen" for item in applicable()}
    client.post(reverse("annotation:assignment_submit", args=[assignment.pk]), answers)
    assert '<strong id="progress-done">12</strong> / 12 answered' in client.get(url).content.decode()


def test_the_anchors_are_shown_beside_the_scales_not_folded(assignment):
    page = rater(assignment).get(reverse("annotation:assignment", args=[assignment.pk])).content.decode()
    assert '<details class="small anchors"' not in page
    anchors = re.search(r'<div class="small anchors" data-anchors-of="stage_authenticity">(.*?)</div>', page, re.S)
    assert anchors and 'data-range="7-8"' in anchors.group(1) and "mostly complete" in anchors.group(1)
    scales = re.findall(r'data-item="([^"]+)" data-group="([^"]+)"', page)
    assert {item for item, _group in scales} == set(applicable())
    assert page.count('class="anchor-hint small"') == len(applicable())
    assert "js/questionnaire_aids.js" in page


def test_each_study_has_an_instructions_page_linked_from_the_queue_and_the_questionnaire(assignment):
    client = rater(assignment)
    url = reverse("annotation:study_instructions", args=[assignment.study_id])
    queue = client.get(reverse("annotation:rater_queue")).content.decode()
    questionnaire = client.get(reverse("annotation:assignment", args=[assignment.pk])).content.decode()
    assert f'href="{url}"' in queue and f'href="{url}"' in questionnaire
    page = client.get(url).content.decode()
    assert "Read &lt;b&gt;every&lt;/b&gt; stage first.<br>Then score." in page, "the instructor's text, escaped"
    assert "Procedure is mostly complete, with light omissions or abrupt transitions." in page, "the anchors"
    assert "Does the stage cover the procedural steps" in page, "the items' guidance"
    assert "Please submit everything by" in page
    outsider = Client()
    outsider.force_login(person("other-rater", Role.RATER))
    assert outsider.get(url).status_code == 404
    teacher = Client()
    teacher.force_login(person("boss", Role.INSTRUCTOR))
    assert teacher.get(url).status_code == 200


def test_the_queue_shows_each_studys_deadline_and_one_that_has_passed(assignment):
    client = rater(assignment)
    when = timezone.localtime(assignment.study.deadline).strftime("%Y-%m-%d %H:%M")
    assert f"due {when} (" in client.get(reverse("annotation:rater_queue")).content.decode()
    Study.objects.filter(pk=assignment.study_id).update(deadline=timezone.now() - timedelta(hours=1))
    assert "has passed" in client.get(reverse("annotation:rater_queue")).content.decode()


def test_the_queue_names_the_case_of_each_trajectory(assignment):
    Trajectory.objects.create(
        id="sale-1", case_id="case-2", procedure="civil", language="zh", title="买卖合同纠纷", stages=[]
    )
    Assignment.objects.create(study=assignment.study, trajectory_id="sale-1", rater=assignment.rater)
    queue = rater(assignment).get(reverse("annotation:rater_queue")).content.decode()
    rows = re.findall(r"<tr><td>comfort</td><td>(.*?)</td>", queue)
    assert sorted(rows) == [
        '<span lang="en">A lease</span><br><span class="small muted">no-appeal</span>',
        '<span lang="zh">买卖合同纠纷</span><br><span class="small muted">sale-1</span>',
    ]


def test_the_judge_button_is_off_with_the_reason_without_a_model_server(assignment, settings):
    client = Client()
    client.force_login(person("boss", Role.INSTRUCTOR))
    dashboard = reverse("annotation:study_dashboard", args=[assignment.study_id])
    settings.OPENAI_BASE_URL = ""
    page = client.get(dashboard).content.decode()
    button = re.search(r'<button type="submit"([^>]*)>Run the LLM judge', page)
    assert button and "disabled" in button.group(1)
    assert "no model server is connected to this site" in page
    refused = client.post(reverse("annotation:study_judge", args=[assignment.study_id]), follow=True)
    assert not Job.objects.exists() and "no model server is connected" in refused.content.decode()
    settings.OPENAI_BASE_URL = "http://127.0.0.1:9/v1"
    page = client.get(dashboard).content.decode()
    button = re.search(r'<button type="submit"([^>]*)>Run the LLM judge', page)
    assert button and "disabled" not in button.group(1) and "No model server is configured" not in page


def test_the_stage_tabs_are_named_in_words_not_codes(assignment):
    """Issue 32 item 12: the rater's stage tabs read "FIT", "AD-Det"."""
    page = rater(assignment).get(reverse("annotation:assignment", args=[assignment.pk])).content.decode()
    tabs = re.findall(r'role="tab"[^>]*>([^<]+)</button>', page)
    assert tabs and not any(re.fullmatch(r"[A-Z]{2,3}(-Det)?", tab) for tab in tabs), tabs
