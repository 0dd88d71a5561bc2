from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from trials.models import Case
from trials.selectors import case_public_seed, case_search


@login_required
def case_library(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    procedure = request.GET.get("procedure", "")
    if procedure not in Case.Procedure.values:
        procedure = ""
    context = {
        "cases": case_search(query=query, procedure=procedure),
        "query": query,
        "procedure": procedure,
        "procedures": Case.Procedure.choices,
    }
    template = "trials/_case_list.html" if request.htmx else "trials/case_library.html"
    return render(request, template, context)


@login_required
def case_detail(request: HttpRequest, case_id: str) -> HttpResponse:
    """Participants see the case without its evaluation-only fields; staff see everything."""
    case = get_object_or_404(Case, pk=case_id)
    seed = case.seed if request.user.is_staff else case_public_seed(case.seed)
    trials = (
        case.trials.select_related("trajectory")
        .annotate(llm_calls_count=Count("llm_calls"))
        .order_by("-created_at")[:20]
    )
    return render(request, "trials/case_detail.html", {"case": case, "seed": seed, "trials": trials})
