from __future__ import annotations

import pytest
from django.urls import reverse

from legalsim.roles import Role
from tests.users import person
from trials.models import Case
from trials.services import cases_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def library(civil_seed, write_json):
    criminal = {
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
    cases_import(paths=[write_json("cases.json", [civil_seed, criminal])])
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


def test_case_page_hides_evaluation_only_fields_from_participants(client, django_user_model, library):
    client.force_login(person("student", Role.STUDENT))
    page = client.get(reverse("trials:case_detail", args=["test-civil-loan"])).content.decode()
    assert "Repay the RMB 50,000 principal" in page
    for hidden in (
        "The court finds the loan proved",
        "Article 675",
        "Yes, with the IOU.",
        "Appeal dismissed, judgment affirmed.",
    ):
        assert hidden not in page
    criminal = client.get(reverse("trials:case_detail", args=["people-v-wu"])).content.decode()
    assert "Wu took a bicycle." in criminal and "HIDDEN-CRIMINAL-FINDINGS" not in criminal


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
