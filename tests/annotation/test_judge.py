"""The LLM judge through the real openai client against the loopback server."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command

from annotation.judge import STRICT
from annotation.models import JudgeFlag, Rating, Rubric
from tests.conftest import DEMO_CASES
from trials.models import Case
from trials.services import cases_import, trial_simulate

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_process(tasks_in_process):
    return tasks_in_process


def scores_reply(request: dict, score_of=lambda item: 7) -> str:
    items = Rubric.objects.get(pk="legalworld16").definition.item_ids
    return json.dumps({"scores": {item: {"score": score_of(item), "reason": f"{item} looks fine"} for item in items}})


@pytest.fixture
def trajectory_ids():
    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json", DEMO_CASES / "zh-civil-private-lending.json"])
    return [trial_simulate(case=case, backend="scripted").trajectory.id for case in Case.objects.order_by("pk")]


def test_judge_scores_are_stored_as_llm_ratings_and_enter_the_report(
    openai_settings, llm_server, trajectory_ids, tmp_path, capsys
):
    openai_settings.LEGALSIM_MODEL_JUDGE = "judge-model"
    llm_server.brain = scores_reply
    call_command("judge_trajectories")
    assert "scored 2, flagged for audit 0" in capsys.readouterr().out
    assert Rating.objects.filter(source="llm", rater="judge-model").count() == 32
    assert llm_server.requests[0]["model"] == "judge-model"
    assert "Anchors" in llm_server.requests[0]["messages"][0]["content"]

    humans = tmp_path / "humans.csv"
    humans.write_text(
        "trajectory_id,rubric,item,rater,source,score,reason\n"
        + "".join(
            f"{trajectory},legalworld16,FIT.process_coherence,ann,human,9,clear\n" for trajectory in trajectory_ids
        )
    )
    call_command("import_ratings", str(humans))
    out = tmp_path / "report.json"
    call_command("agreement_report", "--format", "json", "--out", str(out))
    report = json.loads(out.read_text())
    assert report["judge"] == "judge-model" and report["overall"]["n_pairs"] == 2
    assert report["overall"]["mean_diff"] == pytest.approx(2.0)


def test_an_unparsable_reply_gets_one_stricter_regeneration(openai_settings, llm_server, trajectory_ids):
    replies = iter(["The trial was very realistic overall.", None])
    llm_server.brain = lambda request: next(replies) or scores_reply(request)
    call_command("judge_trajectories", trajectory_ids[0], "--model", "judge-model")
    assert len(llm_server.requests) == 2
    assert (
        STRICT in llm_server.requests[1]["messages"][0]["content"]
        and STRICT not in llm_server.requests[0]["messages"][0]["content"]
    )
    assert Rating.objects.filter(trajectory_id=trajectory_ids[0], source="llm").count() == 16


def test_a_judge_that_never_follows_the_rubric_is_flagged_and_left_out(
    openai_settings, llm_server, trajectory_ids, capsys
):
    llm_server.brain = lambda request: scores_reply(request, score_of=lambda item: 11)
    call_command("judge_trajectories", trajectory_ids[1], "--model", "judge-model")
    assert f"flagged: {trajectory_ids[1]}" in capsys.readouterr().out
    flag = JudgeFlag.objects.get()
    assert "not an integer on the scale" in flag.problem and flag.reply
    assert not Rating.objects.filter(source="llm").exists()
    assert len(llm_server.requests) == 2
