"""Reads of stored scores: a person's scorecard history and the model capability profile."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from trials.models import TrialScore
from trials.scoring.report import ALIGNMENT_ROWS, capabilities_mean, overall_score
from trials.scoring.scorers import RuleBasedScorer


def score_preferred(scores: Iterable[TrialScore]) -> TrialScore | None:
    """The score a trial is shown with: the LLM scorer's where it ran, else the rule-based one."""
    return min(scores, key=lambda score: score.scorer == RuleBasedScorer.label, default=None)


def scorecards_of(user) -> list[TrialScore]:
    """The user's scorecards, oldest first (one per trial, ``score_preferred``)."""
    by_trial: dict[int, list[TrialScore]] = defaultdict(list)
    for score in TrialScore.objects.filter(subject_user=user).select_related("trial__case"):
        by_trial[score.trial_id].append(score)
    chosen = [score_preferred(scores) for scores in by_trial.values()]
    return sorted(chosen, key=lambda score: score.trial.created_at)


def model_profile(*, scorer: str) -> list[dict[str, Any]]:
    """LegalWorld's Table 3 and Figure 6 (docs/sources.md): per target model (agents only), the
    capabilities averaged over its civil trials, and the overall figure."""
    grouped: dict[str, list[dict]] = defaultdict(list)
    for score in TrialScore.objects.filter(scorer=scorer, subject="agent", trial__procedure="civil"):
        grouped[score.target_model].append(score.result["capabilities"])
    rows = []
    for model, results in sorted(grouped.items()):
        capabilities = capabilities_mean(results)
        rows.append(
            {
                "model": model,
                "trials": len(results),
                "capabilities": capabilities,
                "overall": overall_score(capabilities),
            }
        )
    return rows


def scorecard_context(score: TrialScore, finished: bool) -> dict[str, Any]:
    """What the scorecard page shows. Reference points not raised, an LLM scorer's reasons
    (which may quote the reference) and the real sentence stay back until the trial is over."""
    result = score.result
    reveal = finished
    stages = []
    for stage, value in result.get("stages", {}).items():
        items = [
            item | {"reason": item["reason"] if reveal or score.scorer == RuleBasedScorer.label else ""}
            for item in result["items"]
            if item["stage"] == stage
        ]
        stages.append(
            {
                "stage": stage,
                "score": value,
                "items": items,
                "deductions": [item for item in items if item["score"] < 1],
            }
        )
    capabilities = [
        {"name": name.replace("_", " "), "value": value} for name, value in result.get("capabilities", {}).items()
    ]
    return {
        "reveal": reveal,
        "rule_based": score.scorer == RuleBasedScorer.label,
        "capabilities": capabilities,
        "stages": stages,
        "skipped": result.get("skipped_stages", {}),
        "alignment": result.get("alignment") or {},
        "alignment_rows": ALIGNMENT_ROWS,
        "interaction": result.get("interaction") or {},
        "prediction": result.get("prediction") if reveal else None,
        "missing": [(item["id"], item["missing"]) for item in result.get("items", []) if item["missing"]]
        if reveal
        else [],
    }
