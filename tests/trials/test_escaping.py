"""Case and transcript text is data, never markup: every page that shows it escapes it, and so
does every refusal that repeats what was posted."""

from __future__ import annotations

import pytest
from django.urls import reverse

from legalsim.roles import Role
from scoring.capabilities import CAPABILITIES
from scoring.charts import heatmap_svg, trend_svg
from tests.cases import case_stored
from tests.users import person
from trials.models import Trial
from trials.services import trial_create, trial_simulate

pytestmark = pytest.mark.django_db
IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>alert(2)</script>"
PAYLOADS = (IMG, SCRIPT)


def escaped(page: str) -> bool:
    """No payload as markup, and at least one shown as text."""
    shown = "&lt;img src=x onerror=alert(1)&gt;" in page or "&lt;script&gt;alert(2)&lt;/script&gt;" in page
    return shown and not any(payload in page for payload in PAYLOADS)


def payload_trial(civil_seed: dict) -> Trial:
    """A case with payloads in its title, parties, claims, facts and evidence, tried by agents."""
    civil_seed["title"] = f"Zhang v. Li {SCRIPT}"
    civil_seed["parties"][0]["name"] = f"Zhang {SCRIPT}"
    civil_seed["first_instance"]["claims"][0] = f"Repay {IMG} the principal"
    civil_seed["first_instance"]["facts_and_reasons"] = f"The loan {IMG} was never repaid. {SCRIPT}"
    civil_seed["first_instance"]["evidence"][0]["name"] = f"IOU {IMG}"
    case = case_stored(civil_seed)
    return trial_simulate(case=case, backend="scripted")


@pytest.fixture
def trial(civil_seed) -> Trial:
    return payload_trial(civil_seed)


def test_case_text_is_escaped_on_the_case_page_for_students_and_instructors(client, trial):
    for role in (Role.STUDENT, Role.INSTRUCTOR):
        client.force_login(person(f"user-{role}", role))
        assert escaped(client.get(reverse("trials:case_detail", args=[trial.case_id])).content.decode()), role


@pytest.mark.parametrize("page", ["trials:trial_room", "trials:trial_transcript", "scoring:trial_scorecard"])
def test_transcript_text_is_escaped_on_every_trial_page(client, trial, page):
    client.force_login(person("teacher", Role.INSTRUCTOR))
    response = client.get(reverse(page, args=[trial.pk]))
    assert response.status_code == 200 and escaped(response.content.decode())


def test_the_charts_escape_the_text_they_embed():
    assert escaped(trend_svg([(SCRIPT, 0.5), ("trial 2", 0.75)]))
    assert escaped(heatmap_svg([{"model": SCRIPT, "capabilities": dict.fromkeys(CAPABILITIES, 0.5)}]))


@pytest.fixture
def room(client, civil_seed) -> Trial:
    """A student's trial of the civil case, the student signed in."""
    student = person("student", Role.STUDENT)
    person("classmate", Role.STUDENT)
    client.force_login(student)
    case = case_stored(civil_seed)
    return trial_create(live=True, case=case, humans={"plaintiff_lawyer": student}, stages=["FIT"])


@pytest.mark.parametrize(
    ("route", "form"),
    [
        ("trials:trial_invite", {"seat": IMG, "username": "classmate"}),
        ("trials:trial_invite", {"seat": "defendant_lawyer", "username": IMG}),
        ("trials:trial_join", {"seat": IMG}),
        ("trials:trial_leave", {"seat": IMG, "confirm": "yes"}),
    ],
)
def test_a_refused_seat_or_username_is_echoed_escaped(client, room, route, form):
    """Hardening #13: the 400 that names what was posted names it as text."""
    response = client.post(reverse(route, args=[room.pk]), form)
    assert response.status_code == 400 and escaped(response.content.decode())


def test_a_refused_stage_is_echoed_escaped(client, room):
    response = client.post(
        reverse("trials:trial_play", args=[room.case_id]), {"seats": ["plaintiff_lawyer"], "stage": IMG}
    )
    assert response.status_code == 400 and escaped(response.content.decode())
