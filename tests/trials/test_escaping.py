"""Case and transcript text is data, never markup: every page that shows it escapes it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from legalsim.roles import Role
from tests.cases import case_stored
from tests.users import person
from trials.models import Trial
from trials.scoring.capabilities import CAPABILITIES
from trials.scoring.charts import heatmap_svg, trend_svg
from trials.services import trial_simulate

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


@pytest.mark.parametrize("page", ["trials:trial_room", "trials:trial_transcript", "trials:trial_scorecard"])
def test_transcript_text_is_escaped_on_every_trial_page(client, trial, page):
    client.force_login(person("teacher", Role.INSTRUCTOR))
    response = client.get(reverse(page, args=[trial.pk]))
    assert response.status_code == 200 and escaped(response.content.decode())


def test_the_charts_escape_the_text_they_embed():
    assert escaped(trend_svg([(SCRIPT, 0.5), ("trial 2", 0.75)]))
    assert escaped(heatmap_svg([{"model": SCRIPT, "capabilities": dict.fromkeys(CAPABILITIES, 0.5)}]))
