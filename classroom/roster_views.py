"""An instructor's roster uploads: the file checked whole (every bad row shown, nobody
enrolled), then a background job whose page shows its progress and, at the end, the new
accounts' set-password links, which the instructor who uploaded the file downloads once."""

from __future__ import annotations

import tempfile
from pathlib import Path

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom.models import Course, RosterJob
from classroom.rosters import (
    roster_check,
    roster_job_revive,
    roster_job_start,
    roster_links,
    roster_links_csv,
    roster_links_take,
)
from classroom.services import ClassroomError
from classroom.views import course_page_response, taught_course
from legalsim.roles import Ability, ability_required

LINKS_SHOWN = 200
"""The most links the page lists; the CSV has them all."""


@ability_required(Ability.TEACH)
@require_POST
def course_roster_upload(request: HttpRequest, slug: str) -> HttpResponse:
    """A roster CSV (username,email,full_name): checked whole here (a bad row: every bad row
    shown, nobody enrolled), then enrolled by a job whose page the instructor is sent to."""
    course = taught_course(request, slug)
    upload = request.FILES.get("roster")
    if upload is None:
        return course_page_response(
            request, course, error=_("Choose a roster file (CSV or .xlsx: username,email,full_name)."), status=400
        )
    name = Path(upload.name or "roster.csv").name
    with tempfile.TemporaryDirectory(prefix="legalsim-roster-") as scratch:
        path = Path(scratch) / "roster.csv"
        with path.open("wb") as saved:
            for chunk in upload.chunks():
                saved.write(chunk)
        check = roster_check(path=path, label=name, as_student_anyway=request.POST.get("as_student_anyway") == "on")
    if check.problems:
        return course_page_response(
            request, course, roster=check, error=_("Nobody was enrolled: fix these rows."), status=400
        )
    job = roster_job_start(course=course, check=check, by=request.user)
    return redirect("classroom:roster_job", slug=course.slug, job_id=job.pk)


def _job_of(request: HttpRequest, slug: str, job_id: int) -> tuple[Course, RosterJob]:
    course = taught_course(request, slug)
    return course, get_object_or_404(course.roster_jobs.select_related("created_by"), pk=job_id)


@ability_required(Ability.TEACH)
def roster_job_page(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """A roster job: its progress while it runs (htmx polls the fragment), then what it did
    and, for the instructor who uploaded the file, the new accounts' links until downloaded.
    A job nobody runs any more (its worker was killed) is resumed by the look."""
    course, job = _job_of(request, slug, job_id)
    if roster_job_revive(job):
        job.refresh_from_db()
    mine = job.created_by_id == request.user.pk
    links = roster_links(job=job) if mine and job.finished else []
    context = {
        "course": course,
        "job": job,
        "mine": mine,
        "links": [(user.get_username(), request.build_absolute_uri(path)) for user, path in links[:LINKS_SHOWN]],
        "links_total": len(links),
    }
    template = "classroom/_roster_job.html" if request.htmx else "classroom/roster_job.html"
    return render(request, template, context)


@ability_required(Ability.TEACH)
@require_POST
def roster_links_download(request: HttpRequest, slug: str, job_id: int) -> HttpResponse:
    """The new accounts' set-password links as a CSV, once, for the instructor who uploaded
    the roster; afterwards the page no longer shows them."""
    course, job = _job_of(request, slug, job_id)
    if job.created_by_id != request.user.pk:
        messages.error(request, _("Only the instructor who uploaded the roster downloads its links."))
        return redirect("classroom:roster_job", slug=course.slug, job_id=job.pk)
    try:
        links = roster_links_take(job=job)
    except ClassroomError as problem:
        messages.error(request, str(problem))
        return redirect("classroom:roster_job", slug=course.slug, job_id=job.pk)
    absolute = [(user, request.build_absolute_uri(path)) for user, path in links]
    response = HttpResponse(roster_links_csv(absolute), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="set-password-links-{course.slug}-{job.pk}.csv"'
    response["Cache-Control"] = "no-store"
    return response
