"""Numbers posted to the rater's questionnaire and the adjudication form: a bad one is a 400
that says which field and what it takes, never a 500 (issue 31, item 11)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from annotation.models import Adjudication, Assignment, Rating
from annotation.numbers import ACTIVE_MS_MAX, whole_number
from annotation.studies import study_plan
from legalsim.roles import Role
from tests.annotation.quality_world import FULL, items, study_make, trajectories_store
from tests.users import person

pytestmark = pytest.mark.django_db
ITEM = "LC.procedural_compliance"
BAD_ACTIVE_TIMES = {
    "superscript two": "²",
    "Arabic-Indic digit": "٣",
    "full-width digit": "３",
    "401 digits": "9" * 401,
    "5000 digits": "9" * 5000,
    "more than a day": str(ACTIVE_MS_MAX + 1),
    "negative": "-5",
    "underscore": "1_000",
    "plus sign": "+5",
}


@pytest.fixture
def assignment(tmp_path, client) -> Assignment:
    trajectories_store(tmp_path, {"case.u1": FULL})
    study = study_make("pilot", ["case.u1"], ["ann"], k=1)
    study_plan(study=study)
    client.login(username="ann", password="pw-123456")
    return Assignment.objects.get(study=study)


def complete_answers(active_ms: str = "1500") -> dict[str, str]:
    answers = {}
    for item in items():
        answers |= {f"score__{item}": "6", f"reason__{item}": f"why {item}", f"active_ms__{item}": active_ms}
    return answers


@pytest.mark.parametrize("value", BAD_ACTIVE_TIMES.values(), ids=BAD_ACTIVE_TIMES.keys())
@pytest.mark.parametrize("url", ["annotation:assignment_draft", "annotation:assignment_submit"])
def test_a_bad_active_time_is_refused_with_a_clear_400_and_nothing_is_stored(client, assignment, url, value):
    response = client.post(reverse(url, args=[assignment.pk]), complete_answers(active_ms=value))
    assert response.status_code == 400
    assert f"The field active_ms__{items()[0]} must be a whole number from 0 to 86400000, in the digits 0-9" in (
        response.content.decode()
    )
    assignment.refresh_from_db()
    assert assignment.draft == {} and assignment.status == Assignment.Status.ASSIGNED
    assert not Rating.objects.exists()


def test_an_autosave_with_a_bad_active_time_gets_its_message_in_place(client, assignment):
    response = client.post(
        reverse("annotation:assignment_draft", args=[assignment.pk]),
        {f"score__{ITEM}": "4", f"active_ms__{ITEM}": "²"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400 and response["HX-Reswap"] == "innerHTML"
    assert response.content.decode().startswith('<span class="error small" role="alert">the field active_ms__')


@pytest.mark.parametrize("stored", [10**400, "9" * 5000, "²", -3, 1.5e300, [1]])
def test_a_bad_active_time_already_in_a_draft_does_not_stop_the_submission(client, assignment, stored):
    """A draft saved before the view refused such times (401 digits made every submission 500)."""
    assignment.draft = {item: {"score": "6", "reason": "why", "active_ms": 2000} for item in items()}
    assignment.draft[ITEM]["active_ms"] = stored
    assignment.save(update_fields=["draft"])
    response = client.post(reverse("annotation:assignment_submit", args=[assignment.pk]), {})
    assert response.status_code == 302
    seconds = dict(Rating.objects.values_list("item", "active_seconds"))
    assert seconds[ITEM] == 0 and seconds[items()[1]] == 2


@pytest.mark.parametrize("study_id", [99999, 10**30])
def test_claiming_from_a_study_that_does_not_exist_is_a_404(client, assignment, study_id):
    response = client.post(reverse("annotation:assignment_next", args=[study_id]))
    assert response.status_code == 404


@pytest.mark.parametrize("score", ["３", "٣", "0_3", "+3"])
def test_an_adjudicated_score_takes_ascii_digits_only(client, assignment, score):
    client.force_login(person("boss", Role.INSTRUCTOR))
    url = reverse("annotation:adjudication_item", args=[assignment.study_id, ITEM, "case.u1"])
    response = client.post(url, {"score": score, "reason": "settled"})
    assert response.status_code == 400 and "give an integer from 0 to 10" in response.content.decode()
    assert not Adjudication.objects.exists()


@pytest.mark.parametrize(
    ("value", "number"),
    [("0", 0), (" 7 ", 7), ("-2", -2), (7, 7), ("10", 10), ("11", None), ("", None), (True, None), (None, None)],
)
def test_whole_number_reads_canonical_ascii_integers_within_bounds(value, number):
    assert whole_number(value, low=-5, high=10) == number
