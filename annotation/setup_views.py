"""Setting up a study in the browser, for instructors (not the admin site): the form of
``annotation.study_form`` with pickers of trajectories and raters that filter in place
(htmx fragments of the same page). Without JavaScript the page still works: the filters
and "choose all" post the form back, keeping everything typed, and create nothing."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render

from annotation.study_form import StudySetupForm, created_message
from annotation.trajectory_picker import (
    SHOWN,
    TrajectoryFilter,
    all_matching,
    filter_options,
    people_who_rate,
    rater_matches,
    trajectory_choice,
    trajectory_rows,
)
from legalsim.roles import Ability, User, ability_required

CREATE, CHOOSE_ALL = "create", "choose_all"
FRAGMENTS = {"trajectories": "annotation/_trajectory_rows.html", "raters": "annotation/_rater_rows.html"}
"""The parts of the page a filter redraws (``part``), by name."""


@ability_required(Ability.TEACH)
def study_new(request: HttpRequest) -> HttpResponse:
    data = request.POST if request.method == "POST" else request.GET
    if request.htmx and data.get("part") in FRAGMENTS:
        return render(request, FRAGMENTS[data["part"]], _pickers(data, request.user))
    creating = request.method == "POST" and data.get("action", CREATE) == CREATE
    form = (
        StudySetupForm(data, user=request.user)
        if creating
        else StudySetupForm(initial=data.dict() if data else None, user=request.user)
    )
    if creating and form.is_valid():
        created = form.save()
        if created is not None:
            messages.success(request, created_message(created))
            return redirect("annotation:study_dashboard", study_id=created.study.pk)
    context = {"form": form, **_pickers(data, request.user)}
    return render(request, "annotation/study_new.html", context, status=400 if creating else 200)


def _pickers(data: QueryDict, user: User) -> dict:
    """The trajectories ticked (and, after "choose all", every one the filter admits) above
    the others the filter admits; the raters ticked above the others whose name matches."""
    rows = trajectory_rows(user=user)
    query = TrajectoryFilter.from_query(data)
    chosen = data.getlist("trajectories")
    if data.get("action") == CHOOSE_ALL:
        chosen += all_matching(rows, query)
    ticked, rater_text = set(data.getlist("raters")), data.get("f_rater", "")
    people = people_who_rate()
    return {
        "choice": trajectory_choice(rows, chosen, query),
        "shown_at_most": SHOWN,
        "options": filter_options(rows),
        "filter": query,
        "rater_text": rater_text,
        "raters_chosen": [user for user in people if user.get_username() in ticked],
        "raters_matching": [
            user for user in people if user.get_username() not in ticked and rater_matches(user, rater_text)
        ],
    }
