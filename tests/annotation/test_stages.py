"""N/A for absent stages: a trajectory that never reached the appeal shows the AD/AR and SIT
items as not applicable, takes no score for them, and the LLM judge is not asked for them."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from annotation.models import Assignment, Rating, Rubric, Study, Trajectory
from annotation.stages import stage_units
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.users import person

pytestmark = pytest.mark.django_db

ABSENT = (
    "AD_AR.procedural_compliance",
    "AD_AR.process_coherence",
    "SIT.procedural_compliance",
    "SIT.process_coherence",
)


def trajectory(trajectory_id: str, *stages: str) -> Trajectory:
    return Trajectory.objects.create(
        id=trajectory_id,
        case_id="case-1",
        procedure="civil",
        language="en",
        title=f"Trajectory {trajectory_id}",
        stages=[
            {
                "stage": stage,
                "turns": [
                    {
                        "seq": 1,
                        "phase": "opening",
                        "role": "judge",
                        "side": "",
                        "speaker": "Judge",
                        "author": "agent",
                        "text": f"{stage} begins",
                    }
                ],
                "artifacts": [],
            }
            for stage in stages
        ],
    )


def items() -> tuple[str, ...]:
    return Rubric.objects.get(pk="legalworld16").definition.item_ids


@pytest.fixture
def first_instance_only() -> Assignment:
    trajectory("no-appeal", "LC", "CD", "FIT")
    study = Study.objects.create(
        name="first", rubric_id="legalworld16", raters_per_trajectory=1, trajectory_ids=["no-appeal"]
    )
    study.raters.set([person("rita", Role.RATER, password="pw-123456")])
    study_plan(study=study)
    return Assignment.objects.get()


def test_an_appeal_decision_alone_is_no_appeal_stage_and_units_stand_for_themselves():
    assert stage_units("civil", ["LC", "CD", "FIT", "AD-Det"]) == {"LC", "CD_DD", "FIT"}
    assert stage_units("civil", ["LC", "DD", "FIT", "AD-Det", "AR", "SIT"]) == {"LC", "CD_DD", "FIT", "AD_AR", "SIT"}
    assert stage_units("civil", ["LC", "CD_DD", "AD_AR"]) == {"LC", "CD_DD", "AD_AR"}


def test_the_form_shows_absent_stages_as_na_and_submits_without_them(client, first_instance_only):
    assignment = first_instance_only
    client.login(username="rita", password="pw-123456")
    page = client.get(reverse("annotation:assignment", args=[assignment.pk])).content.decode()
    for item in ABSENT:
        assert f'id="na-{item}"' in page and f'name="score__{item}"' not in page
    for item in set(items()) - set(ABSENT):
        assert f'name="score__{item}"' in page
    assert "4 items are marked N/A" in page

    applicable = [item for item in items() if item not in ABSENT]
    form = {f"score__{item}": "6" for item in applicable} | {f"reason__{item}": "seen" for item in applicable}
    response = client.post(reverse("annotation:assignment_submit", args=[assignment.pk]), form)
    assert response.status_code == 302
    stored = {rating.item: rating for rating in Rating.objects.filter(rater="rita")}
    assert set(stored) == set(items())
    assert all(stored[item].not_applicable for item in ABSENT)
    assert {stored[item].score for item in applicable} == {6.0}
    assert {rating.study_id for rating in stored.values()} == {assignment.study_id}


def test_scores_sent_for_absent_stages_anyway_are_dropped(client, first_instance_only):
    """An API client that sends all 16 items: the absent stages' answers are not kept."""
    assignment = first_instance_only
    client.login(username="rita", password="pw-123456")
    form = {f"score__{item}": "9" for item in items()} | {f"reason__{item}": "all of it" for item in items()}
    assert client.post(reverse("annotation:assignment_submit", args=[assignment.pk]), form).status_code == 302
    assert set(Rating.objects.filter(score__isnull=True).values_list("item", flat=True)) == set(ABSENT)
    assignment.refresh_from_db()
    assert not set(assignment.draft) & set(ABSENT)


def test_a_questionnaire_missing_a_present_stage_is_still_refused(client, first_instance_only):
    assignment = first_instance_only
    client.login(username="rita", password="pw-123456")
    present = [item for item in items() if item not in ABSENT and item != "FIT.process_coherence"]
    form = {f"score__{item}": "6" for item in present} | {f"reason__{item}": "seen" for item in present}
    response = client.post(reverse("annotation:assignment_submit", args=[assignment.pk]), form)
    assert response.status_code == 400 and "give an integer from 0 to 10" in response.content.decode()
    assert not Rating.objects.exists()


def test_the_judge_is_neither_asked_nor_stores_absent_stages(openai_settings, llm_server, tasks_in_process):
    trajectory("no-appeal", "LC", "CD", "FIT", "AD-Det")
    trajectory("appealed", "LC", "CD", "FIT", "AD-Det", "AD", "SIT")
    asked: list[str] = []

    def brain(request: dict) -> str:
        asked.append(request["messages"][0]["content"])
        return json.dumps({"scores": {item: {"score": 5, "reason": "fine"} for item in items()}})

    llm_server.brain = brain
    openai_settings.LEGALSIM_MODEL_JUDGE = "judge-model"
    call_command("judge_trajectories")
    by_trajectory = {
        tid: set(Rating.objects.filter(trajectory_id=tid, source="llm").values_list("item", flat=True))
        for tid in ("no-appeal", "appealed")
    }
    assert by_trajectory["appealed"] == set(items())
    assert by_trajectory["no-appeal"] == set(items()) - set(ABSENT)
    no_appeal_prompt = next(prompt for prompt in asked if "SIT.process_coherence" not in prompt)
    assert "AD_AR.procedural_compliance" not in no_appeal_prompt and "FIT.process_coherence" in no_appeal_prompt
    assert sum("SIT.process_coherence" in prompt for prompt in asked) == 1
