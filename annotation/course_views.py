"""A course's permission to rate its students' trials in studies (issue 32, item 6): the
setting sits on the course page; the rule it feeds is ``annotation.trajectory_access``.

The course is reached through ``Trial.course``, as ``trials.access`` reaches it: the
annotation app does not import the classroom app."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.services import course_practice_trials_set
from legalsim.roles import Ability, ability_required, can
from trials.models import Trial

Course = Trial.course.field.related_model


@ability_required(Ability.TEACH)
@require_POST
def course_practice_trials(request: HttpRequest, slug: str) -> HttpResponse:
    """Only the course's instructors (and admins) change it; for anyone else there is no such course."""
    courses = Course.objects.all() if can(request.user, Ability.ADMINISTER) else request.user.courses_taught.all()
    course = courses.filter(slug=slug).first()
    if course is None:
        raise Http404("no such course")
    allowed = request.POST.get("allowed") == "1"
    course_practice_trials_set(course=course, allowed=allowed)
    messages.success(
        request,
        _(
            "Practice trials of this course may now be used for rating studies; students see this on their list of courses."
        )
        if allowed
        else _("Practice trials of this course are no longer used for rating studies; they left every study's queue."),
    )
    return redirect("classroom:course", slug=course.slug)
