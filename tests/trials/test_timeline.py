"""The procedure's timeline in the room: the stages played (by agents before the person's
part, or by the person), the one under way with its phase, and those still to come, named
in the case's language."""

from __future__ import annotations

import pytest
from django.urls import reverse

from court.engine.machine import apply_stage_start, next_step
from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.trials.prepared import prepared_trial
from tests.users import person
from trials.models import Case
from trials.services import cases_import
from trials.timeline import timeline_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def trial():
    cases_import(paths=[DEMO_CASES / "zh-civil-private-lending.json"])
    case = Case.objects.get(pk="zh-civil-private-lending")
    return prepared_trial(case=case, humans={"plaintiff_lawyer": person("student", Role.STUDENT)}, stages=["FIT"])


def test_the_timeline_marks_what_was_played_what_is_heard_now_and_what_is_ahead(trial):
    state = trial.engine_state
    apply_stage_start(state, next_step(state))
    timeline = {stage.id: stage for stage in timeline_for(state)}
    assert [stage.id for stage in timeline_for(state)][:3] == ["LC", "CD", "FIT"]
    assert (timeline["LC"].status, timeline["CD"].status, timeline["FIT"].status) == ("done", "done", "current")
    assert timeline["FIT"].name == "一审庭审" and timeline["LC"].name == "法律咨询"
    phases = timeline["FIT"].phases
    assert phases[0] == ("opening", "开庭", "current") and all(status == "ahead" for _, _, status in phases[1:])
    assert "DD" not in timeline, "the other side's drafting is no stage of this trial"


def test_the_room_shows_the_timeline_and_the_page_names_every_stage(client, trial):
    client.force_login(person("student"))
    page = client.get(reverse("trials:trial_room", args=[trial.pk])).content.decode()
    timeline = page.split('id="timeline"', 1)[1].split("</section>", 1)[0]
    assert 'data-stage="LC"' in timeline and "法律咨询" in timeline and "一审庭审" in timeline
