"""The classroom's pages: thin views over ``classroom.services`` and ``classroom.selectors``.

Instructors (``teach``) reach only the courses they teach (admins every course): another
course is a 404. Students (``play``) see the courses they are enrolled in and their
assignments.
"""

from __future__ import annotations

import tempfile
from datetime import datetime
from pathlib import Path

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom.exports import GRADEBOOK_FORMATS, gradebook_bytes
from classroom.feedback import comment_add, comment_reply, comments_read
from classroom.models import Assignment, Course, GradebookAttempt, TurnComment
from classroom.selectors import (
    assignment_progress,
    assignments_of_student,
    class_view,
    course_roster,
    course_taught_by,
    courses_enrolled,
    courses_taught,
    feedback_for_student,
    gradebook_build,
    gradebook_cell_of,
)
from classroom.services import (
    ClassroomError,
    RosterReport,
    assignment_create,
    assignment_start,
    course_create,
    course_enrol,
    course_join,
    grade_parse,
    grade_save,
    gradebook_attempt_set,
    instructor_add,
    invite_code_regenerate,
    pair_set,
    pairs_make,
    roster_import,
)
from legalsim.roles import Ability, ability_required
from trials.access import trial_overseer
from trials.models import Case, Trial
from trials.procedures import procedure_for
from trials.procedures.seats import PLAYABLE_SEATS
from trials.scoring.charts import histogram_svg
from trials.services import BackendUnavailable


def _taught(request: HttpRequest, slug: str) -> Course:
    course = course_taught_by(slug=slug, user=request.user)
    if course is None:
        raise Http404("no such course")
    return course


@ability_required(Ability.TEACH)
def courses(request: HttpRequest) -> HttpResponse:
    """The courses one teaches, and the form to create one."""
    error = ""
    if request.method == "POST":
        try:
            course = course_create(
                slug=request.POST.get("slug", "").strip(),
                title=request.POST.get("title", ""),
                term=request.POST.get("term", ""),
                language=request.POST.get("language", "en"),
                instructor=request.user,
            )
        except ClassroomError as problem:
            error = str(problem)
        else:
            return redirect("classroom:course", slug=course.slug)
    return render(
        request,
        "classroom/courses.html",
        {
            "courses": courses_taught(user=request.user),
            "languages": Course.Language.choices,
            "error": error,
            "form": request.POST,
        },
        status=400 if error else 200,
    )


def _course_page(
    request: HttpRequest,
    course: Course,
    *,
    message: str = "",
    error: str = "",
    roster: RosterReport | None = None,
    status: int = 200,
) -> HttpResponse:
    assignments = list(course.assignments.select_related("case").order_by("opens_at", "id"))
    context = {
        "course": course,
        "roster": course_roster(course=course),
        "instructors": course.instructors.order_by("username"),
        "assignments": [(assignment, assignment_progress(assignment=assignment)) for assignment in assignments],
        "cases": Case.objects.order_by("procedure", "title").only("id", "title", "procedure"),
        "seats": sorted({seat for seats in PLAYABLE_SEATS.values() for seat in seats}),
        "stages": {name: procedure_for(name).stage_ids for name in PLAYABLE_SEATS},
        "message": message,
        "error": error,
        "report": roster,
        "links": [(name, request.build_absolute_uri(path)) for name, path in (roster.created if roster else [])],
    }
    return render(request, "classroom/course.html", context, status=status)


@ability_required(Ability.TEACH)
def course_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A course: roster, enrolment by usernames or roster file, invite code, co-instructors,
    assignments with each student's status, and the form to assign a case."""
    return _course_page(request, _taught(request, slug))


@ability_required(Ability.TEACH)
@require_POST
def assignment_pairs_view(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """Pair two students by name, or (no names) pair everyone not yet paired."""
    course = _taught(request, slug)
    assignment = get_object_or_404(course.assignments, pk=assignment_id)
    first, second = request.POST.get("first", "").strip(), request.POST.get("second", "").strip()
    try:
        if first or second:
            pair_set(assignment=assignment, first=first, second=second)
            message = _("Paired %(first)s with %(second)s on %(assignment)s.") % {
                "first": first,
                "second": second,
                "assignment": assignment.title,
            }
        else:
            made = len(pairs_make(assignment=assignment))
            message = _("%(count)d new pair(s) on %(assignment)s.") % {"count": made, "assignment": assignment.title}
    except ClassroomError as problem:
        return _course_page(request, course, error=str(problem), status=400)
    return _course_page(request, course, message=message)


@ability_required(Ability.TEACH)
@require_POST
def course_enrol_view(request: HttpRequest, slug: str) -> HttpResponse:
    course = _taught(request, slug)
    try:
        enrolled, already = course_enrol(course=course, usernames=request.POST.get("usernames", "").split())
    except ClassroomError as problem:
        return _course_page(request, course, error=str(problem), status=400)
    if already:
        message = _("Enrolled %(count)d; %(already)d already enrolled.") % {
            "count": len(enrolled),
            "already": len(already),
        }
    else:
        message = _("Enrolled %(count)d.") % {"count": len(enrolled)}
    return _course_page(request, course, message=message)


@ability_required(Ability.TEACH)
@require_POST
def course_roster_upload(request: HttpRequest, slug: str) -> HttpResponse:
    """A roster CSV (username,email,full_name): all rows enrolled, or none and every bad row
    shown; new accounts' set-password links are shown once, to hand to the students."""
    course = _taught(request, slug)
    upload = request.FILES.get("roster")
    if upload is None:
        return _course_page(
            request, course, error=_("Choose a roster file (CSV: username,email,full_name)."), status=400
        )
    name = Path(upload.name or "roster.csv").name
    with tempfile.TemporaryDirectory(prefix="legalsim-roster-") as scratch:
        path = Path(scratch) / "roster.csv"
        with path.open("wb") as saved:
            for chunk in upload.chunks():
                saved.write(chunk)
        report = roster_import(course=course, path=path, label=name)
    if report.problems:
        return _course_page(request, course, roster=report, error=_("Nobody was enrolled: fix these rows."), status=400)
    message = _("Enrolled %(count)d from %(file)s; %(created)d new account(s).") % {
        "count": len(report.enrolled),
        "file": name,
        "created": len(report.created),
    }
    return _course_page(request, course, roster=report, message=message)


@ability_required(Ability.TEACH)
@require_POST
def course_invite_code(request: HttpRequest, slug: str) -> HttpResponse:
    course = _taught(request, slug)
    invite_code_regenerate(course=course)
    return _course_page(request, course, message=_("A new invite code; the old one no longer works."))


@ability_required(Ability.TEACH)
@require_POST
def course_instructor_add(request: HttpRequest, slug: str) -> HttpResponse:
    course = _taught(request, slug)
    try:
        user = instructor_add(course=course, username=request.POST.get("username", "").strip())
    except ClassroomError as problem:
        return _course_page(request, course, error=str(problem), status=400)
    return _course_page(
        request, course, message=_("%(username)s teaches this course too.") % {"username": user.get_username()}
    )


def _moment(text: str) -> datetime | None:
    """A date and time from the form (``datetime-local``: in the server's time zone)."""
    if not text.strip():
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ClassroomError(_("%(text)r is not a date and time") % {"text": text}) from None
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


@ability_required(Ability.TEACH)
@require_POST
def assignment_create_view(request: HttpRequest, slug: str) -> HttpResponse:
    course = _taught(request, slug)
    post = request.POST
    try:
        case = Case.objects.filter(pk=post.get("case", "")).first()
        if case is None:
            raise ClassroomError(_("case: choose a case of the library"))
        try:
            attempts = int(post.get("attempts") or 1)
        except ValueError:
            raise ClassroomError(_("attempts: a whole number")) from None
        assignment = assignment_create(
            course=course,
            case=case,
            seats=post.getlist("seats"),
            stages=[stage for stage in post.get("stages", "").replace(",", " ").split() if stage != "all"],
            opens_at=_moment(post.get("opens_at", "")),
            due_at=_moment(post.get("due_at", "")),
            attempts=attempts,
            paired=post.get("paired") == "on",
            title=post.get("title", ""),
        )
    except ClassroomError as problem:
        return _course_page(request, course, error=str(problem), status=400)
    return _course_page(request, course, message=_("Assigned %(assignment)s.") % {"assignment": assignment.title})


@ability_required(Ability.PLAY)
def my_courses(request: HttpRequest) -> HttpResponse:
    """The courses one is enrolled in, and the form to join one with its invite code."""
    error = ""
    if request.method == "POST":
        try:
            course = course_join(code=request.POST.get("code", ""), user=request.user)
        except ClassroomError as problem:
            error = str(problem)
        else:
            return redirect(f"{request.path}?joined={course.slug}")
    return render(
        request,
        "classroom/my_courses.html",
        {"courses": courses_enrolled(user=request.user), "error": error, "joined": request.GET.get("joined", "")},
        status=400 if error else 200,
    )


@ability_required(Ability.PLAY)
def my_assignments(request: HttpRequest) -> HttpResponse:
    return render(request, "classroom/my_assignments.html", {"rows": assignments_of_student(user=request.user)})


@ability_required(Ability.PLAY)
@require_POST
def assignment_start_view(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """Start (or continue) one's attempt and go to its room; an assignment of a course one is
    not enrolled in does not exist."""
    assignment = get_object_or_404(
        Assignment.objects.select_related("course", "case"), pk=assignment_id, course__enrolments__user=request.user
    )
    try:
        attempt = assignment_start(assignment=assignment, student=request.user)
    except (ClassroomError, ValueError, BackendUnavailable) as problem:
        return HttpResponseBadRequest(str(problem))
    return redirect("trials:trial_room", trial_id=attempt.trial_id)


def _gradebook_page(request: HttpRequest, course: Course, *, error: str = "", status: int = 200) -> HttpResponse:
    context = {
        "course": course,
        "gradebook": gradebook_build(course=course),
        "choices": GradebookAttempt.choices,
        "formats": list(GRADEBOOK_FORMATS),
        "error": error,
    }
    return render(request, "classroom/gradebook.html", context, status=status)


@ability_required(Ability.TEACH)
def class_view_page(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """One assignment across the class: the distribution of overall scores, the points of the
    reference most often not raised, and the students who have not started."""
    course = _taught(request, slug)
    view = class_view(assignment=get_object_or_404(course.assignments, pk=assignment_id))
    return render(
        request,
        "classroom/class_view.html",
        {"course": course, "view": view, "histogram": histogram_svg(view.scores)},
    )


@ability_required(Ability.TEACH)
def gradebook_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Students by assignments: each cell the latest or best attempt (the course's choice),
    its scorecard overall, status and lateness, a link to the transcript, and the
    instructor's grade and feedback, saved inline."""
    return _gradebook_page(request, _taught(request, slug))


@ability_required(Ability.TEACH)
@require_POST
def gradebook_attempt_view(request: HttpRequest, slug: str) -> HttpResponse:
    course = _taught(request, slug)
    try:
        gradebook_attempt_set(course=course, choice=request.POST.get("attempt", ""))
    except ClassroomError as problem:
        return _gradebook_page(request, course, error=str(problem), status=400)
    return redirect("classroom:gradebook", slug=course.slug)


@ability_required(Ability.TEACH)
@require_POST
def grade_save_view(request: HttpRequest, slug: str, assignment_id: int, student_id: int) -> HttpResponse:
    """Save one cell's grade and feedback. htmx swaps the cell in place (a refused grade is
    shown in the cell with what was typed); a plain form goes back to the gradebook."""
    course = _taught(request, slug)
    assignment = get_object_or_404(course.assignments, pk=assignment_id)
    student = get_object_or_404(get_user_model(), pk=student_id, enrolments__course=course)
    feedback = request.POST.get("feedback", "")
    error = ""
    try:
        grade_save(
            assignment=assignment,
            student=student,
            grade=grade_parse(request.POST.get("grade", "")),
            feedback=feedback,
            by=request.user,
        )
    except ClassroomError as problem:
        error = str(problem)
    if request.htmx:
        cell = gradebook_cell_of(assignment=assignment, student=student)
        context = {"course": course, "cell": cell, "error": error, "typed": request.POST if error else None}
        return render(request, "classroom/_gradebook_cell.html", context)
    if error:
        return _gradebook_page(
            request,
            course,
            error=_("%(username)s, %(assignment)s: %(error)s")
            % {"username": student.get_username(), "assignment": assignment.title, "error": error},
            status=400,
        )
    return redirect(reverse("classroom:gradebook", args=[course.slug]) + f"#cell-{assignment.pk}-{student.pk}")


@ability_required(Ability.TEACH)
def gradebook_download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The gradebook as CSV or XLSX: the rows of the ``gradebook`` command."""
    course = _taught(request, slug)
    if fmt not in GRADEBOOK_FORMATS:
        raise Http404("csv or xlsx")
    response = HttpResponse(gradebook_bytes(gradebook_build(course=course), fmt), content_type=GRADEBOOK_FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="gradebook-{course.slug}.{fmt}"'
    return response


def _transcript_at(trial_id: int, anchor: str) -> HttpResponse:
    return redirect(reverse("trials:trial_transcript", args=[trial_id]) + anchor)


@ability_required(Ability.TEACH)
@require_POST
def comment_add_view(request: HttpRequest, trial_id: int) -> HttpResponse:
    """An instructor of the trial's course comments on a turn (optionally a quoted passage);
    for anyone else the trial does not exist."""
    trial = Trial.objects.filter(pk=trial_id).first()
    if trial is None or not trial_overseer(trial, request.user):
        raise Http404("no such trial")
    try:
        seq = int(request.POST.get("seq", ""))
    except ValueError:
        return HttpResponseBadRequest(_("turn: choose a turn of the transcript"))
    try:
        comment = comment_add(
            trial=trial,
            seq=seq,
            text=request.POST.get("text", ""),
            excerpt=request.POST.get("excerpt", ""),
            document=request.POST.get("document", ""),
            author=request.user,
        )
    except ClassroomError as problem:
        return HttpResponseBadRequest(str(problem))
    return _transcript_at(trial.pk, f"#comment-{comment.pk}")


@ability_required(Ability.PLAY)
@require_POST
def comment_reply_view(request: HttpRequest, comment_id: int) -> HttpResponse:
    """The student seated in the trial replies once; a second reply is refused with a message."""
    comment = TurnComment.objects.select_related("trial").filter(pk=comment_id, trial__seats__user=request.user)
    comment = comment.first()
    if comment is None:
        raise Http404("no such comment")
    try:
        comment_reply(comment=comment, text=request.POST.get("text", ""), by=request.user)
    except ClassroomError as problem:
        return HttpResponseBadRequest(str(problem))
    return _transcript_at(comment.trial_id, f"#comment-{comment.pk}")


@ability_required(Ability.PLAY)
def feedback_page(request: HttpRequest) -> HttpResponse:
    """The comments on one's trials, the unread ones marked new; seeing them marks them read."""
    comments = list(feedback_for_student(user=request.user))
    unread = {comment.pk for comment in comments if comment.read_at is None and comment.author_id != request.user.pk}
    response = render(request, "classroom/feedback.html", {"comments": comments, "unread": unread})
    comments_read(user=request.user, comments=comments)
    return response
