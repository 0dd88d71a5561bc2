from __future__ import annotations

from collections.abc import Collection

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.calibration import training_next
from annotation.models import Assignment, Study, Trajectory
from annotation.numbers import ACTIVE_MS_MAX, whole_number_posted
from annotation.rubric import RubricDefinition
from annotation.selectors import assignment_shown, open_questionnaires
from annotation.selectors import rater_queue as rater_queue_of
from annotation.studies import (
    StudyError,
    assignment_claim,
    assignment_submit,
    draft_save,
    items_not_applicable_to,
    questionnaire_problems,
)
from annotation.trajectory_access import units_refused
from legalsim.roles import Ability, ability_required, can


def _mine(request: HttpRequest, assignment_id: int) -> Assignment:
    """Raters reach only their own assignments; anyone else's is a 404, not a 403."""
    assignment = Assignment.objects.select_related("study__rubric").filter(pk=assignment_id, rater=request.user).first()
    if assignment is None or units_refused([assignment.trajectory_id]):  # a private trial's, not allowed (any more)
        raise Http404("no such assignment")
    return assignment


@ability_required(Ability.RATE)
def rater_queue(request: HttpRequest) -> HttpResponse:
    assignments = rater_queue_of(rater=request.user)
    studies = Study.objects.filter(raters=request.user)
    return render(request, "annotation/queue.html", {"assignments": assignments, "studies": studies})


@ability_required(Ability.RATE)
@require_POST
def assignment_next(request: HttpRequest, study_id: int) -> HttpResponse:
    try:
        assignment = assignment_claim(study_id=study_id, rater=request.user)
    except (StudyError, Study.DoesNotExist) as error:
        raise Http404(str(error)) from None
    if assignment is None:
        messages.info(request, _nothing_new(study_id, request.user))
        return redirect("annotation:rater_queue")
    return redirect("annotation:assignment", assignment_id=assignment.pk)


def _nothing_new(study_id: int, rater) -> str:
    """What a rater reads when the study has no trajectory left for them: nothing left, or
    their questionnaires still open, linked."""
    still_open = open_questionnaires(study_id=study_id, rater=rater)
    if not still_open:
        return _("Nothing left to rate in this study.")
    links = format_html_join(
        ", ",
        '<a href="{}">{}</a>',
        ((reverse("annotation:assignment", args=[entry.pk]), _queue_name(entry)) for entry in still_open),
    )
    text = ngettext(
        "No new trajectory in this study; your questionnaire %(links)s is still open: finish and submit it.",
        "No new trajectory in this study; your questionnaires %(links)s are still open: finish and submit them.",
        len(still_open),
    )
    return mark_safe(escape(text) % {"links": links})  # the text escaped, the links built by format_html_join


def _queue_name(assignment: Assignment) -> str:
    """An assignment as the queue names it: its case's title and its label."""
    named = assignment.queue_name
    return f"{named.title} ({assignment.label})" if named else assignment.label


@ability_required(Ability.RATE)
def study_instructions(request: HttpRequest, study_id: int) -> HttpResponse:
    """What raters read before they start: the study's instructions and the rubric's guidance
    (its instructions, scale, anchors and items) in the interface language. The study's raters
    and instructors read it; anyone else gets a 404."""
    study = get_object_or_404(Study.objects.select_related("rubric"), pk=study_id)
    if not can(request.user, Ability.TEACH) and not study.raters.filter(pk=request.user.pk).exists():
        raise Http404("no such study of yours")
    definition = study.rubric.definition.localized(get_language())
    context = {"study": study, "rubric": definition, "groups": _guidance(definition), "kind": definition.kind}
    return render(request, "annotation/study_instructions.html", context)


def _guidance(definition: RubricDefinition) -> list[dict]:
    """The rubric's groups with their anchors; a group whose rows share their items (each
    stage rated on the same two dimensions) lists those items once, as ``dimensions``."""
    anchors = definition.data.get("anchors", {})
    groups = []
    for group in definition.data["groups"]:
        items = [(item["title"], item.get("description", "")) for row in group["rows"] for item in row["items"]]
        dimensions = list(dict.fromkeys(items))
        shared = dimensions if len(dimensions) < len(items) else []
        groups.append(group | {"anchors": anchors.get(group["id"], []), "dimensions": shared})
    return groups


def _questionnaire(
    assignment: Assignment,
    definition: RubricDefinition,
    problems: dict[str, str] | None = None,
    not_applicable: Collection[str] = (),
) -> list[dict]:
    """The rubric's groups, rows and items (in the rater's interface language, ``definition``)
    with the rater's draft answers; the items of stages the trajectory lacks are N/A."""
    anchors = definition.data.get("anchors", {})
    groups = []
    for group_id, title in definition.groups:
        rows = []
        for row in definition.rows_of(group_id):
            items = []
            for item in next(
                r for g in definition.data["groups"] if g["id"] == group_id for r in g["rows"] if r["id"] == row.id
            )["items"]:
                answer = assignment.draft.get(item["id"], {})
                items.append(
                    {
                        **item,
                        "score": answer.get("score", ""),
                        "reason": answer.get("reason", ""),
                        "problem": (problems or {}).get(item["id"]),
                        "not_applicable": item["id"] in not_applicable,
                    }
                )
            rows.append({"id": row.id, "title": row.title, "items": items})
        groups.append({"id": group_id, "title": title, "rows": rows, "anchors": anchors.get(group_id, [])})
    return groups


def _page_context(assignment: Assignment, problems: dict[str, str] | None = None) -> dict:
    shown = assignment_shown(assignment)
    stored = Trajectory.objects.in_bulk(list(shown.values()))
    panels = [
        {
            "side": side,
            "trajectory": stored.get(tid),
            "stages": [s["stage"] for s in stored[tid].stages] if tid in stored else [],
        }
        for side, tid in shown.items()
    ]
    # the rubric speaks the rater's interface language; the trajectories keep their own
    definition = assignment.study.rubric.definition.localized(get_language())
    not_applicable = items_not_applicable_to(assignment)
    return {
        "assignment": assignment,
        "panels": panels,
        "title": next((panel["trajectory"].title for panel in panels if panel["trajectory"]), ""),
        "language": next((panel["trajectory"].language for panel in panels if panel["trajectory"]), ""),
        "rubric_language": definition.language,
        "groups": _questionnaire(assignment, definition, problems, not_applicable),
        "n_not_applicable": len(not_applicable),
        "progress": _progress(assignment, not_applicable),
        "scale": definition,
        "kind": definition.kind,
        "instructions": definition.data.get("instructions", ""),
        "problems": problems,
        "questionnaire_strings": _questionnaire_strings(),
    }


def _progress(assignment: Assignment, not_applicable: Collection[str]) -> dict[str, int]:
    """The questionnaire's "n / 16": items answered as submission requires (a score and a
    reason) of the items to answer (N/A ones are none)."""
    total = len(assignment.study.rubric.definition.item_ids) - len(not_applicable)
    if assignment.status == Assignment.Status.SUBMITTED:
        return {"done": total, "total": total}
    return {"done": total - len(questionnaire_problems(assignment, not_applicable)), "total": total}


def _questionnaire_strings() -> dict[str, str]:
    """Every text ``questionnaire.js`` shows, in the interface language (a JSON data block)."""
    return {
        "saving": _("Saving…"),
        "not_saved": _("Not saved: the server could not be reached. Your answers stay in the form."),
        "leave_unsaved": _("Some answers are not saved yet."),
        "confirm_submit": _("Submit your answers? Once submitted, they can no longer change."),
    }


@ability_required(Ability.RATE)
def assignment_page(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = _mine(request, assignment_id)
    waiting = assignment.waits_for_training
    training = training_next(study_id=assignment.study_id, rater=request.user) if waiting else None
    if training is not None:
        messages.info(request, _("Rate the training trajectories of this study first."))
        return redirect("annotation:assignment", assignment_id=training.pk)
    return render(request, "annotation/assignment.html", _page_context(assignment))


@ability_required(Ability.RATE)
def assignment_stage(request: HttpRequest, assignment_id: int, index: int, side: str = "") -> HttpResponse:
    """One stage of a trajectory (side A or B of a pair), loaded when its tab is opened
    (long transcripts are normal)."""
    assignment = _mine(request, assignment_id)
    shown = assignment_shown(assignment)
    if side not in shown:
        raise Http404("no such trajectory")
    trajectory = get_object_or_404(Trajectory, pk=shown[side])
    if not 0 <= index < len(trajectory.stages):
        raise Http404("no such stage")
    context = {"stage": trajectory.stages[index], "trajectory": trajectory}
    return render(request, "annotation/_stage.html", context)


def _answers(post: QueryDict) -> dict[str, dict]:
    """The questionnaire's fields by item; an active time that is not a whole number of
    milliseconds up to a day is refused (``NumberError``, answered 400), an empty one left out."""
    answers: dict[str, dict] = {}
    for key, value in post.items():
        field, _, item = key.partition("__")
        if field in ("score", "reason") and item:
            answers.setdefault(item, {})[field] = value.strip()
        elif field == "active_ms" and item and value.strip():
            ms = whole_number_posted(value, field=key, low=0, high=ACTIVE_MS_MAX)
            answers.setdefault(item, {})["active_ms"] = ms
    return answers


@ability_required(Ability.RATE)
@require_POST
def assignment_draft(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """Autosave; once submitted, 409 with the reason (``StudyErrorMiddleware``)."""
    _mine(request, assignment_id)
    draft_save(assignment_id=assignment_id, rater=request.user, answers=_answers(request.POST))
    return HttpResponse(format_html('<span id="autosave" class="muted small">{}</span>', _("Draft saved")))


@ability_required(Ability.RATE)
@require_POST
def assignment_submit_view(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """Save the form's answers and submit them; every submission of a submitted questionnaire,
    concurrent ones included, is redirected to the queue as the first one was, saying that
    nothing changed. 400 re-renders the form with the problems."""
    _mine(request, assignment_id)
    result = assignment_submit(assignment_id=assignment_id, rater=request.user, answers=_answers(request.POST))
    if result.problems:
        return render(
            request, "annotation/assignment.html", _page_context(result.assignment, result.problems), status=400
        )
    messages.success(
        request, _("Already submitted; nothing changed.") if result.already else _("Submitted. Thank you.")
    )
    if result.assignment.kind == Assignment.Kind.TRAINING:
        return redirect("annotation:training_feedback", assignment_id=result.assignment.pk)
    return redirect("annotation:rater_queue")
