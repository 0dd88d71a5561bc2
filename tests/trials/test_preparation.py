"""A live trial that starts at a later stage: the request returns at once, a worker plays the
earlier stages with agents (the real openai client against the loopback server), and
nobody acts in the trial until it has."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from classroom.services import course_create
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.live.services import LiveError, human_say, judge_control, trial_pause_set
from trials.models import Case, LLMCallRecord, Trial
from trials.preparation import trial_prepare
from trials.protocol import ErrorCode
from trials.services import cases_import, trial_create

pytestmark = pytest.mark.django_db
CASE = "zh-civil-private-lending"


@pytest.fixture
def hearing(openai_settings):
    """A trial of the first-instance hearing with a student as the plaintiff's lawyer."""
    openai_settings.LEGALSIM_AGENT_BACKEND = "openai"
    cases_import(paths=[DEMO_CASES / f"{CASE}.json"])
    student = person("paula", Role.STUDENT)
    course = course_create(slug="civil-procedure", title="Civil procedure", instructor=person("ines", Role.INSTRUCTOR))
    trial = trial_create(
        live=True, case=Case.objects.get(pk=CASE), humans={"plaintiff_lawyer": student}, stages=["FIT"], course=course
    )
    return trial, student


def test_creating_a_trial_at_the_hearing_calls_no_model_and_leaves_it_preparing(hearing, llm_server):
    trial, _ = hearing
    assert llm_server.requests == []
    assert trial.status == Trial.Status.PREPARING and trial.first_stage == "FIT"
    assert trial.engine_state.turns == []


def test_the_worker_plays_the_earlier_stages_with_agents_and_stores_every_model_call(hearing, llm_server):
    trial, _ = hearing
    prepared = trial_prepare(trial_id=trial.pk)
    state = prepared.engine_state
    assert prepared.status == Trial.Status.RUNNING and prepared.first_stage == ""
    assert state.stage_history == ["LC", "CD"], "it stops where the student's stage starts"
    assert state.human_seats == {"plaintiff_lawyer": "paula"}, "the student holds the seat for FIT"
    lawyer_turns = [turn for turn in state.turns if turn.seat == "plaintiff_lawyer"]
    assert lawyer_turns and all(turn.author == "agent" for turn in lawyer_turns), "nothing is put in her mouth"
    assert LLMCallRecord.objects.filter(trial=prepared).count() == len(llm_server.requests) > 0
    billed = sum(call.prompt_tokens + call.completion_tokens for call in prepared.llm_calls.all())
    assert prepared.tokens == billed > 0
    assert prepared.turns.count() == len(state.turns)


def test_a_second_delivery_of_the_task_plays_nothing_twice(hearing, llm_server):
    trial, _ = hearing
    trial_prepare(trial_id=trial.pk)
    calls = len(llm_server.requests)
    again = trial_prepare(trial_id=trial.pk)
    assert len(llm_server.requests) == calls
    assert again.turns.count() == len(again.engine_state.turns)


def test_nobody_speaks_steers_or_pauses_while_agents_play_the_earlier_stages(hearing):
    trial, student = hearing
    instructor = User.objects.get(username="ines")
    attempts = [
        lambda: human_say(trial_id=trial.pk, user=student, text="Your honour, I begin."),
        lambda: judge_control(trial_id=trial.pk, user=instructor, action="advance"),
        lambda: trial_pause_set(trial_id=trial.pk, user=instructor, paused=True),
    ]
    for attempt in attempts:
        with pytest.raises(LiveError) as refused:
            attempt()
        assert refused.value.code == ErrorCode.NOT_YOUR_TURN and "FIT" in str(refused.value)
    assert Trial.objects.get(pk=trial.pk).status == Trial.Status.PREPARING


def test_a_model_that_keeps_failing_pauses_the_preparation_and_resuming_finishes_it(
    hearing, llm_server, tasks_in_process, django_capture_on_commit_callbacks
):
    trial, _ = hearing
    llm_server.fail_next(*[("status", 500)] * 3)
    paused = trial_prepare(trial_id=trial.pk)
    assert paused.status == Trial.Status.PAUSED and "500" in paused.pause_reason
    assert paused.first_stage == "FIT", "the rest of the preparation is still to do"
    failed = LLMCallRecord.objects.get(trial=paused)
    assert failed.attempts == 3 and failed.error, "the failed call is on record with its attempts"

    with django_capture_on_commit_callbacks(execute=True):
        trial_pause_set(trial_id=trial.pk, user=User.objects.get(username="ines"), paused=False)
    handed_back = Trial.objects.get(pk=trial.pk)
    assert handed_back.status == Trial.Status.PREPARING, "resuming hands the rest of the preparation back"
    resumed = trial_prepare(trial_id=trial.pk)  # what the room's driver (or a worker) does next
    assert resumed.status == Trial.Status.RUNNING and resumed.first_stage == ""
    assert resumed.engine_state.stage_history == ["LC", "CD"]
