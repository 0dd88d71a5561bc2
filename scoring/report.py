"""One trial's scores in the ``score_trials`` layout, and the Table 2 / Table 3 layouts."""

from __future__ import annotations

from dataclasses import asdict, replace
from statistics import fmean
from typing import Any

import numpy as np

from court.engine.state import TrialState
from court.legaltext.sentences import sentence_extract
from court.procedures.seats import seat_info, seat_kind
from scoring.alignment import judgment_alignment, table2_cells
from scoring.capabilities import CAPABILITIES, capability_items, capability_scores, stage_scores
from scoring.complaint import trial_complaint
from scoring.interaction import interaction_quality
from scoring.roles import CLIENT_DIMENSIONS, JUDGE_DIMENSIONS, role_result
from scoring.scorers import Scorer

JUDGMENTS = {"FIT": ("first_instance_judgment", "first"), "SIT": ("second_instance_judgment", "second")}
ALIGNMENT_ROWS = ("verdict", "reasoning", "legal_reference", "appeal_action", "entity", "structure", "overall")


def trial_scores(state: TrialState, *, scorer: Scorer) -> dict[str, Any]:
    """Everything LongJud-Bench, C.4, MILE (its interaction and, for a plaintiff's complaint,
    its complaint fields) and SimCourt say about the trial's target lawyer and its judgments;
    ``None`` wherever a stage was not run."""
    items, skipped = capability_items(state, scorer)
    result: dict[str, Any] = {
        "target_side": state.target_side,
        "scorer": scorer.label,
        "capabilities": capability_scores(items),
        "stages": stage_scores(items),
        "skipped_stages": skipped,
        "alignment": {stage: _alignment(state, stage) for stage in JUDGMENTS} if state.procedure == "civil" else {},
        "interaction": interaction_quality(state, scorer),
        "items": [item.as_dict() for item in items],
    }
    if state.procedure == "criminal":
        result["prediction"] = _prediction(state)
    else:
        result["complaint"] = None if "CD" in skipped else trial_complaint(state, scorer)
    return result


def seat_result(state: TrialState, seat: str, *, scorer: Scorer) -> dict[str, Any]:
    """The scorecard of one seat: counsel on the capabilities (the trial scored as if that
    seat's side were the target), the judge and the parties on the role rubric."""
    if seat_kind(state.procedure, seat) == "lawyer":
        as_target = replace(state, target_side=seat_info(state.procedure, seat).side)
        return trial_scores(as_target, scorer=scorer) | {"seat": seat, "kind": "lawyer"}
    return role_result(state, seat, scorer)


def dimensions_of(kind: str) -> tuple[str, ...]:
    """A scorecard's dimensions in the rubric's order (a stored result's JSON may not keep it)."""
    return {"judge": JUDGE_DIMENSIONS, "client": CLIENT_DIMENSIONS}.get(kind, CAPABILITIES)


def person_seats(state: TrialState) -> list[str]:
    """The seats a person played (spoke in at least once) that have a scorecard."""
    played = dict.fromkeys(turn.seat for turn in state.turns if turn.author == "human")
    return [seat for seat in played if seat_kind(state.procedure, seat) is not None]


def result_overall(result: dict[str, Any]) -> float | None:
    """A scorecard's overall figure: the capabilities' for counsel, else the mean of the
    role rubric's available dimensions."""
    if result.get("kind", "lawyer") == "lawyer":
        return overall_score(result["capabilities"])
    return mean_present(list(result["capabilities"].values()))


def _alignment(state: TrialState, stage: str) -> dict[str, float | None] | None:
    kind, instance = JUDGMENTS[stage]
    judgments = state.artifacts_of(kind)
    if not judgments:
        return None
    return judgment_alignment(generated=judgments[0].text, case=state.case, instance=instance)


def _prediction(state: TrialState) -> dict[str, Any] | None:
    judgments = state.artifacts_of("criminal_judgment")
    if not judgments:
        return None
    text = judgments[0].text
    return asdict(sentence_extract(text, state.language)) | {"judgment": text}


def overall_score(capabilities: dict[str, Any]) -> float | None:
    """The mean of the available capabilities, each pair of halves averaged first (Figure 6)."""
    values = [
        value for value in (capability_cell(capabilities.get(name)) for name in CAPABILITIES) if value is not None
    ]
    return fmean(values) if values else None


def capability_cell(value: Any) -> float | None:
    """A capability as one figure: a single score, or the mean of its available halves."""
    if isinstance(value, dict):
        halves = [half for half in value.values() if half is not None]
        return fmean(halves) if halves else None
    return value


def _number(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def table2(results: list[dict[str, Any]]) -> str:
    """Judicial output alignment (LegalWorld, Table 2; docs/sources.md): elements x FIT / SIT /
    Overall, 0-10, each cell a per-element mean (``alignment.table2_cells``)."""
    lines = [f"{'Judgment element':<18}{'FIT':>8}{'SIT':>8}{'Overall':>9}"]
    cells = table2_cells([result["alignment"] for result in results])
    for row in ALIGNMENT_ROWS:
        fit, sit, both = (cells[row][column] for column in ("FIT", "SIT", "overall"))
        lines.append(f"{row.replace('_', ' ').capitalize():<18}{_number(fit):>8}{_number(sit):>8}{_number(both):>9}")
    return "\n".join(lines)


def capabilities_mean(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Each capability (and each half) averaged over several trials' capabilities."""
    averaged: dict[str, Any] = {}
    for name in CAPABILITIES:
        if name == "issue_spotting":
            averaged[name] = mean_present([result[name] for result in results])
        else:
            averaged[name] = {
                half: mean_present([(result[name] or {}).get(half) for result in results])
                for half in ("first", "second")
            }
    return averaged


def table3(profile: dict[str, dict[str, Any]]) -> str:
    """Capability profile (LegalWorld, Table 3; docs/sources.md): a row per target model (its
    averaged capabilities); issue spotting single, the others first / second instance, in [0,1]."""
    lines = [f"{'Model':<28}" + "".join(f"{name.replace('_', ' ')[:20]:>22}" for name in CAPABILITIES)]
    for model, capabilities in profile.items():
        cells = [
            _number(value) if not isinstance(value, dict) else f"{_number(value['first'])} / {_number(value['second'])}"
            for value in (capabilities[name] for name in CAPABILITIES)
        ]
        lines.append(f"{model[:27]:<28}" + "".join(f"{cell:>22}" for cell in cells))
    return "\n".join(lines)


def mean_interval(values: list[float], *, resamples: int = 1000, seed: int = 0) -> tuple[float, float] | None:
    """The 95 % percentile bootstrap interval of the mean of ``values`` (trials resampled
    with replacement, a fixed seed so a page shows the same interval twice); None under two
    values."""
    if len(values) < 2:
        return None
    samples = np.random.default_rng(seed).choice(np.asarray(values, dtype=float), size=(resamples, len(values)))
    low, high = np.percentile(samples.mean(axis=1), [2.5, 97.5])
    return float(low), float(high)


def mean_present(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return fmean(present) if present else None
