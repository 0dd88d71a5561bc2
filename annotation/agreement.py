"""Human-LLM agreement and inter-rater reliability (LegalWorld §4.2, Table 1 and F.5;
docs/sources.md), in the shape of the agreement-report contract (docs/design.md, section 4).

A *pair* is one human score of an item on a trajectory matched with the judge's score of the
same item on the same trajectory. Rows (a stage, a role), group overalls and the overall row
summarise pairs; items add correlations and concordance. Every line also has the people's
agreement among themselves (mean, Krippendorff's alpha, one-way ICCs: ``HumanUnits``), which
needs no judge: without one the pair figures are empty and the report is still whole.

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

from annotation.reliability import alpha_interval_of, concordance, icc_oneway_of
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
    human_units: HumanUnits | None = None


def judge_choose(frame: RatingsFrame, judge: str | None) -> str | None:
    """The judge the report compares the people with: the one named, the only one, or
    ``None`` when no judge has scored (the report then has the people's figures only)."""
    judges = frame.judges()
    if judge is not None:
        if judge not in judges:
            raise AgreementError(f"no scores by judge {judge!r}; judges with scores: {', '.join(judges) or 'none'}")
        return judge
    if not judges:
        return None
    if len(judges) > 1:
        raise AgreementError(f"several judges scored this rubric; pick one with --judge: {', '.join(judges)}")
    return judges[0]


def _pairs(frame: RatingsFrame, judge: str | None) -> Pairs:
    if judge is None:
        empty = np.empty(0, dtype=np.int64)
        return Pairs(empty, empty, empty, np.empty(0), np.empty(0))
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


INTER_RATER_NOTE = (
    "{line}: inter-rater figures need two or more trajectories with at least two human scores and some variation"
)
NO_JUDGE_NOTE = "no LLM judge answers: the judge columns are empty"


@dataclass(frozen=True)
class HumanUnits:
    """The people's scores grouped into units, one per (trajectory, item) scored: each unit's
    item, trajectory, count, sum and sum of squares; and which raters scored which item. Built
    once per frame; a line of several items (a stage, a group, the overall line) pools its
    items' units, an item's units are its trajectories."""

    item: np.ndarray
    trajectory: np.ndarray
    count: np.ndarray
    total: np.ndarray
    squares: np.ndarray
    raters_of_item: np.ndarray
    """items x raters, true where the rater scored the item."""

    @classmethod
    def of(cls, frame: RatingsFrame) -> HumanUnits:
        human = ~frame.is_llm
        n_items, n_raters = max(len(frame.items), 1), max(len(frame.raters), 1)
        key = frame.trajectory[human] * n_items + frame.item[human]
        scores = frame.score[human]
        space = max(len(frame.trajectories), 1) * n_items
        if space <= 4 * key.size + 1024:  # counting beats sorting while the (trajectory, item) grid is small
            count = np.bincount(key, minlength=space)
            distinct = np.flatnonzero(count)
            total = np.bincount(key, weights=scores, minlength=space)[distinct]
            squares = np.bincount(key, weights=scores**2, minlength=space)[distinct]
            count = count[distinct].astype(float)
        else:
            distinct, unit = np.unique(key, return_inverse=True)
            unit = unit.reshape(-1)
            count = np.bincount(unit, minlength=distinct.size).astype(float)
            total = np.bincount(unit, weights=scores, minlength=distinct.size)
            squares = np.bincount(unit, weights=scores**2, minlength=distinct.size)
        presence = np.bincount(frame.item[human] * n_raters + frame.rater[human], minlength=n_items * n_raters)
        return cls(
            item=distinct % n_items,
            trajectory=distinct // n_items,
            count=count,
            total=total,
            squares=squares,
            raters_of_item=presence.reshape(n_items, n_raters) > 0,
        )

    def of_items(self, codes: Iterable[int]) -> np.ndarray:
        """The units of the items ``codes``, as a mask."""
        return np.isin(self.item, list(codes))


def _inter_rater(line_id: str, units: HumanUnits, codes: list[int], notes: list[str]) -> dict[str, Any]:
    """Agreement among the people on a line's items, judge or no judge: the mean of their
    scores, Krippendorff's alpha (interval) and the one-way ICCs over the units scored by at
    least two of them (``icc_k``: the mean number of scores per such unit)."""
    chosen = units.of_items(codes)
    shared = chosen & (units.count >= 2)
    moments = (units.count[shared], units.total[shared], units.squares[shared])
    icc = icc_oneway_of(*moments)
    alpha = alpha_interval_of(*moments)
    if alpha is None or icc.icc_1_1 is None:
        notes.append(INTER_RATER_NOTE.format(line=line_id))
    n_scores = float(units.count[chosen].sum())
    return {
        "human_mean": _number(units.total[chosen].sum() / n_scores) if n_scores else None,
        "n_human_scores": int(n_scores),
        "n_human_raters": int(np.count_nonzero(units.raters_of_item[codes].any(axis=0))) if codes else 0,
        "n_units_shared": int(np.count_nonzero(shared)),
        "krippendorff_alpha_interval": alpha,
        "icc_1_1": icc.icc_1_1,
        "icc_1_k": icc.icc_1_k,
        "icc_k": icc.mean_raters,
    }


def _row(
    row_id: str,
    mask: np.ndarray,
    pairs: Pairs,
    item_codes: dict[str, int],
    subdim_items: Iterable[str],
    notes: list[str],
    n_na: int = 0,
    units: HumanUnits | None = None,
    judged: bool = True,
) -> dict[str, Any]:
    """A line of the report: the pairs' figures of its items (empty without a judge), and,
    given the people's ``units``, their agreement among themselves."""
    subdim_items = list(subdim_items)
    human, llm = pairs.human[mask], pairs.llm[mask]
    difference = human - llm
    count = int(mask.sum())
    row: dict[str, Any] = {"id": row_id, "n_pairs": count, "n_na": n_na}
    if count == 0:
        if judged:
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
    if units is not None:
        codes = [item_codes[item] for item in subdim_items if item in item_codes]
        row |= _inter_rater(row_id, units, codes, notes)
    return row


def _correlation(kind: str, human: np.ndarray, llm: np.ndarray, item: str, notes: list[str]) -> float | None:
    if human.size < 2 or np.ptp(human) == 0 or np.ptp(llm) == 0:
        notes.append(f"{item}: {kind} undefined (fewer than two pairs or constant scores)")
        return None
    result = stats.pearsonr(human, llm) if kind == "pearson" else stats.spearmanr(human, llm)
    return _number(result.statistic)


def _item(
    item: str,
    frame: RatingsFrame,
    pairs: Pairs,
    item_codes: dict[str, int],
    notes: list[str],
    units: HumanUnits,
    judged: bool = True,
) -> dict[str, Any]:
    code = item_codes.get(item)
    mask = pairs.item == code if code is not None else np.zeros(pairs.item.size, dtype=bool)
    entry = _row(item, mask, pairs, item_codes, (item,), notes, frame.n_na.get(item, 0), units, judged)
    human, llm = pairs.human[mask], pairs.llm[mask]
    pair_notes = notes if judged else []
    entry["pearson"] = _correlation("pearson", human, llm, item, pair_notes)
    entry["spearman"] = _correlation("spearman", human, llm, item, pair_notes)
    entry["qwk"] = concordance(human, llm)
    if entry["qwk"] is None and human.size:
        notes.append(f"{item}: qwk undefined (no variation in either rater)")
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
    judged = judge is not None
    notes: list[str] = [] if judged else [NO_JUDGE_NOTE]
    units = HumanUnits.of(frame)

    def n_na(items: Iterable[str]) -> int:
        return sum(frame.n_na.get(item, 0) for item in items)

    groups = []
    for group_id, _title in rubric.groups:
        rows = rubric.rows_of(group_id)
        group_items = [item for row in rows for item in row.items]
        overall = _row(
            f"{group_id}.overall",
            masks["group", group_id],
            pairs,
            item_codes,
            group_items,
            notes,
            n_na(group_items),
            units,
            judged,
        )
        groups.append(
            {
                "id": group_id,
                "rows": [
                    _row(
                        row.id,
                        masks["row", row.id],
                        pairs,
                        item_codes,
                        row.items,
                        notes,
                        n_na(row.items),
                        units,
                        judged,
                    )
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
            "overall",
            masks["overall", "overall"],
            pairs,
            item_codes,
            rubric.item_ids,
            notes,
            n_na(rubric.item_ids),
            units,
            judged,
        ),
        "items": [_item(item, frame, pairs, item_codes, notes, units, judged) for item in rubric.item_ids],
        "test_retest": None,
        "notes": notes,
    }
    return AgreementResult(
        report=report,
        pairs=pairs,
        items=frame.items,
        notes=notes,
        human_scores=frame.score[~frame.is_llm],
        human_units=units,
    )
