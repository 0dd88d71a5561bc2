"""Reads of stored scores: a person's scorecard history and the model capability profile."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from itertools import takewhile
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from court.engine.state import TrialState
from court.procedures.seats import seat_kind
from scoring.capabilities import seat_of_subject
from scoring.models import TrialScore
from scoring.names import capability_name, item_detail
from scoring.reasons import reason_shown
from scoring.report import (
    ALIGNMENT_ROWS,
    capabilities_mean,
    dimensions_of,
    mean_interval,
    mean_present,
    overall_score,
    person_seats,
    result_overall,
    seat_result,
)
from scoring.scorers import RuleBasedScorer, Scorer
from trials.models import SkillNote, Trial

COMPLAINT_ROWS = {
    "plaintiff_info": _("Plaintiff's particulars"),
    "defendant_info": _("Defendant's particulars"),
    "facts": _("Facts"),
    "reasons": _("Reasons"),
    "claims": _("Claims"),
    "evidence": _("Evidence"),
    "standardability": _("Standardability"),
    "professionalism": _("Professionalism"),
}
"""The complaint's rows on a scorecard (MASER B.2, ``scoring.complaint``), in its order."""
STORED_REASONS = (gettext_noop("played by an agent before or instead of the student; not scored for the student"),)
"""Fixed sentences a stored result carries (``skipped_stages``), translated when shown."""
KIND_ORDER = {"lawyer": 0, "judge": 1, "client": 2}
"""The scorecard shown first to someone who played several seats: counsel's, the judge's, a party's."""


def _reason(reason: str, rule_based: bool, reveal: bool) -> str:
    """An item's reason as the scorecard shows it: the rule-based scorer's in the interface's
    language; an LLM scorer's (which may quote the reference) only once the trial is over."""
    if rule_based:
        return reason_shown(reason, capability_name)
    return reason if reveal else ""


def complaint_rows(complaint: dict[str, Any] | None) -> list[tuple[str, float]]:
    """A scored complaint as (row name, score in [0,1]) pairs: numbers only, so the reference
    it was scored against shows nowhere on the page."""
    if not complaint:
        return []
    values = complaint["fields"] | {key: complaint[key] for key in ("standardability", "professionalism")}
    return [(str(name), values[key]) for key, name in COMPLAINT_ROWS.items()]


def score_preferred(scores: Iterable[TrialScore]) -> TrialScore | None:
    """The score a trial is shown with: the LLM scorer's where it ran, else the rule-based one."""
    return min(scores, key=lambda score: score.scorer == RuleBasedScorer.label, default=None)


def scorecard_computed(*, trial: Trial, scorer: Scorer, seat: str | None = None) -> TrialScore:
    """A seat's scorecard (by default the target lawyer's) as ``scorer`` scores the trial so
    far, not stored: ``trial_score`` stores it, a page reads it when none is stored."""
    state = trial.engine_state
    seat = seat or seat_of_subject(state)
    result = seat_result(state, seat, scorer=scorer) | {"trial_id": trial.pk, "case_id": trial.case_id}
    holder = trial.seats.filter(seat=seat).select_related("user").first()
    subject = "human" if any(turn.seat == seat and turn.author == "human" for turn in state.turns) else "agent"
    username = state.human_seats.get(seat) or (holder.user.get_username() if holder and holder.user else "")
    return TrialScore(
        trial=trial,
        scorer=scorer.label,
        seat=seat,
        subject=subject,
        subject_user=get_user_model().objects.filter(username=username).first()
        if subject == "human" and username
        else None,
        target_model=f"human:{username}" if subject == "human" else (holder.holder if holder else "agent:unknown"),
        overall=result_overall(result),
        result=result,
    )


def scorecard_read(trial: Trial, seat: str | None = None) -> TrialScore:
    """The scorecard of a seat (by default the target lawyer's). A finished trial's stored one
    (the LLM scorer's when it ran, else the rule-based one; ``scorecards_store`` stores those of
    the seats people played when the trial finishes); otherwise the rule-based scorecard of the
    trial as far as it went, computed now and never stored: a read writes nothing."""
    seat = seat or seat_of_subject(trial.engine_state)
    if trial.status == Trial.Status.FINISHED and (stored := score_preferred(trial.scores.filter(seat=seat))):
        return stored
    return scorecard_computed(trial=trial, scorer=RuleBasedScorer(), seat=seat)


def scorecard_seats(state: TrialState, readable: list[str] | None) -> list[str]:
    """The seats whose scorecard a reader may open, the one to show first first: their own
    seats that have one (``readable``), or for an overseer (None) every seat a person played,
    else the target lawyer's."""
    if readable is None:
        seats = person_seats(state) or [seat_of_subject(state)]
    else:
        seats = [seat for seat in readable if seat_kind(state.procedure, seat) is not None]
    return sorted(seats, key=lambda seat: KIND_ORDER[seat_kind(state.procedure, seat) or "lawyer"])


def player_seat(trial: Trial, user) -> str | None:
    """The seat whose scorecard grades ``user``'s play in ``trial``: of the seats they hold or
    held (a seat handed back to an agent keeps its player in the state), counsel's first."""
    username = user.get_username()
    held = {seat.seat for seat in trial.seats.all() if seat.user_id == user.pk}
    held |= {seat for seat, name in trial.engine_state.human_seats.items() if name == username}
    seats = scorecard_seats(trial.engine_state, sorted(held))
    return seats[0] if seats else None


def scorecards_of(user) -> list[TrialScore]:
    """The user's scorecards, oldest first (one per trial and seat, ``score_preferred``)."""
    by_seat: dict[tuple[int, str], list[TrialScore]] = defaultdict(list)
    for score in TrialScore.objects.filter(subject_user=user).select_related("trial__case"):
        by_seat[score.trial_id, score.seat].append(score)
    chosen = [score_preferred(scores) for scores in by_seat.values()]
    return sorted(chosen, key=lambda score: (score.trial.created_at, score.trial_id))


def scorecards_by_case(scores: list[TrialScore]) -> list[dict[str, Any]]:
    """A person's scorecards grouped by case and seat kind, attempts oldest first, each with
    the change of its overall from the attempt before (what the attempts compare)."""
    groups: dict[tuple[str, str], list[TrialScore]] = defaultdict(list)
    for score in scores:
        groups[score.trial.case_id, score.result.get("kind", "lawyer")].append(score)
    cases = []
    for (_case, kind), attempts in groups.items():
        rows, before = [], None
        for number, score in enumerate(attempts, start=1):
            change = None if before is None or score.overall is None else score.overall - before
            rows.append({"number": number, "score": score, "change": change})
            before = score.overall if score.overall is not None else before
        dimensions = dimensions_of(kind)
        cases.append({"case": attempts[0].trial.case, "kind": kind, "attempts": rows, "dimensions": dimensions})
    return sorted(cases, key=lambda group: group["attempts"][-1]["score"].trial.created_at, reverse=True)


def model_profile(*, scorer: str) -> list[dict[str, Any]]:
    """LegalWorld's Table 3 and Figure 6 (docs/sources.md): per target model (agents only), the
    capabilities averaged over its civil trials, and the overall figure with its 95 % bootstrap
    interval over those trials (models compared side by side: ``simulate_split
    --models-target``)."""
    grouped: dict[str, list[dict]] = defaultdict(list)
    for score in TrialScore.objects.filter(scorer=scorer, subject="agent", trial__procedure="civil"):
        grouped[score.target_model].append(score.result["capabilities"])
    rows = []
    for model, results in sorted(grouped.items()):
        capabilities = capabilities_mean(results)
        overalls = [value for value in map(overall_score, results) if value is not None]
        rows.append(
            {
                "model": model,
                "trials": len(results),
                "capabilities": capabilities,
                "overall": overall_score(capabilities),
                "overall_interval": mean_interval(overalls),
            }
        )
    return rows


def reflection_gains(*, scorer: str) -> list[dict[str, Any]]:
    """LegalWorld's Table 4 (section 4.6, docs/sources.md): per target model and cause of
    action, the mean overall of civil trials run without skill notes (base) and with them,
    and the difference over all cases, over the cases the notes were reflected from, and over
    held-out cases of the cause. A cause appears once both kinds of trial are scored; a part
    without trials on both sides has no difference (None)."""
    reflected = defaultdict(set)
    for cause, case_id in SkillNote.objects.values_list("cause_of_action", "source_case"):
        reflected[cause].add(case_id)
    groups: dict[tuple[str, str], list[tuple[bool, bool, float]]] = defaultdict(list)
    scores = TrialScore.objects.filter(scorer=scorer, subject="agent", trial__procedure="civil", overall__isnull=False)
    for score in scores.select_related("trial__case"):
        cause = score.trial.case.cause_of_action
        with_notes, from_reflected = bool(score.trial.skill_notes), score.trial.case_id in reflected[cause]
        groups[(score.target_model, cause)].append((with_notes, from_reflected, score.overall))
    rows = [_gain_row(model, cause, trials) for (model, cause), trials in sorted(groups.items())]
    return [row for row in rows if row["base"] is not None and row["notes"] is not None]


def gains_averaged(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table 4's "Average" line: each model's figures averaged over its causes."""
    by_model: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_model[row["model"]].append(row)
    columns = ("base", "notes", "gain", "gain_reflected", "gain_held_out")
    return [
        {"model": model, **{column: mean_present([row[column] for row in causes]) for column in columns}}
        for model, causes in by_model.items()
    ]


def _gain_row(model: str, cause: str, trials: list[tuple[bool, bool, float]]) -> dict[str, Any]:
    def mean_of(with_notes: bool, part: bool | None = None) -> float | None:
        return mean_present(
            [overall for notes, reflected, overall in trials if notes == with_notes and part in (None, reflected)]
        )

    def gain(part: bool | None) -> float | None:
        base, notes = mean_of(False, part), mean_of(True, part)
        return None if base is None or notes is None else notes - base

    return {
        "model": model,
        "cause": cause,
        "base": mean_of(False),
        "notes": mean_of(True),
        "gain": gain(None),
        "gain_reflected": gain(True),
        "gain_held_out": gain(False),
        "trials": len(trials),
    }


def deductions_merged(items: list[dict[str, Any]], language: str) -> list[dict[str, Any]]:
    """A stage's deductions as the scorecard lists them, each named by what tells it apart
    (``detail``: the question and dimension, the phase, the pleading's field); those of one
    capability that say the same of the same source (the four dimensions of a consultation
    answer with nothing of the case in it) are one line, ``count`` times."""
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        if item["score"] < 1:
            links = tuple(tuple(sorted(link.items())) for link in item["links"])
            groups[item["stage"], item["capability"], item["score"], item["reason"], links].append(item)
    return [
        members[0]
        | {
            "count": len(members),
            "detail": _detail_shown([item_detail(m["id"], m["capability"], language) for m in members]),
        }
        for members in groups.values()
    ]


def _detail_shown(details: list[list[str]]) -> str:
    """Several items' names as one: the words they share once, then what differs, listed
    ("question 1 · Legal relationship, Applicable rule, Risk, Advice")."""
    shared: list[str] = []
    if len(details) > 1:
        columns = zip(*details, strict=False)
        shared = [column[0] for column in takewhile(lambda column: len(set(column)) == 1, columns)]
    rests = [rest for rest in dict.fromkeys(" · ".join(words[len(shared) :]) for words in details) if rest]
    if not rests:
        return " · ".join(shared)
    listed = rests[0]
    for rest in rests[1:]:
        listed = gettext("%(list)s, %(item)s") % {"list": listed, "item": rest}
    return " · ".join([*shared, listed])


def scorecard_context(score: TrialScore, finished: bool, language: str = "en") -> dict[str, Any]:
    """What the scorecard page shows, stage and phase names in the case's ``language``.
    Reference points not raised, an LLM scorer's reasons (which may quote the reference) and
    the real sentence stay back until the trial is over."""
    result = score.result
    reveal = finished
    stages = []
    for stage, value in result.get("stages", {}).items():
        items = [
            item | {"reason": _reason(item["reason"], score.scorer == RuleBasedScorer.label, reveal)}
            for item in result["items"]
            if item["stage"] == stage
        ]
        stages.append(
            {
                "stage": stage,
                "score": value,
                "items": items,
                "deductions": deductions_merged(items, language),
            }
        )
    capabilities = [
        {"name": capability_name(name), "value": result["capabilities"][name]}
        for name in dimensions_of(result.get("kind", "lawyer"))
        if name in result.get("capabilities", {})
    ]
    return {
        "reveal": reveal,
        "kind": result.get("kind", "lawyer"),
        "rule_based": score.scorer == RuleBasedScorer.label,
        "capabilities": capabilities,
        "stages": stages,
        "skipped": {stage: gettext(why) for stage, why in result.get("skipped_stages", {}).items()},
        "alignment": result.get("alignment") or {},
        "alignment_rows": ALIGNMENT_ROWS,
        "interaction": result.get("interaction") or {},
        "prediction": result.get("prediction") if reveal else None,
        "complaint": complaint_rows(result.get("complaint")),
        "missing": [(item["id"], item["missing"]) for item in result.get("items", []) if item["missing"]]
        if reveal
        else [],
    }
