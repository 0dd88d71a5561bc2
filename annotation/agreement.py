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

The ratings are read once: the pairs become counts of their distinct (item, human score, LLM
score) combinations (``PairCombinations``) and the people's scores sums per unit
(``HumanUnits``); every figure of every line comes from those, a line of several items
adding its items', so ten million ratings cost a few passes over their arrays, not one per
line. Correlations and concordance are computed on the combinations, each weighted by its
count: the same values as on the pairs themselves (Spearman with tied ranks averaged).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from annotation.agreement_frame import RatingsFrame, codes_in, distinct_keys, value_codes
from annotation.reliability import (
    alpha_interval_of,
    icc_oneway_of,
    weighted_concordance,
    weighted_correlation,
    weighted_ranks,
)
from annotation.rubric import RubricDefinition

PAIR_FIGURES = ("human_avg", "llm_avg", "mean_diff", "sd_diff", "mae", "within1_pct")


class AgreementError(ValueError):
    pass


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
    combinations: PairCombinations | None = None


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
    judged = np.flatnonzero(frame.is_llm & (frame.rater == frame.raters.index(judge)))
    human = np.flatnonzero(~frame.is_llm)
    match = _first_match(key[judged], key[human], space=max(len(frame.trajectories), 1) * n_items)
    found = match >= 0
    rows = human[found]
    return Pairs(
        item=frame.item[rows],
        trajectory=frame.trajectory[rows],
        rater=frame.rater[rows],
        human=frame.score[rows],
        llm=frame.score[judged[match[found]]],
    )


def _first_match(keys: np.ndarray, wanted: np.ndarray, space: int) -> np.ndarray:
    """Where each of ``wanted`` first occurs in ``keys`` (all below ``space``), -1 where it
    does not: a lookup table while the key space is small, a binary search beyond."""
    distinct, first = np.unique(keys, return_index=True)
    if space <= 4 * wanted.size + 1024:
        table = np.full(space, -1, dtype=np.int64)
        table[distinct] = first
        return table[wanted]
    if distinct.size == 0:
        return np.full(wanted.size, -1, dtype=np.int64)
    position = np.minimum(np.searchsorted(distinct, wanted), distinct.size - 1)
    return np.where(distinct[position] == wanted, first[position], -1)


def _number(value: float | np.floating) -> float:
    return float(value)


INTER_RATER_NOTE = (
    "{line}: inter-rater figures need two or more trajectories with at least two human scores and some variation"
)
NO_JUDGE_NOTE = "no LLM judge answers: the judge columns are empty"


@dataclass(frozen=True)
class PairCombinations:
    """The pairs' distinct (item, human score, LLM score) combinations: which one each pair
    takes (``of_pair``), and per combination its item, scores and number of pairs. Scores
    take few values, so a million pairs are a few hundred combinations."""

    of_pair: np.ndarray
    item: np.ndarray
    human: np.ndarray
    llm: np.ndarray
    count: np.ndarray

    @classmethod
    def of(cls, pairs: Pairs, n_items: int) -> PairCombinations:
        human_values, human = value_codes(pairs.human)
        llm_values, llm = value_codes(pairs.llm)
        n_llm = max(llm_values.size, 1)
        combinations = max(human_values.size * llm_values.size, 1)
        keys, of_pair = codes_in(pairs.item * combinations + human * n_llm + llm, n_items * combinations)
        combination = keys % combinations
        return cls(
            of_pair=of_pair,
            item=keys // combinations,
            human=human_values[combination // n_llm],
            llm=llm_values[combination % n_llm],
            count=np.bincount(of_pair, minlength=keys.size).astype(float),
        )

    def of_items(self, codes: list[int]) -> np.ndarray:
        """The combinations of the items ``codes``, as positions."""
        return np.flatnonzero(np.isin(self.item, codes))


@dataclass(frozen=True)
class PairSums:
    """Per item (by code), what its pairs give a line's figures: their number, the sums of
    the human and LLM scores, of the differences and of their absolute values, how many
    differ by at most one, and the differences' squared deviations from the item's own
    mean difference (a line of several items combines these as a pooled variance)."""

    count: np.ndarray
    human: np.ndarray
    llm: np.ndarray
    difference: np.ndarray
    absolute: np.ndarray
    within_one: np.ndarray
    spread: np.ndarray

    @classmethod
    def of(cls, combinations: PairCombinations, n_items: int) -> PairSums:
        weights = combinations.count

        def per_item(values: np.ndarray) -> np.ndarray:
            return np.bincount(combinations.item, weights=weights * values, minlength=n_items)

        difference = combinations.human - combinations.llm
        count, total = per_item(np.ones_like(weights)), per_item(difference)
        mean = total / np.maximum(count, 1)
        return cls(
            count=count,
            human=per_item(combinations.human),
            llm=per_item(combinations.llm),
            difference=total,
            absolute=per_item(np.abs(difference)),
            within_one=per_item(np.abs(difference) <= 1),
            spread=per_item((difference - mean[combinations.item]) ** 2),
        )

    def figures(self, codes: list[int]) -> dict[str, Any]:
        """``n_pairs`` and the pair figures of a line of the items ``codes`` (``None`` where
        it has no pairs; ``sd_diff`` needs two)."""
        count = self.count[codes]
        n_pairs = count.sum()
        if n_pairs == 0:
            return {"n_pairs": 0} | dict.fromkeys(PAIR_FIGURES)
        mean = self.difference[codes].sum() / n_pairs
        present = count > 0
        deviation = self.difference[codes][present] / count[present] - mean
        spread = self.spread[codes].sum() + (count[present] * deviation**2).sum()
        return {
            "n_pairs": int(n_pairs),
            "human_avg": _number(self.human[codes].sum() / n_pairs),
            "llm_avg": _number(self.llm[codes].sum() / n_pairs),
            "mean_diff": _number(mean),
            "sd_diff": _number(np.sqrt(spread / (n_pairs - 1))) if n_pairs >= 2 else None,
            "mae": _number(self.absolute[codes].sum() / n_pairs),
            "within1_pct": _number(100.0 * (self.within_one[codes].sum() / n_pairs)),
        }

    def human_mean(self, code: int | None) -> float | None:
        if code is None or self.count[code] == 0:
            return None
        return _number(self.human[code] / self.count[code])


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


@dataclass(frozen=True)
class _Sources:
    """What every line of one report is computed from."""

    sums: PairSums
    combinations: PairCombinations
    per_item: dict[str, np.ndarray]
    """``n_trajectories`` and ``n_raters`` of each item's pairs, by item code."""
    units: HumanUnits
    item_codes: dict[str, int]
    n_na: dict[str, int]
    notes: list[str]
    judged: bool

    def codes(self, items: Iterable[str]) -> list[int]:
        return [self.item_codes[item] for item in items if item in self.item_codes]


def _row(line_id: str, items: Iterable[str], sources: _Sources) -> dict[str, Any]:
    """A line of the report: the pair figures of its items (empty without a judge) and the
    people's agreement among themselves."""
    items = list(items)
    codes = sources.codes(items)
    figures = sources.sums.figures(codes)
    row: dict[str, Any] = {"id": line_id, "n_pairs": figures.pop("n_pairs")}
    row["n_na"] = sum(sources.n_na.get(item, 0) for item in items)
    if row["n_pairs"] == 0 and sources.judged:
        sources.notes.append(f"{line_id}: no human-judge pairs")
    row |= figures
    if row["n_pairs"] == 1:
        sources.notes.append(f"{line_id}: sd_diff needs at least two pairs")
    row["subdims"] = {item: sources.sums.human_mean(sources.item_codes.get(item)) for item in items}
    return row | _inter_rater(line_id, sources.units, codes, sources.notes)


def _correlation(
    kind: str, human: np.ndarray, llm: np.ndarray, weights: np.ndarray, item: str, notes: list[str]
) -> float | None:
    """Pearson's or Spearman's coefficient of an item's pairs, given as combinations of
    scores taken ``weights`` times."""
    if weights.sum() < 2 or np.ptp(human) == 0 or np.ptp(llm) == 0:
        notes.append(f"{item}: {kind} undefined (fewer than two pairs or constant scores)")
        return None
    if kind == "spearman":
        human, llm = weighted_ranks(human, weights), weighted_ranks(llm, weights)
    return _defined(weighted_correlation(human, llm, weights)[0])


def _defined(value: float) -> float | None:
    return _number(value) if np.isfinite(value) else None


def _distinct_per_item(item: np.ndarray, codes: np.ndarray, n_items: int, n_codes: int) -> np.ndarray:
    """How many distinct ``codes`` (below ``n_codes``) each item's pairs have, by item code."""
    pairs = distinct_keys(item * n_codes + codes, n_items * n_codes)
    return np.bincount(pairs // n_codes, minlength=n_items)


def _item(item: str, sources: _Sources) -> dict[str, Any]:
    """An item's line with its correlations and concordance."""
    entry = _row(item, (item,), sources)
    code = sources.item_codes.get(item)
    chosen = sources.combinations.of_items([] if code is None else [code])
    human, llm = sources.combinations.human[chosen], sources.combinations.llm[chosen]
    weights = sources.combinations.count[chosen][None, :]
    pair_notes = sources.notes if sources.judged else []
    entry["pearson"] = _correlation("pearson", human, llm, weights, item, pair_notes)
    entry["spearman"] = _correlation("spearman", human, llm, weights, item, pair_notes)
    entry["qwk"] = _defined(weighted_concordance(human, llm, weights)[0])
    if entry["qwk"] is None and chosen.size:
        sources.notes.append(f"{item}: qwk undefined (no variation in either rater)")
    for name, counts in sources.per_item.items():
        entry[name] = int(counts[code]) if code is not None else 0
    return entry


def item_codes_of(frame: RatingsFrame) -> dict[str, int]:
    return {item: code for code, item in enumerate(frame.items)}


def report_lines(rubric: RubricDefinition) -> Iterator[tuple[tuple[str, str], list[str]]]:
    """Every line of the report keyed by (level, id) with its items: rows, group overalls
    (keyed by the group's id), the overall line and items, in report order."""
    for group_id, _title in rubric.groups:
        rows = rubric.rows_of(group_id)
        for row in rows:
            yield ("row", row.id), list(row.items)
        yield ("group", group_id), [item for row in rows for item in row.items]
    yield ("overall", "overall"), list(rubric.item_ids)
    for item in rubric.item_ids:
        yield ("item", item), [item]


def agreement_compute(*, rubric: RubricDefinition, frame: RatingsFrame, judge: str | None = None) -> AgreementResult:
    judge = judge_choose(frame, judge)
    pairs = _pairs(frame, judge)
    item_codes = item_codes_of(frame)
    n_items = max(len(frame.items), 1)
    judged = judge is not None
    notes: list[str] = [] if judged else [NO_JUDGE_NOTE]
    units = HumanUnits.of(frame)
    combinations = PairCombinations.of(pairs, n_items)
    per_item = {
        "n_trajectories": _distinct_per_item(pairs.item, pairs.trajectory, n_items, max(len(frame.trajectories), 1)),
        "n_raters": _distinct_per_item(pairs.item, pairs.rater, n_items, max(len(frame.raters), 1)),
    }
    sources = _Sources(
        PairSums.of(combinations, n_items), combinations, per_item, units, item_codes, frame.n_na, notes, judged
    )
    groups = []
    for group_id, _title in rubric.groups:
        rows = rubric.rows_of(group_id)
        overall = _row(f"{group_id}.overall", [item for row in rows for item in row.items], sources)
        lines = [_row(row.id, row.items, sources) for row in rows]
        groups.append({"id": group_id, "rows": lines, "overall": overall, "n_na": overall["n_na"]})
    report = {
        "rubric": rubric.id,
        "judge": judge,
        "groups": groups,
        "overall": _row("overall", rubric.item_ids, sources),
        "items": [_item(item, sources) for item in rubric.item_ids],
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
        combinations=combinations,
    )
