"""The interview checklist (MASER's legal agenda, issue #33): ticked as the lawyer asks, shown in
the room during a consultation, and in the debrief what was never asked and which withheld
details were drawn out or missed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from agents.scripted.agent import ScriptedAgent
from classroom.assignments import assignment_create, assignment_start
from classroom.services import course_create, course_enrol
from court.agenda import AGENDA, checklist
from court.engine.machine import trial_start
from court.engine.runner import trial_run
from court.procedures import procedure_for
from legalsim.roles import Role
from tests.agents.test_withheld_client import ASKS, CANARY, Recording, maser_case
from tests.cases import case_stored
from tests.celery_mode import celery_eager
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.models import Trial
from trials.services import trial_simulate


def test_before_the_interview_nothing_is_ticked_and_only_a_lawyer_has_a_checklist():
    state = trial_start(case=maser_case(), target_side="plaintiff", last_stage="LC")
    assert checklist(state, "plaintiff_lawyer").asked == [], "nothing asked before the interview"
    assert checklist(state, "plaintiff_client") is None and checklist(state, "judge") is None


def test_a_checklist_after_an_interview_that_asked_only_about_the_money():

    state = trial_start(case=maser_case(), target_side="plaintiff", last_stage="LC")
    lines = {"ask_follow_up": ASKS, "answer_question": "asdf", "summarise_advice": "asdf"}
    participants = {seat: ScriptedAgent() for seat in procedure_for("civil").seats}
    participants["plaintiff_lawyer"] = Recording(lines)
    trial_run(state, participants)
    result = checklist(state, "plaintiff_lawyer")
    assert [item.key for item in result.asked] == ["defendant", "evidence"], "对方 and 转账记录 in the one question"
    assert [item.key for item in result.never_asked] == ["client", "facts", "dispute", "claims"]
    assert result.found == [CANARY] and result.missed == []


def test_only_the_lawyers_questions_tick_items_not_the_answers_the_advice_or_the_record():
    """Issue #44 item 2: a consultation record that named the points in dispute ticked them,
    though the lawyer never asked about them."""
    state = trial_start(case=maser_case(), target_side="plaintiff", last_stage="LC")
    lines = {
        "ask_follow_up": ASKS,
        "answer_question": "争议焦点在于利息；您的诉求可以得到支持。",
        "summarise_advice": "我们要准备好证人和合同。",
        "write_consultation_record": "咨询记录：争议焦点、诉讼请求、证据清单；当事人姓名、住址。",
    }
    participants = {seat: ScriptedAgent() for seat in procedure_for("civil").seats}
    participants["plaintiff_lawyer"] = Recording(lines)
    trial_run(state, participants)
    result = checklist(state, "plaintiff_lawyer")
    assert [item.key for item in result.asked] == ["defendant", "evidence"]
    assert [item.key for item in result.never_asked] == ["client", "facts", "dispute", "claims"]


def test_the_scripted_lawyer_works_through_the_whole_agenda_one_question_at_a_time():
    state = trial_start(case=maser_case(), target_side="plaintiff", last_stage="LC")
    trial_run(state, {seat: ScriptedAgent() for seat in procedure_for("civil").seats})
    questions = [turn.text for turn in state.turns if turn.act == "ask_follow_up"]
    assert checklist(state, "plaintiff_lawyer").never_asked == []
    assert all(sum(item.asked_in(text) for item in AGENDA) < len(AGENDA) for text in questions), "none crams it all"


@pytest.mark.django_db
def test_the_room_shows_the_checklist_during_the_consultation_and_the_debrief_what_was_never_asked(client):
    student = person("student", Role.STUDENT)
    case = case_stored(maser_case())
    running = prepared_trial(case=case, humans={"plaintiff_lawyer": student}, stages=["LC"])
    client.force_login(student)
    page = client.get(reverse("trials:trial_room", args=[running.pk])).content.decode()
    assert 'id="agenda"' in page and page.count('class="open"') == len(AGENDA)
    assert CANARY not in page, "the withheld detail stays with the client"

    finished = trial_simulate(case=case, backend="scripted", until="LC")
    finished.seats.filter(seat="plaintiff_lawyer").update(user=student)
    Trial.objects.filter(pk=finished.pk).update(live=True)
    page = client.get(reverse("trials:trial_room", args=[finished.pk])).content.decode()
    assert 'id="debrief-interview"' in page and 'id="agenda"' not in page
    assert CANARY in page and "the agent drew it out" in page and "Your interview" not in page
    assert "The agent asked about every item of the agenda." in page


@pytest.mark.django_db
def test_an_assignment_can_switch_the_checklist_off(client):
    student = person("student", Role.STUDENT)
    case = case_stored(maser_case())
    course = course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    course_enrol(course=course, usernames=["student"])
    client.force_login(student)
    for checklist_on in (True, False):
        assignment = assignment_create(
            course=course, case=case, seats=["plaintiff_lawyer"], stages=["LC"], interview_checklist=checklist_on
        )
        with celery_eager(True):
            trial = assignment_start(assignment=assignment, student=student).trial
        page = client.get(reverse("trials:trial_room", args=[trial.pk])).content.decode()
        assert ('id="agenda"' in page) is checklist_on
