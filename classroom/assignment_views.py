"""An instructor's pages for a course's assignments: assigning a case, changing and deleting an
assignment, a student's extension, and pairing students. What worked sends the browser back
to the course page with a message (``classroom.views.course_done``); a refusal shows the course
page with its error (``course_page_response``), or, for a change or a deletion, its own page."""

from __future__ import annotations

from datetime import datetime

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from classroom.assignments import (
    assignment_create,
    assignment_delete,
    assignment_update,
    extension_set,
    pair_set,
    pairs_make,
)
from classroom.selectors import enrolled_student
from classroom.services import ClassroomError
from classroom.views import assignment_form_context, course_done, course_page_response, taught_course
from legalsim.roles import Ability, ability_required
from trials.models import Case


@ability_required(Ability.TEACH)
@require_POST
def assignment_pairs_view(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """Pair two students by name, or (no names) pair everyone not yet paired."""
    course = taught_course(request, slug)
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
        return course_page_response(request, course, error=str(problem), status=400)
    return course_done(request, course, message, anchor=f"#assignment-{assignment.pk}")


def _moment(text: str) -> datetime | None:
    """A date and time from the form (``datetime-local``: in the server's time zone)."""
    if not text.strip():
        return None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ClassroomError(_("%(text)r is not a date and time") % {"text": text}) from None
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def _form_stages(post) -> list[str]:
    """The stages ticked (or typed as codes, ``FIT SIT``: the command's way); none is the
    whole procedure."""
    return [stage for value in post.getlist("stages") for stage in value.replace(",", " ").split() if stage != "all"]


def _form_attempts(post) -> int:
    try:
        return int(post.get("attempts") or 1)
    except ValueError:
        raise ClassroomError(_("attempts: a whole number"), field="attempts") from None


def _field_moment(text: str, field: str) -> datetime | None:
    try:
        return _moment(text)
    except ClassroomError as problem:
        raise ClassroomError(str(problem), field=field) from None


@ability_required(Ability.TEACH)
@require_POST
def assignment_create_view(request: HttpRequest, slug: str) -> HttpResponse:
    course = taught_course(request, slug)
    post = request.POST
    try:
        case = Case.objects.filter(pk=post.get("case", "")).first()
        if case is None:
            raise ClassroomError(_("case: choose a case of the library"), field="case")
        assignment = assignment_create(
            course=course,
            case=case,
            seats=post.getlist("seats"),
            stages=_form_stages(post),
            opens_at=_field_moment(post.get("opens_at", ""), "opens_at"),
            due_at=_field_moment(post.get("due_at", ""), "due_at"),
            attempts=_form_attempts(post),
            paired=post.get("paired") == "on",
            title=post.get("title", ""),
            interview_checklist=post.get("no_checklist") != "on",
        )
    except ClassroomError as problem:
        return course_page_response(
            request,
            course,
            error=_("The case was not assigned: see the form below."),
            form_errors={problem.field or "form": str(problem)},
            status=400,
        )
    return course_done(
        request,
        course,
        _("Assigned %(assignment)s.") % {"assignment": assignment.title},
        anchor=f"#assignment-{assignment.pk}",
    )


@ability_required(Ability.TEACH)
def assignment_edit_view(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """Change an assignment's title, dates and attempts (and its seats and stages while
    nobody has started it)."""
    course = taught_course(request, slug)
    assignment = get_object_or_404(course.assignments.select_related("case"), pk=assignment_id)
    errors = None
    if request.method == "POST":
        post = request.POST
        try:
            assignment_update(
                assignment=assignment,
                title=post.get("title", ""),
                seats=post.getlist("seats"),
                stages=_form_stages(post),
                opens_at=_field_moment(post.get("opens_at", ""), "opens_at"),
                due_at=_field_moment(post.get("due_at", ""), "due_at"),
                attempts=_form_attempts(post),
            )
        except ClassroomError as problem:
            errors = {problem.field or "form": str(problem)}
            assignment.refresh_from_db()
        else:
            return course_done(
                request, course, _("Saved %(assignment)s.") % {"assignment": assignment.title}, anchor="#assignments"
            )
    context = {"course": course, "assignment": assignment, "started": assignment.attempts.exists()}
    context |= assignment_form_context(request, errors, assignment)
    return render(request, "classroom/assignment_edit.html", context, status=400 if errors else 200)


def _attempts_leave(attempts: int, students: int) -> str:
    """What deleting an assignment does to its attempts, counted in words that fit the counts."""
    if not attempts:
        return _("No student has attempted it yet: no grade, feedback or extension is lost.")
    by = ngettext("by %(students)d student", "by %(students)d students", students) % {"students": students}
    return ngettext(
        "Its %(attempts)d attempt %(by)s leaves the gradebook, with its grade, feedback and extensions; "
        "students no longer see the assignment.",
        "Its %(attempts)d attempts %(by)s leave the gradebook, with their grades, feedback and extensions; "
        "students no longer see the assignment.",
        attempts,
    ) % {"attempts": attempts, "by": by}


@ability_required(Ability.TEACH)
def assignment_delete_view(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """Delete an assignment: a page that says what happens to its attempts (GET), then the
    deletion (POST)."""
    course = taught_course(request, slug)
    assignment = get_object_or_404(course.assignments, pk=assignment_id)
    if request.method == "POST":
        title = assignment.title
        deleted = assignment_delete(assignment=assignment)
        message = ngettext(
            "Deleted “%(assignment)s” and its %(attempts)d attempt; the trials stay readable.",
            "Deleted “%(assignment)s” and its %(attempts)d attempts; the trials stay readable.",
            deleted,
        ) % {"assignment": title, "attempts": deleted}
        if not deleted:
            message = _("Deleted “%(assignment)s”; nobody had attempted it.") % {"assignment": title}
        return course_done(request, course, message, anchor="#assignments")
    attempts = assignment.attempts.count()
    students = assignment.attempts.values("student").distinct().count()
    return render(
        request,
        "classroom/confirm.html",
        {
            "course": course,
            "title": _("Delete “%(assignment)s”?") % {"assignment": assignment.title},
            "consequences": [
                _attempts_leave(attempts, students),
                _(
                    "The trials played stay: each student still reads their transcript and scorecard (My scorecards), "
                    "and you still oversee them. A trial in progress can be finished but counts for nothing."
                ),
                _("This cannot be undone."),
            ],
            "action": _("Delete the assignment"),
        },
    )


@ability_required(Ability.TEACH)
@require_POST
def extension_view(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """Grant one student a later due date on an assignment, or (blank date) withdraw it."""
    course = taught_course(request, slug)
    assignment = get_object_or_404(course.assignments, pk=assignment_id)
    student = enrolled_student(course=course, posted=request.POST.get("student"))
    try:
        if student is None:
            raise ClassroomError(_("student: choose an enrolled student"), field="student")
        extension = extension_set(
            assignment=assignment,
            student=student,
            due_at=_field_moment(request.POST.get("due_at", ""), "due_at"),
            by=request.user,
        )
    except ClassroomError as problem:
        return course_page_response(
            request,
            course,
            error=_("%(assignment)s: %(error)s") % {"assignment": assignment.title, "error": problem},
            status=400,
        )
    if extension is None:
        message = _("%(username)s is due on the assignment’s own date again.") % {"username": student.get_username()}
    else:
        message = _("%(username)s may submit %(assignment)s until %(due)s.") % {
            "username": student.get_username(),
            "assignment": assignment.title,
            "due": f"{date_format(timezone.localtime(extension.due_at), 'DATETIME_FORMAT')} {timezone.get_current_timezone_name()}",
        }
    return course_done(request, course, message, anchor=f"#assignment-{assignment.pk}")
