"""Case authoring in the browser's pages, without a browser: the form checked by the
validators of ``import_cases`` with their messages beside the fields, drafts kept as typed,
play-test storing nothing, publishing, editing a library case, and uploads."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from legalsim.roles import Role
from tests.conftest import DEMO_CASES
from tests.users import person
from trials.caselibrary.authoring import case_check, form_from_case
from trials.models import Case, CaseDraft, Trial

pytestmark = pytest.mark.django_db

FORM = {
    "id": "authored-loan",
    "title": "Wang v. Zhao (loan)",
    "language": "en",
    "procedure": "civil",
    "cause_of_action": "private lending dispute",
    "parties": "plaintiff | person | Wang Li | lender\ndefendant | person | Zhao Min | borrower",
    "first_instance.claims": "Repay the loan of 50,000 yuan.\nPay interest at the agreed rate.",
    "first_instance.facts_and_reasons": "Zhao borrowed 50,000 yuan in 2023 and has not repaid it.",
    "first_instance.evidence": "plaintiff | IOU signed by Zhao | the loan and its amount",
    "first_instance.court_findings": "CANARY-FINDINGS-7731 The loan is proven by the IOU.",
    "consultation": "plaintiff | Can I get my money back? | CANARY-ANSWER-5521 Yes, the IOU proves the loan.",
}


@pytest.fixture
def instructor(client):
    teacher = person("ines", Role.INSTRUCTOR)
    client.force_login(teacher)
    return teacher


def post(client, url: str, form: dict, action: str):
    return client.post(url, {**form, "action": action})


def test_a_case_written_from_scratch_is_checked_with_import_cases_messages_beside_its_fields(client, instructor):
    bad = {**FORM, "language": "fr", "parties": FORM["parties"] + "\nplaintif | person | Sun Yu"}
    response = post(client, reverse("trials:case_draft_new"), bad, "check")
    assert response.status_code == 400
    page = response.content.decode()
    language = page[page.index('id="field-language"') : page.index('id="field-procedure"')]
    assert "must be one of zh, en, got &#x27;fr&#x27;" in language
    parties = page[page.index('id="field-parties"') : page.index("</fieldset>")]
    assert "line 3: side: must be one of plaintiff, defendant, got &#x27;plaintif&#x27;" in parties
    draft = CaseDraft.objects.get()
    assert draft.fields["language"] == "fr", "the draft keeps what was typed, problems and all"
    assert not Case.objects.exists()


def test_a_line_without_its_parts_and_more_fields_that_are_not_json_are_reported_where_they_were_typed():
    checked = case_check({**FORM, "first_instance.evidence": "plaintiff", "more": "{not json"})
    assert checked.errors["first_instance.evidence"] == ["line 1: expected side | name | purpose"]
    assert checked.errors["more"][0].startswith("line 1: invalid JSON: Expecting property name")
    checked = case_check({**FORM, "more": json.dumps({"personas": {"plaintiff": {"legal_literacy": "huge"}}})})
    assert checked.errors == {
        "more": ["personas.plaintiff.legal_literacy: must be one of high, medium, low, got 'huge'"]
    }


def test_a_problem_names_the_line_it_was_typed_on_past_blank_and_malformed_lines():
    parties = "plaintiff | person\n\nplaintiff | person | Wang Li\ndefendnt | person | Zhao Min"
    checked = case_check({**FORM, "parties": parties})
    assert checked.errors["parties"] == [
        "line 1: expected side | kind | name | details",
        "line 4: side: must be one of plaintiff, defendant, got 'defendnt'",
        "needs at least one defendant party",
    ]


def test_play_test_runs_the_draft_with_scripted_agents_and_stores_no_trial(client, instructor):
    response = post(client, reverse("trials:case_draft_new"), FORM, "playtest")
    assert response.status_code == 200
    page = response.content.decode()
    playtest = page[page.index('id="playtest"') :]
    assert "to the end" in playtest and "Wang Li" in playtest
    assert playtest.count('<li class="turn">') > 20
    assert not Trial.objects.exists() and not Case.objects.exists()


def test_publishing_puts_the_case_in_the_library_and_keeps_reference_answers_from_students(client, instructor):
    draft_url = reverse(
        "trials:case_draft", args=[post(client, reverse("trials:case_draft_new"), FORM, "save").url.split("/")[-2]]
    )
    response = post(client, draft_url, FORM, "publish")
    assert response.status_code == 302
    case = Case.objects.get(pk="authored-loan")
    assert case.title == "Wang v. Zhao (loan)" and case.seed["consultation"][0]["side"] == "plaintiff"
    assert "authored in the browser by ines" in case.source_file
    student = person("sam", Role.STUDENT)
    client.force_login(student)
    page = client.get(reverse("trials:case_detail", args=[case.pk])).content.decode()
    assert "Wang v. Zhao" in page
    assert "CANARY-FINDINGS-7731" not in page and "CANARY-ANSWER-5521" not in page


def test_an_id_another_case_has_is_refused_at_publishing(client, instructor):
    from trials.services import cases_import

    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
    taken = {**FORM, "id": "en-civil-traffic-accident"}
    response = post(client, reverse("trials:case_draft_new"), taken, "publish")
    assert response.status_code == 400
    page = response.content.decode()
    assert (
        "already in the library; choose another id"
        in page[page.index('id="field-id"') : page.index('id="field-title"')]
    )
    assert Case.objects.get(pk="en-civil-traffic-accident").title != FORM["title"]


def test_a_library_case_is_edited_as_a_draft_and_replaced_when_published(client, instructor):
    from trials.services import cases_import

    cases_import(paths=[DEMO_CASES / "en-civil-traffic-accident.json"])
    case = Case.objects.get(pk="en-civil-traffic-accident")
    assert case_check(form_from_case(case.seed)).valid, "every demo case round-trips through the form"
    response = client.post(reverse("trials:case_edit", args=[case.pk]))
    draft = CaseDraft.objects.get()
    assert response.url == reverse("trials:case_draft", args=[draft.pk]) and draft.case == case
    edited = {**draft.fields, "title": "Liu v. Huang (edited)"}
    assert Case.objects.get(pk=case.pk).title != "Liu v. Huang (edited)", "the library keeps its version meanwhile"
    assert post(client, reverse("trials:case_draft", args=[draft.pk]), edited, "publish").status_code == 302
    assert Case.objects.get(pk=case.pk).title == "Liu v. Huang (edited)"


def test_a_draft_is_its_authors_alone(client, instructor):
    draft = CaseDraft.objects.create(author=instructor, fields=FORM)
    client.force_login(person("other-prof", Role.INSTRUCTOR))
    assert client.get(reverse("trials:case_draft", args=[draft.pk])).status_code == 404
    assert "Wang v. Zhao" not in client.get(reverse("trials:case_drafts")).content.decode()
    client.force_login(person("sam", Role.STUDENT))
    assert client.get(reverse("trials:case_drafts")).status_code == 403


def test_an_uploaded_case_file_is_imported_whole_or_refused_with_file_line_and_field(client, instructor):
    good = SimpleUploadedFile("good.json", (DEMO_CASES / "en-civil-traffic-accident.json").read_bytes())
    record = json.loads((DEMO_CASES / "en-civil-traffic-accident.json").read_text())
    record = record[0] if isinstance(record, list) else record
    lines = [json.dumps({**record, "id": "fine-one"}), json.dumps({**record, "id": "bad-one", "language": "fr"})]
    bad = SimpleUploadedFile("class-cases.jsonl", "\n".join(lines).encode())
    response = client.post(reverse("trials:case_upload"), {"files": [good, bad]})
    assert response.status_code == 400
    page = response.content.decode()
    assert "imported en-civil-traffic-accident" in page
    assert "class-cases.jsonl:2: language: must be one of zh, en, got &#x27;fr&#x27;" in page
    assert set(Case.objects.values_list("pk", flat=True)) == {"en-civil-traffic-accident"}, "a bad file stores nothing"


def more_field(page: str) -> str:
    """The "More fields" block of a form page."""
    start = page.index('id="field-more"')
    return page[start : page.index("</fieldset>", start)]


@pytest.mark.parametrize(
    ("more", "message"),
    [
        ("[" * 100_000, "line 1: nested deeper than 64 levels"),
        ('{"personas": ' + "[" * 70 + "]" * 70 + "}", "line 1: nested deeper than 64 levels"),
        ('{"provenance": {"source": "court\\u0000record"}}', "provenance.source: contains a NUL character"),
        ('{"provenance": {"source": "court\\ud800record"}}', "provenance.source: contains an unpaired surrogate"),
        ('{"extra": {"\\ud800": 1}}', "extra: a key contains an unpaired surrogate"),
        ('{"goals": 1e400}', "goals: 1e400 is too large for a number"),
    ],
    ids=["brackets", "deep", "nul", "surrogate", "surrogate-key", "huge-number"],
)
@pytest.mark.parametrize("action", ["save", "check", "publish"])
def test_more_fields_the_json_reader_refuses_are_refused_beside_the_field_and_nothing_is_saved(
    client, instructor, more, message, action
):
    response = post(client, reverse("trials:case_draft_new"), {**FORM, "more": more}, action)
    assert response.status_code == 400
    assert message in more_field(response.content.decode())
    assert not CaseDraft.objects.exists() and not Case.objects.exists()
    draft = CaseDraft.objects.create(author=instructor, fields={**FORM, "title": "Kept as it was"})
    response = post(client, reverse("trials:case_draft", args=[draft.pk]), {**FORM, "more": more}, action)
    assert response.status_code == 400
    assert message in more_field(response.content.decode())
    draft.refresh_from_db()
    assert draft.fields["title"] == "Kept as it was" and "more" not in draft.fields, "the draft is untouched"
    assert not Case.objects.exists()
    assert client.get(reverse("trials:case_draft", args=[draft.pk])).status_code == 200


def test_more_fields_that_are_merely_mistyped_are_still_kept_in_the_draft(client, instructor):
    response = post(client, reverse("trials:case_draft_new"), {**FORM, "more": '{"goals": '}, "save")
    assert response.status_code == 302
    assert CaseDraft.objects.get().fields["more"] == '{"goals": '


@pytest.mark.parametrize(
    "more",
    ["[" * 100_000, '{"provenance": {"source": "a\\u0000b"}}', '{"provenance": {"source": "a\\ud800b"}}'],
    ids=["brackets", "nul", "surrogate"],
)
def test_a_draft_already_holding_what_the_reader_refuses_opens_with_a_clear_error(client, instructor, more):
    draft = CaseDraft.objects.create(author=instructor, fields={**FORM, "more": more})
    response = client.get(reverse("trials:case_draft", args=[draft.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="problems"' in page and "line 1: " in more_field(page)
    assert client.get(reverse("trials:case_drafts")).status_code == 200
    response = post(client, reverse("trials:case_draft", args=[draft.pk]), draft.fields, "publish")
    assert response.status_code == 400 and not Case.objects.exists()


def test_a_draft_stored_with_a_lone_surrogate_or_nul_in_a_field_opens_with_the_character_replaced(client, instructor):
    from django.db import connection

    if connection.vendor == "postgresql":
        pytest.skip("PostgreSQL never stores either character in a JSON value")
    fields = {**FORM, "title": "Wang \ud800 v. Zhao", "cause_of_action": "loan\x00"}
    draft = CaseDraft.objects.create(author=instructor, fields=fields)
    response = client.get(reverse("trials:case_draft", args=[draft.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Wang \ufffd v. Zhao" in page
    title = page[page.index('id="field-title"') : page.index('id="field-language"')]
    assert "contains an unpaired surrogate (U+D800)" in title
    assert "Wang \ufffd v. Zhao" in client.get(reverse("trials:case_drafts")).content.decode()
    response = post(client, reverse("trials:case_draft", args=[draft.pk]), FORM, "save")
    assert response.status_code == 302, "typing the field again repairs the draft"


def test_a_case_published_with_a_lone_surrogate_is_repaired_by_editing_it_in_the_browser(client, instructor):
    from django.db import connection

    from trials.caselibrary.authoring import case_check
    from trials.services import case_store

    if connection.vendor == "postgresql":
        pytest.skip("PostgreSQL never stored such a case")
    checked = case_check({**FORM, "more": json.dumps({"provenance": {"source": "ok"}})})
    broken = {**checked.case, "provenance": {"source": "court \ud800 record"}}
    case_store(broken, source_file="published before the checks")
    client.post(reverse("trials:case_edit", args=[broken["id"]]))
    draft = CaseDraft.objects.get()
    response = client.get(reverse("trials:case_draft", args=[draft.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "court \ufffd record" in more_field(page) and "unpaired surrogate" in more_field(page)
    fields = {name: value.replace("\ud800", "\ufffd") for name, value in draft.fields.items()}
    response = post(client, reverse("trials:case_draft", args=[draft.pk]), fields, "publish")
    assert response.status_code == 302
    assert Case.objects.get(pk=broken["id"]).seed["provenance"]["source"] == "court \ufffd record"


@pytest.mark.parametrize(("accept", "language"), [("en", "en"), ("zh-hans", "zh")])
def test_a_new_case_is_written_in_the_instructors_interface_language_first(client, instructor, accept, language):
    """Issue 44 item 6: the form chose Chinese for an instructor reading the site in English."""
    form = client.get(reverse("trials:case_draft_new"), HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    chosen = form.split('name="language"', 1)[1].split("</select>", 1)[0]
    assert f'<option value="{language}" selected>' in chosen
