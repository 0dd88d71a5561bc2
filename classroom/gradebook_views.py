"""An instructor's gradebook pages: students by assignments with their grades saved inline and
released to them, the choice of attempt shown, the CSV and XLSX downloads, and the class view
of one assignment."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom.exports import GRADEBOOK_FORMATS, gradebook_bytes
from classroom.gradebook import class_view, gradebook_build, gradebook_cell_of
from classroom.grades import grade_parse, grade_save, gradebook_attempt_set, grades_release, grades_withhold
from classroom.models import Course, GradebookAttempt
from classroom.selectors import course_instructor, enrolled_student
from classroom.services import ClassroomError
from classroom.views import taught_course
from legalsim.roles import Ability, ability_required
from scoring.charts import histogram_svg


def _gradebook_page(request: HttpRequest, course: Course, *, error: str = "", status: int = 200) -> HttpResponse:
    gradebook = gradebook_build(course=course)
    context = {
        "releasable": {
            assignment.pk: sum(1 for _student, cells in gradebook.rows if cells[index].releasable)
            for index, assignment in enumerate(gradebook.assignments)
        },
        "course": course,
        "gradebook": gradebook,
        "choices": GradebookAttempt.choices,
        "formats": list(GRADEBOOK_FORMATS),
        "error": error,
    }
    return render(request, "classroom/gradebook.html", context, status=status)


@ability_required(Ability.TEACH)
def class_view_page(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """One assignment across the class: the distribution of overall scores, the points of the
    reference most often not raised, and the students who have not started (with their
    e-mail addresses for the course's instructors only; an admin who does not teach it sees
    names)."""
    course = taught_course(request, slug)
    view = class_view(assignment=get_object_or_404(course.assignments, pk=assignment_id))
    return render(
        request,
        "classroom/class_view.html",
        {
            "course": course,
            "view": view,
            "histogram": histogram_svg(view.scores),
            "show_emails": course_instructor(course=course, user=request.user),
        },
    )


@ability_required(Ability.TEACH)
def gradebook_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Students by assignments: each cell the latest or best attempt (the course's choice),
    its scorecard overall, status and lateness, a link to the transcript, and the
    instructor's grade and feedback, saved inline."""
    return _gradebook_page(request, taught_course(request, slug))


@ability_required(Ability.TEACH)
@require_POST
def gradebook_attempt_view(request: HttpRequest, slug: str) -> HttpResponse:
    course = taught_course(request, slug)
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
    course = taught_course(request, slug)
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
@require_POST
def grades_release_view(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """Release the saved grades of an assignment to its students, or one student's (``student``
    posted), or take one student's back (``withhold``). htmx swaps that student's cell."""
    course = taught_course(request, slug)
    assignment = get_object_or_404(course.assignments, pk=assignment_id)
    student = None
    if request.POST.get("student"):
        student = enrolled_student(course=course, posted=request.POST["student"])
        if student is None:
            raise Http404("no such student in this course")
    if student is not None and request.POST.get("withhold"):
        grades_withhold(assignment=assignment, student=student)
    else:
        released = grades_release(assignment=assignment, student=student)
        if student is None:
            messages.success(
                request,
                _("Released %(count)d grade(s) of %(assignment)s to the students.")
                % {"count": released, "assignment": assignment.title},
            )
    if request.htmx and student is not None:
        cell = gradebook_cell_of(assignment=assignment, student=student)
        return render(request, "classroom/_gradebook_cell.html", {"course": course, "cell": cell})
    anchor = f"#cell-{assignment.pk}-{student.pk}" if student is not None else ""
    return redirect(reverse("classroom:gradebook", args=[course.slug]) + anchor)


@ability_required(Ability.TEACH)
def gradebook_download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The gradebook as CSV or XLSX: the rows of the ``gradebook`` command."""
    course = taught_course(request, slug)
    if fmt not in GRADEBOOK_FORMATS:
        raise Http404("csv or xlsx")
    response = HttpResponse(gradebook_bytes(gradebook_build(course=course), fmt), content_type=GRADEBOOK_FORMATS[fmt])
    response["Content-Disposition"] = f'attachment; filename="gradebook-{course.slug}.{fmt}"'
    return response
