"""Rater quality pages (issue #21, items 4-6): a rater's feedback on a training questionnaire;
for instructors, a study's calibration, adjudication queue and drift plots."""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from annotation.adjudication import AdjudicationError, adjudication_record
from annotation.calibration import ItemFeedback, rater_quality, reference_kinds, training_feedback, training_next
from annotation.drift import WINDOW, drift_series, drift_svg
from annotation.models import Assignment, Study, Trajectory
from annotation.reports import report_titles
from annotation.selectors import studies_of, study_disagreements, unit_scores, units_named
from annotation.stages import stages_read_for
from legalsim.roles import Ability, ability_required


class StudyQualityForm(forms.ModelForm):
    """The study's thresholds of rater quality."""

    class Meta:
        model = Study
        fields = ("gold_min_within1_pct", "adjudication_threshold")
        labels = {
            "gold_min_within1_pct": gettext_lazy("Flag a rater below this share of gold items within ±1 (%)"),
            "adjudication_threshold": gettext_lazy("Adjudicate items whose scores differ by more than (points)"),
        }
        help_texts = {"gold_min_within1_pct": "", "adjudication_threshold": ""}


def dashboard_quality(study: Study) -> dict[str, Any]:
    """What the study dashboard shows of rater quality: calibration per rater, the thresholds,
    the adjudication queue's size and the drift plots."""
    definition = study.rubric.definition
    kinds = list(reference_kinds(study).values())
    disagreements = study_disagreements(study)
    series = drift_series(study)
    distances = [value for entry in series for value in entry.distance if value is not None]
    return {
        "quality": rater_quality(study),
        "n_training": kinds.count(Assignment.Kind.TRAINING),
        "n_gold": kinds.count(Assignment.Kind.GOLD),
        "quality_form": StudyQualityForm(instance=study),
        "adjudication_open": sum(entry.adjudication is None for entry in disagreements),
        "adjudication_total": len(disagreements),
        "drift_window": WINDOW,
        "drift_score_svg": drift_svg(
            series,
            lambda entry: entry.mean_score,
            low=definition.scale_min,
            high=definition.scale_max,
            title=_("Mean score, last %(window)d questionnaires") % {"window": WINDOW},
        ),
        "drift_distance_svg": drift_svg(
            series,
            lambda entry: entry.distance,
            low=0,
            high=max(math.ceil(max(distances, default=0)), 1),
            title=_("Distance from the other raters' mean, last %(window)d questionnaires") % {"window": WINDOW},
        ),
    }


@ability_required(Ability.TEACH)
@require_POST
def study_quality(request: HttpRequest, study_id: int) -> HttpResponse:
    study = get_object_or_404(studies_of(user=request.user), pk=study_id)
    form = StudyQualityForm(request.POST, instance=study)
    if form.is_valid():
        form.save()
        messages.success(request, _("Thresholds saved."))
    else:
        problems = "; ".join(f"{form.fields[name].label}: {' '.join(errors)}" for name, errors in form.errors.items())
        messages.error(request, problems)
    return redirect("annotation:study_dashboard", study_id=study.pk)


@ability_required(Ability.RATE)
def training_feedback_page(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """A rater's own submitted training questionnaire, item by item beside the reference; any
    other assignment is a 404."""
    assignment = (
        Assignment.objects.select_related("study__rubric")
        .filter(
            pk=assignment_id,
            rater=request.user,
            kind=Assignment.Kind.TRAINING,
            status=Assignment.Status.SUBMITTED,
        )
        .first()
    )
    if assignment is None:
        raise Http404("no submitted training questionnaire of yours")
    titles, _items = report_titles(assignment.study.rubric.definition)
    feedback = sorted(training_feedback(assignment), key=_agreed)
    scored = [entry for entry in feedback if entry.difference is not None]
    context = {
        "assignment": assignment,
        "trajectory": Trajectory.objects.filter(pk=assignment.trajectory_id).first(),
        "feedback": [{"title": titles.get(entry.item, entry.item), "entry": entry} for entry in feedback],
        "n_scored": len(scored),
        "n_within1": sum(entry.within1 for entry in scored),
        "next_training": training_next(study_id=assignment.study_id, rater=request.user),
    }
    return render(request, "annotation/training_feedback.html", context)


@ability_required(Ability.TEACH)
def adjudication_queue(request: HttpRequest, study_id: int) -> HttpResponse:
    study = get_object_or_404(studies_of(user=request.user).select_related("rubric"), pk=study_id)
    titles, _items = report_titles(study.rubric.definition)
    disagreements = study_disagreements(study)
    named = units_named(entry.trajectory_id for entry in disagreements)
    context = {
        "study": study,
        "kind": study.rubric.definition.kind,
        "disagreements": [
            {"title": titles.get(entry.item, entry.item), "entry": entry, "case": named.get(entry.trajectory_id)}
            for entry in disagreements
        ],
        "n_open": sum(entry.adjudication is None for entry in disagreements),
    }
    return render(request, "annotation/adjudication_queue.html", context)


@ability_required(Ability.TEACH)
def adjudication_item(request: HttpRequest, study_id: int, item: str, trajectory_id: str) -> HttpResponse:
    """The raters' scores and reasons of one item side by side, the transcript they scored it
    on, and the resolved score: shown, then recorded (POST); an item or trajectory that is not
    the study's is a 404."""
    study = get_object_or_404(studies_of(user=request.user).select_related("rubric"), pk=study_id)
    definition = study.rubric.definition
    if (
        not definition.kind.scores_points
        or trajectory_id not in study.trajectory_ids
        or item not in definition.item_ids
    ):
        raise Http404("no such item of a trajectory of this study")
    problems: dict[str, str] = {}
    if request.method == "POST":
        try:
            adjudication_record(
                study=study,
                trajectory_id=trajectory_id,
                item=item,
                score=request.POST.get("score", ""),
                reason=request.POST.get("reason", ""),
                adjudicator=request.user,
            )
        except AdjudicationError as error:
            problems = error.problems
        else:
            messages.success(request, _("Resolved score recorded."))
            return _next_to_adjudicate(study)
    titles, _items = report_titles(definition)
    trajectory = Trajectory.objects.filter(pk=trajectory_id).first()
    reading, rates_a_stage = stages_read_for(definition, item, trajectory) if trajectory else ([], False)
    context = {
        "study": study,
        "unit": unit_scores(study, trajectory_id, item),
        "title": titles.get(item, item),
        "trajectory": trajectory,
        "reading": reading,
        "rates_a_stage": rates_a_stage,
        "scale": definition,
        "problems": problems,
        "posted": request.POST if problems else {},
    }
    return render(request, "annotation/adjudication_item.html", context, status=400 if problems else 200)


def _next_to_adjudicate(study: Study) -> HttpResponse:
    waiting = next((entry for entry in study_disagreements(study) if entry.adjudication is None), None)
    if waiting is None:
        return redirect("annotation:adjudication_queue", study_id=study.pk)
    return redirect(
        "annotation:adjudication_item", study_id=study.pk, item=waiting.item, trajectory_id=waiting.trajectory_id
    )


def _agreed(entry: ItemFeedback) -> bool:
    """Orders the feedback: the items more than a point from the reference come first, where
    the rater cannot miss them; the rest keep the rubric's order."""
    return entry.difference is None or entry.within1
