"""The arena's pages: comparisons (instructors), the leaderboard and its exports, the judge
run, and the blind vote (raters)."""

from __future__ import annotations

import numpy as np
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from annotation.models import Rubric, Trajectory
from annotation.trajectory_picker import people_who_rate
from arena.configurations import described, masked
from arena.exports import FORMATS, leaderboard_export
from arena.heatmap import heatmap_svg
from arena.models import Comparison
from arena.selectors import comparisons_of, contest_next, leaderboard_build
from arena.services import ArenaError, batch_trajectory_ids, comparison_create, judge_run, shown_token, votes_submit
from legalsim.llm import LLMClient
from legalsim.roles import Ability, ability_required
from trials.models import Batch


@ability_required(Ability.RATE)
def comparison_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "arena/comparison_list.html",
        {
            "comparisons": comparisons_of(user=request.user),
            "voting": Comparison.objects.filter(raters=request.user),
        },
    )


def _pairwise_rubrics() -> list[Rubric]:
    return [rubric for rubric in Rubric.objects.all() if rubric.definition.kind.is_pairwise]


@ability_required(Ability.TEACH)
def comparison_new(request: HttpRequest) -> HttpResponse:
    batches = Batch.objects.filter(runs__trial__trajectory__isnull=False).distinct()
    context = {"batches": batches, "rubrics": _pairwise_rubrics(), "people": people_who_rate(), "form": request.POST}
    if request.method != "POST":
        context["form"] = {"batch": request.GET.get("batch", "")}
        return render(request, "arena/comparison_new.html", context)
    batch = batches.filter(pk=request.POST.get("batch") or 0).first()
    ids = batch_trajectory_ids(batch) if batch else request.POST.get("trajectory_ids", "").split()
    chosen = request.POST.getlist("raters")
    try:
        comparison = comparison_create(
            name=request.POST.get("name", "").strip() or _("Comparison"),
            rubric_id=request.POST.get("rubric", ""),
            trajectory_ids=ids,
            raters=[person for person in context["people"] if str(person.pk) in chosen],
            owner=request.user,
            batch=batch,
        )
    except ArenaError as error:
        context["error"] = str(error)
        return render(request, "arena/comparison_new.html", context, status=400)
    messages.success(request, _("Comparison created: its raters find it under Comparisons."))
    return redirect("arena:comparison", comparison_id=comparison.pk)


def _owned(request: HttpRequest, comparison_id: int) -> Comparison:
    return get_object_or_404(comparisons_of(user=request.user), pk=comparison_id)


def _board(request: HttpRequest, comparison: Comparison) -> dict:
    try:
        board = leaderboard_build(comparison, item=request.GET.get("item", ""))
    except KeyError as error:
        raise Http404(str(error.args[0])) from None
    board["heatmap"] = heatmap_svg(board["configurations"], board["win_rate"])
    return board


def _items(comparison: Comparison, language: str) -> list[dict]:
    local = comparison.rubric.definition.localized(language)
    return [
        {"id": item["id"], "title": item["title"], "description": item.get("description", "")}
        for group in local.data["groups"]
        for row in group["rows"]
        for item in row["items"]
    ]


@ability_required(Ability.TEACH)
def comparison_page(request: HttpRequest, comparison_id: int) -> HttpResponse:
    comparison = _owned(request, comparison_id)
    context = {
        "comparison": comparison,
        "board": _board(request, comparison),
        "items": _items(comparison, request.LANGUAGE_CODE),
        "configurations": [
            {
                "name": configuration.name,
                "described": described(configuration.settings),
                "n": len(configuration.trajectory_ids),
            }
            for configuration in comparison.configurations.all()
        ],
        "n_contests": comparison.contests.count(),
        "formats": FORMATS,
        "judge_available": bool(settings.OPENAI_BASE_URL),
        "default_judge": settings.LEGALSIM_MODEL_JUDGE,
    }
    template = "arena/_leaderboard.html" if request.htmx else "arena/comparison.html"
    return render(request, template, context)


@ability_required(Ability.TEACH)
def comparison_export(request: HttpRequest, comparison_id: int, fmt: str) -> HttpResponse:
    comparison = _owned(request, comparison_id)
    if fmt not in FORMATS:
        raise Http404(fmt)
    content, content_type = leaderboard_export(leaderboard_build(comparison, item=request.GET.get("item", "")), fmt)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="comparison-{comparison.pk}-leaderboard.{fmt}"'
    return response


@ability_required(Ability.TEACH)
@require_POST
def comparison_judge(request: HttpRequest, comparison_id: int) -> HttpResponse:
    comparison = _owned(request, comparison_id)
    model = request.POST.get("model", "").strip()
    if not settings.OPENAI_BASE_URL or not model:
        messages.error(request, _("The LLM judge cannot run: no model server is connected, or no model named."))
        return redirect("arena:comparison", comparison_id=comparison.pk)
    unusable = judge_run(comparison=comparison, model=model, client=LLMClient.from_settings())
    messages.info(request, _("The judge voted on every pair in both orders; %(n)d answers unusable.") % {"n": unusable})
    return redirect("arena:comparison", comparison_id=comparison.pk)


@ability_required(Ability.RATE)
def vote_page(request: HttpRequest, comparison_id: int) -> HttpResponse:
    comparison = get_object_or_404(Comparison.objects.filter(raters=request.user), pk=comparison_id)
    error, status = "", 200
    if request.method == "POST":
        answers = {
            key.removeprefix("answer__"): value for key, value in request.POST.items() if key.startswith("answer__")
        }
        try:
            votes_submit(
                comparison=comparison,
                contest_id=int(request.POST.get("contest") or 0),
                rater=request.user,
                token=request.POST.get("shown", ""),
                answers=answers,
            )
        except ArenaError as problem:
            error, status = str(problem), 400
        else:
            messages.success(request, _("Your votes are stored."))
            return redirect("arena:vote", comparison_id=comparison.pk)
    drawn = contest_next(comparison, request.user, np.random.default_rng())
    context = {"comparison": comparison, "error": error, "items": _items(comparison, request.LANGUAGE_CODE)}
    if drawn is not None:
        contest, first_shown_as_a = drawn
        ids = (contest.first_trajectory, contest.second_trajectory)
        records = {t.pk: t.as_contract() for t in Trajectory.objects.filter(pk__in=ids)}
        models = [str(c.settings.get("model", "")) for c in comparison.configurations.all()]
        shown = ids if first_shown_as_a else ids[::-1]
        context |= {
            "contest": contest,
            "token": shown_token(contest, first_shown_as_a),
            "panels": [
                {"side": side, "record": masked(records[tid], models) if tid in records else None}
                for side, tid in zip("AB", shown, strict=True)
            ],
        }
    return render(request, "arena/vote.html", context, status=status)
