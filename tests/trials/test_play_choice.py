"""The case page's start form: the stages offered follow the seats chosen, and a start that
cannot happen brings the page back with the reason next to the choice."""

from __future__ import annotations

import pytest
from django.urls import reverse

from legalsim.roles import Role
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import

pytestmark = pytest.mark.django_db
CASE = "test-civil-loan"


@pytest.fixture
def student_client(client, civil_seed, write_json):
    cases_import(paths=[write_json("cases.json", [civil_seed])])
    client.force_login(person("student", Role.STUDENT))
    return client


def stage_options(html: str) -> list[str]:
    start = html.index('<select name="stage"')
    return [part.split('"', 1)[0] for part in html[start : html.index("</select>", start)].split('value="')[1:]]


def test_the_stages_offered_are_those_the_chosen_seat_plays(student_client):
    url = reverse("trials:case_detail", args=[CASE])
    plaintiff = student_client.get(url, {"seats": "plaintiff_lawyer"}).content.decode()
    assert stage_options(plaintiff) == ["all", "LC", "CD", "FIT", "AD-Det", "AD", "SIT"], "no defence to draft"
    assert "Legal consultation only</option>" in plaintiff, "nothing comes before the first stage"
    assert "Drafting the appeal or Drafting the appeal response, whichever your side files" in plaintiff
    defendant = student_client.get(url, {"seats": "defendant_lawyer"}, headers={"HX-Request": "true"}).content.decode()
    assert stage_options(defendant) == ["all", "LC", "DD", "FIT", "AD-Det", "AD", "SIT"]
    assert 'id="stage-choice" hx-swap-oob="true"' in defendant, "the fragment replaces the stage list too"
    judge = student_client.get(url, {"seats": "judge", "stage": "SIT"}, headers={"HX-Request": "true"})
    assert stage_options(judge.content.decode()) == ["all", "FIT", "SIT"]
    assert '<option value="SIT" selected>' in judge.content.decode(), "the stage chosen stays chosen"


def test_the_plaintiff_cannot_start_at_the_defence_and_is_told_so_on_the_case_page(student_client):
    url = reverse("trials:trial_play", args=[CASE])
    response = student_client.post(url, {"seats": "plaintiff_lawyer", "stage": "DD"})
    page = response.content.decode()
    assert response.status_code == 400 and not Trial.objects.exists()
    assert "<h1>Zhang v. Li (private lending)</h1>" in page and 'id="stage-error"' in page
    assert "The seats you chose do not play “Drafting the defence”: choose a stage listed." in page
    assert '<input type="checkbox" name="seats" value="plaintiff_lawyer" checked>' in page, "the seat stays ticked"


def test_starting_with_no_seat_shows_the_case_page_with_the_reason_by_the_seats(student_client):
    response = student_client.post(reverse("trials:trial_play", args=[CASE]), {"stage": "FIT"})
    page = response.content.decode()
    assert response.status_code == 400 and not Trial.objects.exists()
    assert '<p class="error small" id="seats-error">Choose at least one seat to play' in page
    assert "<h1>Zhang v. Li (private lending)</h1>" in page and "Start the trial" in page
    assert " checked>" not in page, "nothing is ticked that was not ticked"


def test_a_stage_offered_starts_there(student_client):
    response = student_client.post(
        reverse("trials:trial_play", args=[CASE]), {"seats": "defendant_lawyer", "stage": "DD"}
    )
    trial = Trial.objects.get()
    assert response.status_code == 302 and (trial.first_stage, trial.target_side) == ("DD", "defendant")


def test_a_refused_join_is_a_page_with_a_way_back(student_client):
    trial = Case.objects.get(pk=CASE)
    response = student_client.post(reverse("trials:trial_play", args=[trial.pk]), {"seats": "judge", "stage": "FIT"})
    room = response.url
    joined = student_client.post(room.rstrip("/") + "/join/", {"seat": "no_such_seat"})
    page = joined.content.decode()
    assert joined.status_code == 400 and "<html" in page and 'class="error" role="alert"' in page
    assert f'href="{room}"' in page, "back to the trial"
