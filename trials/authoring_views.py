"""Case authoring pages for instructors (``trials.authoring``): their drafts, the case form
with each validator's message beside its field, play-test, publish, and case-file upload."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from legalsim.roles import Ability, ability_required, can
from trials.authoring import (
    LINE_FIELDS,
    Checked,
    PublishRefused,
    case_check,
    draft_publish,
    draft_save,
    form_from_case,
    play_test,
)
from trials.models import Case, CaseDraft
from trials.services import cases_import_uploads

ACTIONS = ("save", "check", "playtest", "publish")
SECTIONS = (
    (
        "The case",
        "",
        (
            ("id", "Case id", "letters, digits, '.', '_' and '-'"),
            ("title", "Title", ""),
            ("language", "Language", ""),
            ("procedure", "Procedure", ""),
            ("cause_of_action", "Cause of action", ""),
            ("parties", "Parties", "one per line; kind is person or organization"),
        ),
    ),
    (
        "First instance (civil)",
        "civil",
        (
            ("first_instance.claims", "Claims", "one per line"),
            ("first_instance.facts_and_reasons", "Facts and reasons", ""),
            ("first_instance.evidence", "Evidence", "one per line; side is plaintiff or defendant"),
            ("first_instance.defenses", "Defences", ""),
            ("first_instance.court_findings", "Court findings (reference; students never see them)", ""),
            ("first_instance.legal_references", "Legal references", "one per line"),
            ("first_instance.disposition", "Disposition (reference)", ""),
            ("consultation", "Consultation questions", "one per line; the reference answer is hidden"),
        ),
    ),
    (
        "Criminal trial",
        "criminal",
        (
            ("defendant_info", "Defendant", ""),
            ("indictment", "Indictment", ""),
            ("charges", "Charges", "one per line"),
            ("evidence", "Evidence", "one per line; side is prosecution or defendant"),
            ("court_findings", "Court findings (reference)", ""),
            ("legal_references", "Legal references", "one per line"),
        ),
    ),
    (
        "More fields",
        "",
        (("more", "More fields (JSON)", "an object: second_instance, personas, goals... (docs/case-format.md)"),),
    ),
)
"""The form's sections: (heading, procedure it applies to or "" for both, fields as (name,
label, help))."""
CHOICES = {
    "language": (("zh", "Chinese"), ("en", "English")),
    "procedure": (("civil", "Civil"), ("criminal", "Criminal")),
}
SHORT = {"id", "title", "cause_of_action"}


def _drafts_of(request: HttpRequest):
    drafts = CaseDraft.objects.select_related("author", "case")
    return drafts if can(request.user, Ability.ADMINISTER) else drafts.filter(author=request.user)


@ability_required(Ability.TEACH)
def case_drafts(request: HttpRequest) -> HttpResponse:
    """The instructor's drafts, a new case, and the upload of a case file."""
    return render(request, "trials/case_drafts.html", {"drafts": _drafts_of(request)})


@ability_required(Ability.TEACH)
def case_draft_new(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _form_page(request, None, {"language": "zh", "procedure": "civil"}, None)
    return _act(request, draft_save(author=request.user, form=request.POST))


@ability_required(Ability.TEACH)
def case_draft(request: HttpRequest, draft_id: int) -> HttpResponse:
    draft = get_object_or_404(_drafts_of(request), pk=draft_id)
    if request.method != "POST":
        return _form_page(request, draft, draft.fields, None)
    return _act(request, draft_save(author=draft.author, form=request.POST, draft=draft))


@ability_required(Ability.TEACH)
@require_POST
def case_edit(request: HttpRequest, case_id: str) -> HttpResponse:
    """A library case as a new draft; publishing it replaces the case."""
    case = get_object_or_404(Case, pk=case_id)
    draft = draft_save(author=request.user, form=form_from_case(case.seed), case=case)
    return redirect("trials:case_draft", draft_id=draft.pk)


def _act(request: HttpRequest, draft: CaseDraft) -> HttpResponse:
    """The draft is saved whatever the action; then it is checked, play-tested or published."""
    action = request.POST.get("action", "save")
    if action not in ACTIONS:
        action = "save"
    checked = case_check(draft.fields)
    if action == "save":
        messages.info(request, "Draft saved." + ("" if checked.valid else " It has problems to fix before publishing."))
        return redirect("trials:case_draft", draft_id=draft.pk)
    if action == "publish" and checked.valid:
        try:
            case = draft_publish(draft=draft, case=checked.case)
        except PublishRefused as refusal:
            checked.errors["id"] = [str(refusal)]
        else:
            messages.success(request, f"Published: {case.title} is in the case library.")
            return redirect("trials:case_draft", draft_id=draft.pk)
    playtest = play_test(checked.case) if action == "playtest" and checked.valid else None
    status = 200 if checked.valid else 400
    return _form_page(request, draft, draft.fields, checked, playtest=playtest, status=status)


def _form_page(
    request: HttpRequest,
    draft: CaseDraft | None,
    fields: dict,
    checked: Checked | None,
    *,
    playtest=None,
    status: int = 200,
) -> HttpResponse:
    if checked is None and draft is not None:
        checked = case_check(fields)
    errors = checked.errors if checked else {}
    sections = [
        {
            "heading": heading,
            "procedure": procedure,
            "fields": [
                {
                    "name": name,
                    "label": label,
                    "help": help_text,
                    "value": fields.get(name, ""),
                    "errors": errors.get(name, []),
                    "choices": CHOICES.get(name),
                    "short": name in SHORT,
                    "shape": " | ".join(LINE_FIELDS.get(name, ())),
                }
                for name, label, help_text in entries
            ],
        }
        for heading, procedure, entries in SECTIONS
    ]
    context = {"draft": draft, "sections": sections, "checked": checked, "playtest": playtest}
    return render(request, "trials/case_draft.html", context, status=status)


@ability_required(Ability.TEACH)
@require_POST
def case_upload(request: HttpRequest) -> HttpResponse:
    """Case files imported as ``import_cases`` does: each file whole or not at all, every
    problem with its file, line and field."""
    uploads = request.FILES.getlist("files")
    report = cases_import_uploads(uploads) if uploads else None
    context = {"drafts": _drafts_of(request), "report": report, "no_files": not uploads}
    return render(request, "trials/case_drafts.html", context, status=400 if not report or report.problems else 200)
