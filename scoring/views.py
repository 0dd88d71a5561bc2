"""The scorecard pages: a seat's scorecard, a person's scorecards over their attempts, and
the target models compared (LegalWorld Table 3, Figure 6 and Table 4)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from legalsim.roles import Ability, ability_required
from scoring.capabilities import CAPABILITIES
from scoring.charts import capability_bars_svg, heatmap_svg, trend_svg
from scoring.report import capability_cell
from scoring.scorers import RuleBasedScorer
from scoring.selectors import (
    gains_averaged,
    model_profile,
    reflection_gains,
    scorecard_context,
    scorecard_read,
    scorecard_seats,
    scorecards_by_case,
    scorecards_of,
)
from trials.access import NotSeated, trial_read
from trials.models import Trial


@ability_required(Ability.PLAY)
def trial_scorecard(request: HttpRequest, trial_id: int) -> HttpResponse:
    """The scorecard of a seat the reader played (``?seat=``; by default counsel's, else the
    judge's, else a party's; an overseer may open any seat a person played): its scores with
    their items, each deduction linked to the transcript; what the reference held that was
    not raised only once the trial is over."""
    trial, readable = _trial_for_reader(request, trial_id)
    seats = scorecard_seats(trial.engine_state, readable)
    seat = request.GET.get("seat") or (seats[0] if seats else "")
    if seat not in seats:
        raise Http404("no scorecard for that seat")
    score = scorecard_read(trial, seat)
    finished = trial.status == Trial.Status.FINISHED
    context = scorecard_context(score, finished, trial.case.language)
    return render(
        request,
        "scoring/scorecard.html",
        {
            "trial": trial,
            "score": score,
            "seat": seat,
            "seats": seats,
            "language": trial.case.language,
            "chart": capability_bars_svg(
                [(row["name"], capability_cell(row["value"])) for row in context["capabilities"]]
            ),
            **context,
        },
    )


@ability_required(Ability.PLAY)
def my_scorecards(request: HttpRequest) -> HttpResponse:
    """The person's scorecards grouped by case, attempts compared, with the trend of their
    overall score."""
    scores = scorecards_of(request.user)
    points = [
        (gettext("trial %(trial)s") % {"trial": score.trial_id}, score.overall)
        for score in scores
        if score.overall is not None
    ]
    return render(request, "scoring/scorecards.html", {"cases": scorecards_by_case(scores), "trend": trend_svg(points)})


@ability_required(Ability.TEACH)
def model_profile_page(request: HttpRequest) -> HttpResponse:
    """Table 3 and Figure 6: the capability profile of each target-lawyer model."""
    scorer = request.GET.get("scorer", RuleBasedScorer.label)
    rows = model_profile(scorer=scorer)
    gains = reflection_gains(scorer=scorer)
    return render(
        request,
        "scoring/model_profile.html",
        {
            "rows": rows,
            "gains": gains,
            "gain_averages": gains_averaged(gains),
            "scorer": gettext("rule-based") if scorer == RuleBasedScorer.label else scorer,
            "heatmap": heatmap_svg(rows),
            "capabilities": CAPABILITIES,
        },
    )


def _trial_for_reader(request: HttpRequest, trial_id: int) -> tuple[Trial, list[str] | None]:
    """The trial and the seats the user reads it through; a 404 for someone who may not read it."""
    try:
        return trial_read(trial_id, request.user)
    except NotSeated:
        raise Http404("no such trial") from None
