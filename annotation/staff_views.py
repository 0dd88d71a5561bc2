"""Staff pages of the annotation app: studies, the agreement report, judge runs and exports
as background jobs. Raters never reach these (403); a study belongs to its owner and the
instructors they share it with (``annotation.selectors.studies_of``): for another instructor
it and its jobs are not there (404)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.agreement import AgreementError, agreement_compute
from annotation.bootstrap import REPLICATES
from annotation.jobs import JobError, job_start
from annotation.models import Job, Study
from annotation.pairwise import pairwise_report
from annotation.quality_views import dashboard_quality
from annotation.reports import FORMATS, pairwise_context, report_context
from annotation.selectors import (
    agreement_build,
    jobs_of,
    judges_in_scope,
    ratings_frame,
    reason_bands,
    studies_counted,
    studies_of,
    study_progress,
    study_units_stored,
)
from legalsim.roles import Ability, ability_required


@ability_required(Ability.TEACH)
def study_list(request: HttpRequest) -> HttpResponse:
    return render(request, "annotation/study_list.html", {"studies": studies_counted(user=request.user)})


def judge_unavailable() -> str | None:
    """Why the LLM judge cannot run here, or None: it needs a model server, and a run started
    without one could only fail."""
    if settings.OPENAI_BASE_URL:
        return None
    return _(
        "The LLM judge cannot run: no model server is connected to this site. An administrator "
        "connects one; until then, the report compares the raters with one another."
    )


def raters_agreement(study: Study, judges: list[str]) -> dict | None:
    """The overall line of the people's agreement among themselves (alpha, ICCs; no
    intervals, which the report page draws), or ``None`` for a pairwise study or one
    without any score yet. Judge or no judge: these figures never use the judge's scores."""
    definition = study.rubric.definition
    if not definition.kind.scores_points:
        return None
    frame = ratings_frame(rubric_id=study.rubric_id, study=study)
    if not (~frame.is_llm).any():
        return None
    report = agreement_compute(rubric=definition, frame=frame, judge=judges[0] if judges else None).report
    return report["overall"]


@ability_required(Ability.TEACH)
def study_dashboard(request: HttpRequest, study_id: int) -> HttpResponse:
    study = get_object_or_404(studies_of(user=request.user).select_related("rubric"), pk=study_id)
    judges = judges_in_scope(rubric_id=study.rubric_id, study=study)
    context = {
        "study": study,
        "raters": study_progress(study),
        "judges": judges,
        "raters_agreement": raters_agreement(study, judges),
        "stored_units": len(study_units_stored(study)),
        "default_judge": settings.LEGALSIM_MODEL_JUDGE,
        "judge_unavailable": judge_unavailable(),
        "report_formats": FORMATS,
        "jobs": study.jobs.all()[:20],
    } | dashboard_quality(study)
    return render(request, "annotation/study_dashboard.html", context)


@ability_required(Ability.TEACH)
def study_jobs(request: HttpRequest, study_id: int) -> HttpResponse:
    """The jobs table alone, polled by the dashboard while a job runs."""
    study = get_object_or_404(studies_of(user=request.user), pk=study_id)
    return render(request, "annotation/_jobs.html", {"study": study, "jobs": study.jobs.all()[:20]})


@ability_required(Ability.TEACH)
def study_report(request: HttpRequest, study_id: int) -> HttpResponse:
    study = get_object_or_404(studies_of(user=request.user).select_related("rubric"), pk=study_id)
    judges = judges_in_scope(rubric_id=study.rubric_id, study=study)
    judge = request.GET.get("judge") or (judges[0] if len(judges) == 1 else None)
    context = {"study": study, "judges": judges, "judge": judge}
    definition = study.rubric.definition
    if judge is None and judges:
        context["problem"] = _("Several LLM judges scored this study; choose one.")
        return render(request, "annotation/study_report.html", context)
    try:
        if definition.kind.is_pairwise:
            frame = ratings_frame(rubric_id=study.rubric_id, study=study)
            report = pairwise_report(rubric=definition, frame=frame, judge=judge, replicates=REPLICATES)
            context |= pairwise_context(report, definition)
        else:
            result = agreement_build(rubric=study.rubric, judge=judge, study=study, replicates=REPLICATES)
            context |= report_context(result, definition, reason_bands(rubric=study.rubric, study=study))
    except AgreementError as error:
        context["problem"] = str(error)
        return render(request, "annotation/study_report.html", context, status=404)
    return render(request, "annotation/study_report.html", context | {"kind": definition.kind})


def _start(request: HttpRequest, study: Study, kind: str, params: dict) -> HttpResponse:
    try:
        job = job_start(kind=kind, rubric=study.rubric, study=study, params=params, user=request.user)
    except JobError as error:
        messages.error(request, str(error))
        return redirect("annotation:study_dashboard", study_id=study.pk)
    return redirect("annotation:job", job_id=job.pk)


@ability_required(Ability.TEACH)
@require_POST
def study_judge(request: HttpRequest, study_id: int) -> HttpResponse:
    """Score the study's stored trajectories with the LLM judge, as a background job."""
    study = get_object_or_404(studies_of(user=request.user).select_related("rubric"), pk=study_id)
    if reason := judge_unavailable():
        messages.error(request, reason)
        return redirect("annotation:study_dashboard", study_id=study.pk)
    model = request.POST.get("model", "").strip() or settings.LEGALSIM_MODEL_JUDGE
    return _start(request, study, Job.Kind.JUDGE, {"model": model, "trajectory_ids": study_units_stored(study)})


@ability_required(Ability.TEACH)
@require_POST
def study_export(request: HttpRequest, study_id: int) -> HttpResponse:
    study = get_object_or_404(studies_of(user=request.user).select_related("rubric"), pk=study_id)
    if request.POST.get("kind") == Job.Kind.RATINGS_EXPORT:
        return _start(request, study, Job.Kind.RATINGS_EXPORT, {"layout": request.POST.get("layout")})
    # the exported HTML report speaks the language of the person who asked for it
    params = {
        "format": request.POST.get("format"),
        "judge": request.POST.get("judge") or None,
        "language": get_language(),
    }
    return _start(request, study, Job.Kind.AGREEMENT_REPORT, params)


@ability_required(Ability.TEACH)
def job_page(request: HttpRequest, job_id: int) -> HttpResponse:
    job = get_object_or_404(jobs_of(user=request.user).select_related("study", "rubric"), pk=job_id)
    return render(request, "annotation/job.html", {"job": job})


@ability_required(Ability.TEACH)
def job_progress(request: HttpRequest, job_id: int) -> HttpResponse:
    """The progress fragment; it stops asking to be polled once the job has finished."""
    job = get_object_or_404(jobs_of(user=request.user), pk=job_id)
    return render(request, "annotation/_job_progress.html", {"job": job})


@ability_required(Ability.TEACH)
def job_download(request: HttpRequest, job_id: int) -> FileResponse:
    """Streams the export from storage in chunks; large files never sit in memory."""
    job = get_object_or_404(jobs_of(user=request.user), pk=job_id)
    if job.status != Job.Status.DONE or not job.file:
        raise Http404("this job has no file to download")
    return FileResponse(job.file.open("rb"), as_attachment=True, filename=job.filename)
