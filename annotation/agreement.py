"""Human-LLM agreement and inter-rater reliability (LegalWorld §4.2, Table 1 and F.5;
docs/sources.md), in the shape of the agreement-report contract (docs/design.md, section 4).

A *pair* is one human score of an item on a trajectory matched with the judge's score of the
same item on the same trajectory. Rows (a stage, a role), group overalls and the overall row
summarise pairs; items add correlations, concordance and the human inter-rater figures.

N/A answers (an item of a stage the trajectory lacks, ``annotation.stages``) are in no figure:
every line counts the people's N/A answers to its items as ``n_na``. A report read from the
database counts a rater who rated an item of a trajectory in two studies once, with their
latest score (``RatingsFrame.last_per_rater``); ``annotation.retest`` compares the two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from scipy import stats

from annotation.reliability import UnitScores, concordance, icc_oneway, krippendorff_alpha_interval
from annotation.rubric import RubricDefinition


class AgreementError(ValueError):
    pass


@dataclass
class RatingsFrame:
    """Ratings of one rubric as parallel arrays; strings are coded once, here. Scores only:
    ``n_na`` counts, per item, the people's N/A answers (one per rater and trajectory)."""

    trajectories: list[str]
    items: list[str]
    raters: list[str]
    trajectory: np.ndarray
    item: np.ndarray
    rater: np.ndarray
    is_llm: np.ndarray
    score: np.ndarray
    n_na: dict[str, int] = field(default_factory=dict)

    @classmethod
    def from_rows(cls, rows: Iterable[tuple[str, str, str, str, float | None]]) -> RatingsFrame:
        """Rows of (trajectory_id, item, rater, source, score), ``None`` for N/A."""
        codes: list[dict[str, int]] = [{}, {}, {}]
        columns: list[list[int]] = [[], [], []]
        is_llm: list[bool] = []
        scores: list[float] = []
        not_applicable: set[tuple[str, str, str]] = set()
        for trajectory_id, item, rater, source, score in rows:
            if score is None:
                if source != "llm":
                    not_applicable.add((trajectory_id, item, rater))
                continue
            for position, value in enumerate((trajectory_id, item, rater)):
                table = codes[position]
                columns[position].append(table.setdefault(value, len(table)))
            is_llm.append(source == "llm")
            scores.append(score)
        return cls(
            trajectories=list(codes[0]),
            items=list(codes[1]),
            raters=list(codes[2]),
            trajectory=np.asarray(columns[0], dtype=np.int64),
            item=np.asarray(columns[1], dtype=np.int64),
            rater=np.asarray(columns[2], dtype=np.int64),
            is_llm=np.asarray(is_llm, dtype=bool),
            score=np.asarray(scores, dtype=float),
            n_na=dict(Counter(item for _trajectory, item, _rater in not_applicable)),
        )

    def last_per_rater(self) -> RatingsFrame:
        """One row per (trajectory, item, rater, source), the last: a rater who rated an item
        of a trajectory in several studies counts once, with the score given last."""
        key = ((self.trajectory * max(len(self.items), 1) + self.item) * max(len(self.raters), 1) + self.rater) * 2
        key = key + self.is_llm
        _values, first_from_end = np.unique(key[::-1], return_index=True)
        if first_from_end.size == key.size:
            return self
        keep = np.sort(key.size - 1 - first_from_end)
        return replace(
            self,
            trajectory=self.trajectory[keep],
            item=self.item[keep],
            rater=self.rater[keep],
            is_llm=self.is_llm[keep],
            score=self.score[keep],
        )

    def judges(self) -> list[str]:
        return sorted({self.raters[code] for code in np.unique(self.rater[self.is_llm])})


@dataclass
class Pairs:
    item: np.ndarray
    trajectory: np.ndarray
    rater: np.ndarray
    human: np.ndarray
    llm: np.ndarray

    @property
    def difference(self) -> np.ndarray:
        return self.human - self.llm


@dataclass
class AgreementResult:
    report: dict[str, Any]
    pairs: Pairs
    items: list[str]
    notes: list[str] = field(default_factory=list)
    human_scores: np.ndarray = field(default_factory=lambda: np.empty(0))


def judge_choose(frame: RatingsFrame, judge: str | None) -> str:
    judges = frame.judges()
    if judge is not None:
        if judge not in judges:
            raise AgreementError(f"no scores by judge {judge!r}; judges with scores: {', '.join(judges) or 'none'}")
        return judge
    if not judges:
        raise AgreementError("there are no LLM judge scores for this rubric")
    if len(judges) > 1:
        raise AgreementError(f"several judges scored this rubric; pick one with --judge: {', '.join(judges)}")
    return judges[0]


def _pairs(frame: RatingsFrame, judge: str) -> Pairs:
    n_items = max(len(frame.items), 1)
    key = frame.trajectory * n_items + frame.item
    judge_code = frame.raters.index(judge)
    judged = frame.is_llm & (frame.rater == judge_code)
    judge_keys, judge_scores = key[judged], frame.score[judged]
    order = np.argsort(judge_keys, kind="stable")
    judge_keys, judge_scores = judge_keys[order], judge_scores[order]
    human = ~frame.is_llm
    position = np.searchsorted(judge_keys, key[human])
    position = np.minimum(position, max(judge_keys.size - 1, 0))
    matched = judge_keys.size > 0
    found = (judge_keys[position] == key[human]) if matched else np.zeros(human.sum(), dtype=bool)
    rows = np.flatnonzero(human)[found]
    return Pairs(
        item=frame.item[rows],
        trajectory=frame.trajectory[rows],
        rater=frame.rater[rows],
        human=frame.score[rows],
        llm=judge_scores[position[found]],
    )


def _number(value: float | np.floating) -> float:
    return float(value)


def _row(
    row_id: str,
    mask: np.ndarray,
    pairs: Pairs,
    item_codes: dict[str, int],
    subdim_items: Iterable[str],
    notes: list[str],
    n_na: int = 0,
) -> dict[str, Any]:
    human, llm = pairs.human[mask], pairs.llm[mask]
    difference = human - llm
    count = int(mask.sum())
    row: dict[str, Any] = {"id": row_id, "n_pairs": count, "n_na": n_na}
    if count == 0:
        notes.append(f"{row_id}: no human-judge pairs")
        row |= dict.fromkeys(("human_avg", "llm_avg", "mean_diff", "sd_diff", "mae", "within1_pct"))
    else:
        row |= {
            "human_avg": _number(human.mean()),
            "llm_avg": _number(llm.mean()),
            "mean_diff": _number(difference.mean()),
            "sd_diff": _number(difference.std(ddof=1)) if count >= 2 else None,
            "mae": _number(np.abs(difference).mean()),
            "within1_pct": _number(100.0 * np.mean(np.abs(difference) <= 1)),
        }
        if count < 2:
            notes.append(f"{row_id}: sd_diff needs at least two pairs")
    subdims = {}
    for item in subdim_items:
        code = item_codes.get(item)
        item_mask = mask & (pairs.item == code) if code is not None else np.zeros_like(mask)
        subdims[item] = _number(pairs.human[item_mask].mean()) if item_mask.any() else None
    row["subdims"] = subdims
    return row


def _correlation(kind: str, human: np.ndarray, llm: np.ndarray, item: str, notes: list[str]) -> float | None:
    if human.size < 2 or np.ptp(human) == 0 or np.ptp(llm) == 0:
        notes.append(f"{item}: {kind} undefined (fewer than two pairs or constant scores)")
        return None
    result = stats.pearsonr(human, llm) if kind == "pearson" else stats.spearmanr(human, llm)
    return _number(result.statistic)


def _item(item: str, frame: RatingsFrame, pairs: Pairs, item_codes: dict[str, int], notes: list[str]) -> dict[str, Any]:
    code = item_codes.get(item)
    mask = pairs.item == code if code is not None else np.zeros(pairs.item.size, dtype=bool)
    entry = _row(item, mask, pairs, item_codes, (item,), notes, frame.n_na.get(item, 0))
    human, llm = pairs.human[mask], pairs.llm[mask]
    entry["pearson"] = _correlation("pearson", human, llm, item, notes)
    entry["spearman"] = _correlation("spearman", human, llm, item, notes)
    entry["qwk"] = concordance(human, llm)
    if entry["qwk"] is None and human.size:
        notes.append(f"{item}: qwk undefined (no variation in either rater)")
    humans = (~frame.is_llm) & (frame.item == code) if code is not None else np.zeros(frame.item.size, dtype=bool)
    units = UnitScores(frame.trajectory[humans], frame.score[humans])
    entry["krippendorff_alpha_interval"] = krippendorff_alpha_interval(units)
    icc = icc_oneway(units)
    entry["icc_1_1"], entry["icc_1_k"] = icc.icc_1_1, icc.icc_1_k
    if entry["krippendorff_alpha_interval"] is None or icc.icc_1_1 is None:
        notes.append(
            f"{item}: inter-rater figures need two or more trajectories with at least two human scores and some variation"
        )
    entry["n_trajectories"] = int(np.unique(pairs.trajectory[mask]).size)
    entry["n_raters"] = int(np.unique(pairs.rater[mask]).size)
    return entry


def item_codes_of(frame: RatingsFrame) -> dict[str, int]:
    return {item: code for code, item in enumerate(frame.items)}


def row_masks(rubric: RubricDefinition, pairs: Pairs, item_codes: dict[str, int]) -> dict[tuple[str, str], np.ndarray]:
    """The pairs behind every line of the report, keyed by (level, id): rows, group overalls,
    the overall row and items, in report order."""

    def mask_of(items: Iterable[str]) -> np.ndarray:
        codes = [item_codes[item] for item in items if item in item_codes]
        return np.isin(pairs.item, codes)

    masks: dict[tuple[str, str], np.ndarray] = {}
    for group_id, _title in rubric.groups:
        rows = rubric.rows_of(group_id)
        for row in rows:
            masks["row", row.id] = mask_of(row.items)
        masks["group", group_id] = mask_of([item for row in rows for item in row.items])
    masks["overall", "overall"] = mask_of(rubric.item_ids)
    for item in rubric.item_ids:
        masks["item", item] = mask_of([item])
    return masks


def agreement_compute(*, rubric: RubricDefinition, frame: RatingsFrame, judge: str | None = None) -> AgreementResult:
    judge = judge_choose(frame, judge)
    pairs = _pairs(frame, judge)
    item_codes = item_codes_of(frame)
    masks = row_masks(rubric, pairs, item_codes)
    notes: list[str] = []

    def n_na(items: Iterable[str]) -> int:
        return sum(frame.n_na.get(item, 0) for item in items)

    groups = []
    for group_id, _title in rubric.groups:
        rows = rubric.rows_of(group_id)
        group_items = [item for row in rows for item in row.items]
        overall = _row(
            f"{group_id}.overall", masks["group", group_id], pairs, item_codes, group_items, notes, n_na(group_items)
        )
        groups.append(
            {
                "id": group_id,
                "rows": [
                    _row(row.id, masks["row", row.id], pairs, item_codes, row.items, notes, n_na(row.items))
                    for row in rows
                ],
                "overall": overall,
                "n_na": overall["n_na"],
            }
        )
    report = {
        "rubric": rubric.id,
        "judge": judge,
        "groups": groups,
        "overall": _row(
            "overall", masks["overall", "overall"], pairs, item_codes, rubric.item_ids, notes, n_na(rubric.item_ids)
        ),
        "items": [_item(item, frame, pairs, item_codes, notes) for item in rubric.item_ids],
        "test_retest": None,
        "notes": notes,
    }
    return AgreementResult(
        report=report, pairs=pairs, items=frame.items, notes=notes, human_scores=frame.score[~frame.is_llm]
    )
