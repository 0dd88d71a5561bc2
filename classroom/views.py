"""The classroom's pages: an instructor's courses with their rosters, a student's courses,
assignments and feedback, and the comments on a transcript. Thin views over the classroom's
services and selectors.

Instructors (``teach``) reach only the courses they teach (admins every course): another
course is a 404. Students (``play``) see the courses they are enrolled in and their
assignments. An instructor's pages for assignments are ``classroom.assignment_views``, for
grades ``classroom.gradebook_views``; both build on this module's course page.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from classroom.assignments import assignment_start
from classroom.feedback import comment_add, comment_reply, comments_read
from classroom.grades import grades_seen
from classroom.models import Assignment, Course, TurnComment
from classroom.rosters import RosterCheck
from classroom.selectors import (
    assignment_of_student,
    assignment_progress,
    assignments_of_student,
    course_instructor,
    course_language_default,
    course_roster,
    course_taught_by,
    courses_enrolled,
    courses_taught,
    feedback_for_student,
    grades_released_to,
)
from classroom.services import (
    ClassroomError,
    course_create,
    course_enrol,
    course_join,
    course_unenrol,
    instructor_add,
    invite_code_regenerate,
)
from court.procedures import procedure_for
from court.procedures.seats import PLAYABLE_SEATS
from legalsim.roles import Ability, ability_required
from scoring.selectors import scorecards_of
from trials.access import trial_overseer
from trials.models import Case, Trial
from trials.services import BackendUnavailable


def taught_course(request: HttpRequest, slug: str) -> Course:
    """The course ``slug`` if the user teaches it (admins every course); a 404 otherwise."""
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
                language=request.POST.get("language") or course_language_default(),
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
            "form": request.POST if error else {"language": course_language_default()},
        },
        status=400 if error else 200,
    )


def course_page_response(
    request: HttpRequest,
    course: Course,
    *,
    error: str = "",
    roster: RosterCheck | None = None,
    status: int = 200,
    form_errors: dict[str, str] | None = None,
    enrol_typed: dict[str, object] | None = None,
) -> HttpResponse:
    """The course page, with why the last action was refused: an error, a refused roster's
    problems, the assignment form's errors beside its fields, or the usernames typed into
    the enrol form. (An action that worked redirects: ``course_done``.) E-mail addresses are
    shown to the course's instructors (an admin who does not teach it sees names)."""
    assignments = list(course.assignments.select_related("case").order_by("opens_at", "id"))
    context = {
        "course": course,
        "roster": course_roster(course=course),
        "instructors": course.instructors.order_by("username"),
        "assignments": [(assignment, assignment_progress(assignment=assignment)) for assignment in assignments],
        "error": error,
        "enrol_typed": enrol_typed or {},
        "report": roster,
        "show_emails": course_instructor(course=course, user=request.user),
        "roster_jobs": list(course.roster_jobs.only("pk", "label", "status", "created_at")[:5]),
        "roster_max_rows": settings.LEGALSIM_ROSTER_MAX_ROWS,
    } | assignment_form_context(request, form_errors)
    return render(request, "classroom/course.html", context, status=status)


def course_done(request: HttpRequest, course: Course, message: str, *, anchor: str) -> HttpResponse:
    """Post/Redirect/Get after an action on the course page worked: the page again, at
    ``anchor``, with ``message`` shown once; reloading it does not repeat the action."""
    messages.success(request, message)
    return redirect(reverse("classroom:course", args=[course.slug]) + anchor)


def assignment_form_context(
    request: HttpRequest, errors: dict[str, str] | None, assignment: Assignment | None = None
) -> dict[str, object]:
    """What the assignment form shows: the cases, each procedure's seats and stages (by their
    names), what was typed (after a refusal) or the assignment's values, and each field's
    error beside it."""
    if errors is not None:
        typed = {
            "case": request.POST.get("case", ""),
            "title": request.POST.get("title", ""),
            "seats": request.POST.getlist("seats"),
            "stages": request.POST.getlist("stages"),
            "opens_at": request.POST.get("opens_at", ""),
            "due_at": request.POST.get("due_at", ""),
            "attempts": request.POST.get("attempts", "1"),
            "paired": request.POST.get("paired") == "on",
        }
    elif assignment is not None:
        typed = {
            "case": assignment.case_id,
            "title": assignment.title,
            "seats": list(assignment.seats),
            "stages": list(assignment.stages),
            "opens_at": _local_input(assignment.opens_at),
            "due_at": _local_input(assignment.due_at),
            "attempts": str(assignment.attempts_allowed),
            "paired": assignment.paired,
        }
    else:
        typed = {"seats": [], "stages": [], "attempts": "1"}
    return {
        "cases": Case.objects.order_by("procedure", "title").only("id", "title", "procedure"),
        "procedures": [
            (procedure, PLAYABLE_SEATS[procedure], procedure_for(procedure).stage_ids) for procedure in PLAYABLE_SEATS
        ],
        "typed": typed,
        "errors": errors or {},
    }


def _local_input(moment: datetime | None) -> str:
    """A stored date as a ``datetime-local`` input shows it (the server's time zone)."""
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M") if moment else ""


@ability_required(Ability.TEACH)
def course_page(request: HttpRequest, slug: str) -> HttpResponse:
    """A course: roster, enrolment by usernames or roster file, invite code, co-instructors,
    assignments with each student's status, and the form to assign a case."""
    return course_page_response(request, taught_course(request, slug))


@ability_required(Ability.TEACH)
@require_POST
def course_enrol_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Enrol the usernames typed; a refusal enrols nobody and keeps what was typed."""
    course = taught_course(request, slug)
    typed = {
        "usernames": request.POST.get("usernames", ""),
        "as_student_anyway": request.POST.get("as_student_anyway") == "on",
    }
    try:
        enrolled, already = course_enrol(
            course=course, usernames=typed["usernames"].split(), as_student_anyway=typed["as_student_anyway"]
        )
    except ClassroomError as problem:
        return course_page_response(request, course, error=str(problem), enrol_typed=typed, status=400)
    if already:
        message = _("Enrolled %(count)d; %(already)d already enrolled.") % {
            "count": len(enrolled),
            "already": len(already),
        }
    else:
        message = _("Enrolled %(count)d.") % {"count": len(enrolled)}
    return course_done(request, course, message, anchor="#roster")


@ability_required(Ability.TEACH)
def course_unenrol_view(request: HttpRequest, slug: str, student_id: int) -> HttpResponse:
    """Unenrol a student: a page that says what happens (GET), then the unenrolment (POST)."""
    course = taught_course(request, slug)
    student = get_object_or_404(get_user_model(), pk=student_id, enrolments__course=course)
    if request.method == "POST":
        course_unenrol(course=course, user=student)
        message = _("%(username)s is no longer enrolled in %(course)s.") % {
            "username": student.get_username(),
            "course": course.title,
        }
        return course_done(request, course, message, anchor="#roster")
    attempts = student.attempts.filter(assignment__course=course).count()
    return render(
        request,
        "classroom/confirm.html",
        {
            "course": course,
            "title": _("Unenrol %(username)s?") % {"username": student.get_username()},
            "consequences": [
                _(
                    "They no longer see this course’s assignments and cannot start them; the gradebook no longer lists them."
                ),
                ngettext(
                    "Their %(attempts)d attempt, the trial played and any grade are kept: enrolling them again "
                    "brings their gradebook row back. A pairing that has not played yet is undone.",
                    "Their %(attempts)d attempts, the trials played and any grades are kept: enrolling them again "
                    "brings their gradebook row back. A pairing that has not played yet is undone.",
                    attempts,
                )
                % {"attempts": attempts}
                if attempts
                else _("They have attempted nothing in this course yet. A pairing that has not played yet is undone."),
            ],
            "action": _("Unenrol"),
        },
    )


@ability_required(Ability.TEACH)
@require_POST
def course_invite_code(request: HttpRequest, slug: str) -> HttpResponse:
    course = taught_course(request, slug)
    invite_code_regenerate(course=course)
    return course_done(request, course, _("A new invite code; the old one no longer works."), anchor="#invite")


@ability_required(Ability.TEACH)
@require_POST
def course_instructor_add(request: HttpRequest, slug: str) -> HttpResponse:
    course = taught_course(request, slug)
    try:
        user = instructor_add(course=course, username=request.POST.get("username", "").strip())
    except ClassroomError as problem:
        return course_page_response(request, course, error=str(problem), status=400)
    return course_done(
        request,
        course,
        _("%(username)s teaches this course too.") % {"username": user.get_username()},
        anchor="#instructors",
    )


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
def my_assignment(request: HttpRequest, assignment_id: int) -> HttpResponse:
    """One assignment as the student sees it: what to play, their due date, their attempts
    with transcripts and scorecards, and their grade and feedback once released (seeing it
    here takes the notice away)."""
    row = assignment_of_student(user=request.user, assignment_id=assignment_id)
    if row is None:
        raise Http404("no such assignment")
    scores = {score.trial_id: score for score in scorecards_of(request.user)}
    attempts = [(attempt, scores.get(attempt.trial_id)) for attempt in row.attempts]
    if row.grade is not None:  # seen from now on: the nav's notice goes; the page still marks it new
        grades_seen(user=request.user, grades=[row.grade])
    return render(request, "classroom/my_assignment.html", {"row": row, "attempts": attempts})


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
    """The comments on one's trials and the grades released, the unread ones marked new;
    seeing them marks them read."""
    comments = list(feedback_for_student(user=request.user))
    unread = {comment.pk for comment in comments if comment.read_at is None and comment.author_id != request.user.pk}
    grades = list(grades_released_to(user=request.user))
    response = render(request, "classroom/feedback.html", {"comments": comments, "unread": unread, "grades": grades})
    comments_read(user=request.user, comments=comments)
    grades_seen(user=request.user, grades=grades)
    return response
