"""Case authoring pages for instructors (``trials.caselibrary.authoring``): their drafts, the case form
with each validator's message beside its field, play-test, publish, and case-file upload."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from legalsim.roles import Ability, ability_required, can
from trials.caselibrary.authoring import (
    FORM_FIELDS,
    LINE_FIELDS,
    Checked,
    PublishRefused,
    case_check,
    draft_publish,
    draft_save,
    form_from_case,
    play_test,
    text_shown,
)
from trials.caselibrary.case_upload import CaseUpload, cases_upload
from trials.models import Case, CaseDraft

ACTIONS = ("save", "check", "playtest", "publish")
SECTIONS = (
    (
        _("The case"),
        "",
        (
            ("id", _("Case id"), _("letters, digits, '.', '_' and '-'")),
            ("title", _("Title"), ""),
            ("language", _("Language"), ""),
            ("procedure", _("Procedure"), ""),
            ("cause_of_action", _("Cause of action"), ""),
            ("parties", _("Parties"), _("one per line; kind is person or organization")),
        ),
    ),
    (
        _("First instance (civil)"),
        "civil",
        (
            ("first_instance.claims", _("Claims"), _("one per line")),
            ("first_instance.facts_and_reasons", _("Facts and reasons"), ""),
            ("first_instance.evidence", _("Evidence"), _("one per line; side is plaintiff or defendant")),
            ("first_instance.defenses", _("Defences"), ""),
            ("first_instance.court_findings", _("Court findings (reference; students never see them)"), ""),
            ("first_instance.legal_references", _("Legal references"), _("one per line")),
            ("first_instance.disposition", _("Disposition (reference)"), ""),
            ("consultation", _("Consultation questions"), _("one per line; the reference answer is hidden")),
        ),
    ),
    (
        _("Criminal trial"),
        "criminal",
        (
            ("defendant_info", _("Defendant"), ""),
            ("indictment", _("Indictment"), ""),
            ("charges", _("Charges"), _("one per line")),
            ("evidence", _("Evidence"), _("one per line; side is prosecution or defendant")),
            ("court_findings", _("Court findings (reference)"), ""),
            ("legal_references", _("Legal references"), _("one per line")),
        ),
    ),
    (
        _("More fields"),
        "",
        (("more", _("More fields (JSON)"), _("an object: second_instance, personas, goals... (docs/case-format.md)")),),
    ),
)
"""The form's sections: (heading, procedure it applies to or "" for both, fields as (name,
label, help))."""
CHOICES = {
    "language": (("zh", _("Chinese")), ("en", _("English"))),
    "procedure": (("civil", _("Civil")), ("criminal", _("Criminal"))),
}
PART_NAMES = {
    "side": _("side"),
    "kind": _("kind"),
    "name": _("name"),
    "details": _("details"),
    "purpose": _("purpose"),
    "question": _("question"),
    "reference_answer": _("reference answer"),
}
"""What the parts of a line are called in the form's hints (the parts go by position, so
their names are only words for the reader)."""
SHORT = {"id", "title", "cause_of_action"}


def _drafts_of(request: HttpRequest):
    drafts = CaseDraft.objects.select_related("author", "case")
    return drafts if can(request.user, Ability.ADMINISTER) else drafts.filter(author=request.user)


def _draft_rows(request: HttpRequest) -> list[CaseDraft]:
    """The drafts a list shows, each with its title and id as a page can show them."""
    drafts = list(_drafts_of(request))
    for draft in drafts:
        draft.shown_title = text_shown(draft.title)
        draft.shown_id = text_shown(str(draft.fields.get("id", "")))
    return drafts


@ability_required(Ability.TEACH)
def case_drafts(request: HttpRequest) -> HttpResponse:
    """The instructor's drafts, a new case, and the upload of a case file."""
    return render(request, "trials/case_drafts.html", {"drafts": _draft_rows(request)})


@ability_required(Ability.TEACH)
def case_draft_new(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _form_page(request, None, {"language": _interface_language(), "procedure": "civil"}, None)
    checked = case_check(request.POST)
    if checked.refused:
        return _refused(request, None, checked)
    return _act(request, draft_save(author=request.user, form=request.POST), checked)


def _interface_language() -> str:
    """A new case is written, first, in the language the instructor reads the site in."""
    return "zh" if (get_language() or "").startswith("zh") else "en"


@ability_required(Ability.TEACH)
def case_draft(request: HttpRequest, draft_id: int) -> HttpResponse:
    draft = get_object_or_404(_drafts_of(request), pk=draft_id)
    if request.method != "POST":
        return _form_page(request, draft, draft.fields, None)
    checked = case_check(request.POST)
    if checked.refused:
        return _refused(request, draft, checked)
    return _act(request, draft_save(author=draft.author, form=request.POST, draft=draft), checked)


@ability_required(Ability.TEACH)
@require_POST
def case_edit(request: HttpRequest, case_id: str) -> HttpResponse:
    """A library case as a new draft; publishing it replaces the case."""
    case = get_object_or_404(Case, pk=case_id)
    draft = draft_save(author=request.user, form=form_from_case(case.seed), case=case)
    return redirect("trials:case_draft", draft_id=draft.pk)


def _refused(request: HttpRequest, draft: CaseDraft | None, checked: Checked) -> HttpResponse:
    """A form holding what no draft may keep: shown again as sent, nothing saved."""
    fields = {name: request.POST.get(name, "") for name in FORM_FIELDS}
    return _form_page(request, draft, fields, checked, status=400)


def _act(request: HttpRequest, draft: CaseDraft, checked: Checked) -> HttpResponse:
    """The draft is saved whatever the action (``checked`` is its form checked); then it is
    checked, play-tested or published."""
    action = request.POST.get("action", "save")
    if action not in ACTIONS:
        action = "save"
    if action == "save":
        messages.info(
            request,
            gettext("Draft saved.")
            if checked.valid
            else gettext("Draft saved. It has problems to fix before publishing."),
        )
        return redirect("trials:case_draft", draft_id=draft.pk)
    if action == "publish" and checked.valid:
        try:
            case = draft_publish(draft=draft, case=checked.case)
        except PublishRefused as refusal:
            checked.errors["id"] = [str(refusal)]
        else:
            messages.success(request, gettext("Published: %(title)s is in the case library.") % {"title": case.title})
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
                    "value": text_shown(fields.get(name, "")),
                    "errors": errors.get(name, []),
                    "choices": CHOICES.get(name),
                    "short": name in SHORT,
                    "shape": " | ".join(str(PART_NAMES.get(part, part)) for part in LINE_FIELDS.get(name, ())),
                }
                for name, label, help_text in entries
            ],
        }
        for heading, procedure, entries in SECTIONS
    ]
    context = {
        "draft": draft,
        "title": text_shown(draft.title) if draft else "",
        "refused": bool(checked and checked.refused),
        "sections": sections,
        "checked": checked,
        "playtest": playtest,
        "case_language": fields.get("language", "en"),
    }
    return render(request, "trials/case_draft.html", context, status=status)


@ability_required(Ability.TEACH)
@require_POST
def case_upload(request: HttpRequest) -> HttpResponse:
    """Case files imported as ``import_cases`` does: each file whole or not at all, every
    problem with its file, line and field; a case already in the library is replaced only
    when "replace" is ticked (``trials.caselibrary.case_upload``)."""
    uploads = request.FILES.getlist("files")
    replace = request.POST.get("replace") == "on"
    upload = cases_upload(uploads=uploads, replace=replace, by=request.user) if uploads else None
    context = {"drafts": _draft_rows(request), "upload": upload, "no_files": not uploads}
    return render(request, "trials/case_drafts.html", context, status=_upload_status(upload))


def _upload_status(upload: CaseUpload | None) -> int:
    """400 for no file or a refused one, 403 for one that would replace another's case, 409
    for an upload held back from replacing cases."""
    if upload is None or upload.report.problems:
        return 400
    if upload.not_yours:
        return 403
    return 409 if upload.held else 200
