from __future__ import annotations

import pytest
from django.urls import reverse

from classroom.assignments import assignment_create, pair_set
from classroom.services import course_create, course_enrol
from court.engine.brief import case_brief
from court.procedures.seats import CIVIL_SIDES, PLAYABLE_SEATS, seat_info
from legalsim.roles import Role
from tests.cases import case_stored
from tests.conftest import CIVIL_CASE
from tests.court.engine.test_visibility import may_see, plant
from tests.users import person
from trials.models import Case, Trial
from trials.services import cases_import, trial_create

pytestmark = pytest.mark.django_db


CRIMINAL_CASE = {
    "id": "people-v-wu",
    "procedure": "criminal",
    "title": "People v. Wu (theft)",
    "language": "en",
    "cause_of_action": "Theft",
    "parties": [
        {"side": "prosecution", "name": "District Procuratorate", "kind": "organization"},
        {"side": "defendant", "name": "Wu", "kind": "person"},
    ],
    "indictment": "Wu took a bicycle.",
    "sentence": {"imprisonment_months": 7, "probation": False, "fine": 1000},
    "court_findings": "HIDDEN-CRIMINAL-FINDINGS",
}


@pytest.fixture
def library(civil_seed, write_json):
    cases_import(paths=[write_json("cases.json", [civil_seed, CRIMINAL_CASE])])
    return Case.objects.all()


def test_the_library_needs_a_login(client):
    response = client.get(reverse("trials:case_library"))
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_library_lists_and_searches_cases(client, django_user_model, library):
    client.force_login(person("student", Role.STUDENT))
    page = client.get(reverse("trials:case_library")).content.decode()
    assert "Zhang v. Li (private lending)" in page and "People v. Wu (theft)" in page

    by_cause = client.get(reverse("trials:case_library"), {"q": "lending"}).content.decode()
    assert "Zhang v. Li" in by_cause and "People v. Wu" not in by_cause

    by_procedure = client.get(reverse("trials:case_library"), {"procedure": "criminal"}).content.decode()
    assert "People v. Wu" in by_procedure and "Zhang v. Li" not in by_procedure


def test_htmx_search_returns_only_the_list_fragment(client, django_user_model, library):
    client.force_login(person("student", Role.STUDENT))
    response = client.get(reverse("trials:case_library"), {"q": "theft"}, headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="case-list">') and "<html" not in html
    assert "People v. Wu" in html


APPEAL_REASONS = "The repayment was not credited."


@pytest.mark.parametrize("procedure", ["civil", "criminal"])
def test_a_student_sees_the_public_case_and_only_the_brief_of_the_seat_being_chosen(client, procedure):
    """Hardening #10: before a trial, what is public plus what the chosen seat may see at its
    first stage (Table 5 through ``case_brief``); every other field's canary stays out."""
    seed, planted = plant(CIVIL_CASE if procedure == "civil" else CRIMINAL_CASE)
    case_stored(seed)
    client.force_login(person("student", Role.STUDENT))
    for seat in PLAYABLE_SEATS[procedure]:
        side = seat_info(procedure, seat).side
        query = {"seats": seat, "target_side": side} if side in CIVIL_SIDES else {"seats": seat}
        page = client.get(reverse("trials:case_detail", args=[seed["id"]]), query).content.decode()
        assert seed["parties"][0]["name"] in page, "the parties are public"
        first_stage = case_brief(seed, seat, target_side=query.get("target_side"))["stage"]
        for label, canary in planted.items():
            expected = may_see(
                label, seat=seat, procedure=procedure, evidence_shown=False, trial_reached=first_stage in ("FIT", "SIT")
            )
            assert (canary in page) == expected, f"{seat}: {label} shown={canary in page}, expected {expected}"
        assert APPEAL_REASONS not in page, "the appeal comes after the first instance"


def test_the_brief_follows_the_seat_ticked_without_reloading_the_page(client, library):
    client.force_login(person("student", Role.STUDENT))
    url = reverse("trials:case_detail", args=["test-civil-loan"])
    fragment = client.get(url, {"seats": "defendant_lawyer"}, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in fragment
    assert "RMB 30,000 was already repaid" in fragment and "the plaintiff lent RMB 50,000" not in fragment


def test_a_student_sees_only_their_own_trials_of_a_case(client, library):
    mine = trial_create(
        live=True, case=Case.objects.get(pk="test-civil-loan"), humans={"judge": person("student", Role.STUDENT)}
    )
    theirs = trial_create(
        live=True, case=Case.objects.get(pk="test-civil-loan"), humans={"judge": person("other", Role.STUDENT)}
    )
    client.force_login(person("student", Role.STUDENT))
    page = client.get(reverse("trials:case_detail", args=["test-civil-loan"])).content.decode()
    assert reverse("trials:trial_room", args=[mine.pk]) in page
    assert reverse("trials:trial_room", args=[theirs.pk]) not in page
    assert "Tokens" not in page and "manage.py" not in page


def test_starting_a_trial_with_no_seat_ticked_is_refused_and_creates_nothing(client, library):
    client.force_login(person("student", Role.STUDENT))
    response = client.post(reverse("trials:trial_play", args=["test-civil-loan"]), {"stage": "all"})
    assert response.status_code == 400 and b"Choose at least one seat" in response.content
    assert not Trial.objects.exists()


def test_staff_see_the_real_judgment_marked_evaluation_only(client, django_user_model, library):
    client.force_login(person("admin", Role.INSTRUCTOR))
    page = client.get(reverse("trials:case_detail", args=["test-civil-loan"])).content.decode()
    assert "The court finds the loan proved" in page and "evaluation only" in page


def test_case_text_is_escaped(client, django_user_model, civil_seed, write_json):
    civil_seed["title"] = "<script>alert(1)</script>"
    cases_import(paths=[write_json("xss.json", civil_seed)])
    client.force_login(person("student", Role.STUDENT))
    page = client.get(reverse("trials:case_detail", args=["test-civil-loan"])).content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page


def test_unknown_case_is_404(client, django_user_model):
    client.force_login(person("student", Role.STUDENT))
    assert client.get(reverse("trials:case_detail", args=["missing"])).status_code == 404


@pytest.fixture
def paired(civil_seed):
    """A paired assignment of a case whose defendant side hides a canary in every private
    field: Ann plays the plaintiff's counsel against Bob as the defendant's; Cem is enrolled
    but not paired yet."""
    seed, planted = plant(CIVIL_CASE)
    case = case_stored(seed)
    course = course_create(slug="civ", title="Civil", instructor=person("prof", Role.INSTRUCTOR))
    for name in ("ann", "bob", "cem"):
        person(name, Role.STUDENT)
    course_enrol(course=course, usernames=["ann", "bob", "cem"])
    assignment = assignment_create(
        course=course, case=case, seats=["plaintiff_lawyer", "defendant_lawyer"], stages=["LC"], paired=True
    )
    pair_set(assignment=assignment, first="ann", second="bob")
    return case, {label: canary for label, canary in planted.items() if label.endswith(":defendant")}


def test_a_paired_student_never_previews_the_opponents_brief(client, paired):
    """Hardening: ``?seats=`` named the opposing seat and the case page showed its brief."""
    case, defendant_only = paired
    url = reverse("trials:case_detail", args=[case.pk])
    client.force_login(person("outsider", Role.STUDENT))
    page = client.get(url, {"seats": "defendant_lawyer"}).content.decode()
    assert all(canary in page for canary in defendant_only.values()), "a student outside the course chooses any seat"
    for who in ("ann", "cem"):
        client.force_login(person(who))
        for headers in ({}, {"HX-Request": "true"}):
            page = client.get(url, {"seats": ["defendant_lawyer", "plaintiff_lawyer"]}, headers=headers)
            shown = [label for label, canary in defendant_only.items() if canary in page.content.decode()]
            assert page.status_code == 200 and shown == [], f"{who} read {shown}"
    client.force_login(person("ann"))
    page = client.get(url, {"seats": "defendant_lawyer"}).content.decode()
    assert 'value="plaintiff_lawyer" checked' in page and 'value="defendant_lawyer"' not in page
    client.force_login(person("bob"))
    page = client.get(url).content.decode()
    assert all(canary in page for canary in defendant_only.values()), "Bob reads his own side's brief"


def test_a_paired_student_cannot_start_a_practice_trial_in_the_opponents_seat(client, paired):
    case, _ = paired
    client.force_login(person("ann"))
    response = client.post(reverse("trials:trial_play", args=[case.pk]), {"seats": ["defendant_lawyer"]})
    assert response.status_code == 400 and not Trial.objects.exists()
