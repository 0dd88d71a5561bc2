"""Scoring writes and reads: score a trial with a scorer and store it; the export layouts."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from django.conf import settings

from court.legaltext.sentences import NOTHING_READ, sentence_extract
from legalsim.json_input import Problem
from legalsim.llm import LLMClient
from legalsim.spreadsheet import CsvDictWriter
from scoring.capabilities import CAPABILITIES
from scoring.models import TrialScore
from scoring.prediction import (
    CaseScore,
    Sentence,
    article_counts,
    article_prf,
    case_score,
    case_statutory_range,
    ljp_metrics,
    ljp_summary,
    sentence_from_case,
)
from scoring.predictions_file import PredictionLine, predictions_read
from scoring.report import ALIGNMENT_ROWS, JUDGMENTS, person_seats
from scoring.scorers import LLMScorer, RuleBasedScorer, Scorer
from scoring.selectors import scorecard_computed
from trials.models import Case, Trial


def scorer_build(name: str) -> Scorer:
    """``rule-based`` (offline, deterministic) or ``llm`` (the LLM judge model)."""
    if name == "llm":
        return LLMScorer(client=LLMClient.from_settings(), model=settings.LEGALSIM_MODEL_JUDGE)
    return RuleBasedScorer()


def trial_score(*, trial: Trial, scorer: Scorer, seat: str | None = None) -> TrialScore:
    """Score a seat of the trial (by default the target lawyer's) and store the result (one
    per trial, seat and scorer)."""
    computed = scorecard_computed(trial=trial, scorer=scorer, seat=seat)
    score, _ = TrialScore.objects.update_or_create(
        trial=trial,
        scorer=computed.scorer,
        seat=computed.seat,
        defaults={
            field: getattr(computed, field)
            for field in ("subject", "subject_user", "target_model", "overall", "result")
        },
    )
    return score


def scorecards_store(*, trial: Trial) -> list[TrialScore]:
    """The scorecard of every seat a person played, stored when the trial finishes so that
    each player finds it in My scorecards without opening it first."""
    return [trial_score(trial=trial, scorer=RuleBasedScorer(), seat=seat) for seat in person_seats(trial.engine_state)]


def export_json(scores: list[TrialScore], path: Path) -> None:
    path.write_text(json.dumps([_contract(score) for score in scores], ensure_ascii=False, indent=2), encoding="utf-8")


def _contract(score: TrialScore) -> dict[str, Any]:
    """The ``score_trials`` JSON object of one trial: the contract's keys first."""
    result = score.result
    keyed = {key: result.get(key) for key in ("trial_id", "case_id", "target_side", "scorer", "capabilities")}
    keyed["alignment"] = result.get("alignment") or {stage: None for stage in JUDGMENTS}
    keyed["items"] = result.get("items", [])
    if "prediction" in result:
        keyed["prediction"] = {key: value for key, value in (result["prediction"] or {}).items() if key != "judgment"}
    extra = {key: value for key, value in result.items() if key not in keyed and key != "prediction"}
    return keyed | extra | {"target_model": score.target_model, "overall": score.overall}


def export_csv(scores: list[TrialScore], path: Path) -> None:
    """One row per trial: every capability cell, alignment element and prediction."""
    rows = [_flat(score) for score in scores]
    columns = list(dict.fromkeys(key for row in rows for key in row))
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = CsvDictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def _flat(score: TrialScore) -> dict[str, Any]:
    result = score.result
    row: dict[str, Any] = {
        "trial_id": result["trial_id"],
        "case_id": result["case_id"],
        "target_side": result["target_side"],
        "target_model": score.target_model,
        "scorer": result["scorer"],
        "overall": score.overall,
    }
    for name in CAPABILITIES:
        value = result["capabilities"][name]
        if isinstance(value, dict):
            row |= {f"{name}_{half}": value.get(half) for half in ("first", "second")}
        else:
            row[name] = value
    for stage in JUDGMENTS:
        alignment = (result.get("alignment") or {}).get(stage) or {}
        row |= {f"alignment_{stage}_{element}": alignment.get(element) for element in ALIGNMENT_ROWS}
    row |= {f"interaction_{key}": value for key, value in (result.get("interaction") or {}).items()}
    prediction = result.get("prediction") or {}
    row |= {f"prediction_{key}": value for key, value in prediction.items() if key != "judgment"}
    if complaint := result.get("complaint"):
        row |= {f"complaint_{key}": value for key, value in complaint["fields"].items()}
        row |= {f"complaint_{key}": complaint[key] for key in ("standardability", "professionalism")}
    return row


def ljp_report(*, scorer: str, hit_rule: str = "project") -> dict[str, Any]:
    """SimCourt's set-level prediction metrics and AgentsCourt's article P/R/F1 over every
    criminal trial scored by ``scorer``."""
    scores = TrialScore.objects.filter(trial__procedure="criminal", scorer=scorer).select_related("trial__case")
    records, judgments, references = [], [], []
    for score in scores:
        prediction = score.result.get("prediction")
        if not prediction:
            continue
        seed = score.trial.case.seed
        predicted = Sentence(**{key: value for key, value in prediction.items() if key != "judgment"})
        records.append(
            (predicted, sentence_from_case(seed), list(seed.get("charges") or []), case_statutory_range(seed))
        )
        judgments.append(prediction["judgment"])
        references.append(list(seed.get("legal_references") or []))
    return ljp_metrics(records, hit_rule) | {"legal_articles": article_prf(judgments, references)}


def ljp_report_of_predictions(*, path: Path, hit_rule: str) -> tuple[dict[str, Any] | None, list[Problem]]:
    """``ljp_metrics --pred``: a predictions file scored against the library's criminal cases;
    the report, or None and every line that could not be scored."""
    lines, problems = predictions_read(path)
    cases = Case.objects.in_bulk([line.case_id for line in lines])
    for line in lines:
        problem = _unscorable(cases.get(line.case_id), line.case_id)
        if problem:
            problems.append(Problem(str(path), line.line, "case_id", problem))
    if problems:
        return None, sorted(problems, key=lambda problem: problem.line)
    rows, scores, judgments, references = [], [], [], []
    for line in lines:
        seed = cases[line.case_id].seed
        row, score = _prediction_row(line, seed, hit_rule)
        rows.append(row)
        scores.append(score)
        if line.judgment is not None:
            judgments.append(line.judgment)
            references.append(list(seed.get("legal_references") or []))
    summary = ljp_summary(scores, article_prf(judgments, references))
    no_range = [row["case_id"] for row in rows if row["range_source"] == "no range"]
    return summary | {"hit_rule": hit_rule, "no_range": no_range, "cases": rows}, []


def _unscorable(case: Case | None, case_id: str) -> str:
    if case is None:
        return f"no case {case_id!r} in the library (import it with import_cases first)"
    if case.procedure != "criminal":
        return f"case {case_id!r} is {case.procedure}; only criminal cases have a sentence to predict"
    if not case.seed.get("sentence"):
        return f"case {case_id!r} has no sentence to score against"
    return ""


def _prediction_row(line: PredictionLine, seed: dict[str, Any], hit_rule: str) -> tuple[dict[str, Any], CaseScore]:
    """One case of the report: what was read (and from which defendant), the truth and the
    figures."""
    defendant = next((party["name"] for party in seed["parties"] if party["side"] == "defendant"), None)
    if line.judgment is not None:
        predicted = sentence_extract(line.judgment, seed["language"], defendant)
    else:
        predicted = line.sentence or NOTHING_READ
    charges = list(seed.get("charges") or [])
    score = case_score(predicted, sentence_from_case(seed), charges, case_statutory_range(seed), hit_rule)
    row = {
        "line": line.line,
        "case_id": line.case_id,
        "read_from": "judgment" if line.judgment is not None else "fields",
        "read": asdict(predicted),
        "truth": asdict(sentence_from_case(seed)),
        "charges": charges,
        **asdict(score),
    }
    if line.judgment is not None:
        row["articles"] = article_counts(line.judgment, list(seed.get("legal_references") or []))
    return row, score
