"""What a rubric rates, and how: the two kinds of rubric and the unit each one rates.

A *scale* rubric (the rubric file's ``"kind": "scale"``, the default; a pointwise study)
scores one trajectory at a time with an integer on its scale. A *pairwise* rubric
(``"kind": "pairwise"``, SimCourt's) compares two trajectories of one case: its unit is a
``Pair``, written ``FIRST|SECOND`` wherever a trajectory id would stand (a study's units, an
assignment, a rating, a ratings file), and an answer prefers the first (stored as 1), neither
(0, a draw) or the second (-1), whatever order the rater saw them in.

Everything that differs between the two is asked of the kind (``RubricDefinition.kind``,
``RUBRIC_KINDS`` by the file's name): its scale, what a unit is, how an answer is checked and
stored, which questionnaire field and report a page renders, and whether the tools for points
(stage N/A, training and gold, adjudication, drift, the raters' agreement) apply.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar

from django.utils.translation import gettext as _

from annotation.numbers import whole_number

ANSWERS = ("A", "B", "draw")
"""A rater's (and the judge's) answer to a pairwise item: trajectory A, trajectory B, neither."""


@dataclass(frozen=True)
class Pair:
    """Two trajectories of one case, the unit of a pairwise rubric. The order is the stored
    text's, ``FIRST|SECOND``, which every stored answer refers to (1 prefers ``first``); a
    pair made of chosen trajectories puts them in id order. Which one a reader sees as A is
    drawn apart (``shown``), so the stored order never reaches a page."""

    first: str
    second: str
    SEPARATOR: ClassVar[str] = "|"

    @classmethod
    def parse(cls, text: str) -> Pair | None:
        """The pair ``text`` names, or ``None`` when it is not two non-empty ids around one ``|``."""
        first, separator, second = text.partition(cls.SEPARATOR)
        if not (separator and first and second) or cls.SEPARATOR in second:
            return None
        return cls(first, second)

    @classmethod
    def trajectories_named(cls, text: str) -> tuple[str, ...]:
        """The trajectories a study unit names, its rubric not at hand: a pair's two, any
        other text as one id."""
        pair = cls.parse(text)
        return pair.trajectory_ids if pair else (text,)

    @classmethod
    def every_two(cls, trajectory_ids: Iterable[str]) -> list[Pair]:
        """Every two of the trajectories as a pair, each in id order."""
        return [cls(first, second) for first, second in combinations(sorted(set(trajectory_ids)), 2)]

    def __str__(self) -> str:
        return f"{self.first}{self.SEPARATOR}{self.second}"

    @property
    def trajectory_ids(self) -> tuple[str, str]:
        return (self.first, self.second)

    def shown(self, shown_first: str) -> tuple[str, str]:
        """(A, B): the trajectories in the order a reader for whom ``shown_first`` is A sees them."""
        return (shown_first, self.second if shown_first == self.first else self.first)

    def shown_first_drawn(self) -> str:
        """Which trajectory a new rater sees as A: drawn at random (SimCourt shuffles per annotator)."""
        return secrets.choice(self.trajectory_ids)

    @property
    def judge_sees_first_as_a(self) -> bool:
        """The LLM judge's order, fixed by the pair's hash so that a position bias does not
        always favour one side."""
        return hashlib.sha256(str(self).encode()).digest()[0] % 2 == 0

    @staticmethod
    def score(answer: str, *, first_is_a: bool) -> int:
        """An answer A / B / draw as the stored score: 1 if the pair's first trajectory is
        preferred, -1 if the second, 0 for a draw."""
        if answer == "draw":
            return 0
        return 1 if (answer == "A") == first_is_a else -1


class RubricKind:
    """What differs between the kinds of rubric; one instance of each kind (``SCALE``,
    ``PAIRWISE``). Pages read its attributes (``definition.kind.report_template``)."""

    name: ClassVar[str]
    """As the rubric file's ``kind`` names it."""
    mode: ClassVar[str]
    """As the study set-up form names it: pointwise or pairwise."""
    is_pairwise: ClassVar[bool]
    scores_points: ClassVar[bool]
    """Whether answers are points on a scale: then items may rate stages (N/A), and training
    and gold, adjudication, drift and the raters' agreement apply."""
    answer_template: ClassVar[str]
    """The questionnaire's field for one item's answer."""
    report_template: ClassVar[str]
    """The body of the study's agreement report page."""
    answers: ClassVar[tuple[str, ...]] = ()

    def __str__(self) -> str:
        return self.name

    def scale_problem(self, declared: Any) -> str | None:
        """What is wrong with the rubric file's ``scale``, or ``None``."""
        raise NotImplementedError

    def scale_of(self, declared: Any) -> Mapping[str, int]:
        """The scale of a rubric whose file declares ``declared`` (checked by ``scale_problem``)."""
        return declared

    def unit(self, text: str) -> str | Pair | None:
        """The unit ``text`` names (a trajectory id, or a ``Pair``), ``None`` if it names none."""
        raise NotImplementedError

    def trajectory_ids(self, text: str) -> tuple[str, ...]:
        """The trajectories of the unit ``text`` names; none when it names no unit."""
        raise NotImplementedError

    def shown_first_drawn(self, text: str) -> str:
        """The trajectory a new rater of the unit sees as A; empty when there is no choice."""
        return ""

    def answer_problem(self, score: Any, *, low: int, high: int) -> str | None:
        """What is wrong with a questionnaire's answer ``score``, in the active language."""
        raise NotImplementedError

    def stored_score(self, answer: Any, *, unit: str, shown_first: str) -> int:
        """A complete questionnaire's answer as the rating's score."""
        raise NotImplementedError

    def file_score_problem(self, score: float) -> str | None:
        """What is wrong with a ratings file's score (already within the scale)."""
        return None


class ScaleKind(RubricKind):
    name = "scale"
    mode = "pointwise"
    is_pairwise = False
    scores_points = True
    answer_template = "annotation/_answer_scale.html"
    report_template = "annotation/_agreement_body.html"

    def scale_problem(self, declared: Any) -> str | None:
        bounds_are_integers = isinstance(declared, dict) and all(
            isinstance(declared.get(bound), int) and not isinstance(declared.get(bound), bool)
            for bound in ("min", "max")
        )
        if not bounds_are_integers or declared["min"] >= declared["max"]:
            return 'scale: must be {"min": int, "max": int} with min < max'
        return None

    def unit(self, text: str) -> str:
        return text

    def trajectory_ids(self, text: str) -> tuple[str, ...]:
        return (text,)

    def answer_problem(self, score: Any, *, low: int, high: int) -> str | None:
        if whole_number(score, low=low, high=high) is None:
            return _("give an integer from %(low)d to %(high)d") % {"low": low, "high": high}
        return None

    def stored_score(self, answer: Any, *, unit: str, shown_first: str) -> int:
        return int(answer)


class PairwiseKind(RubricKind):
    name = "pairwise"
    mode = "pairwise"
    is_pairwise = True
    scores_points = False
    answer_template = "annotation/_answer_choice.html"
    report_template = "annotation/_pairwise_body.html"
    answers = ANSWERS
    SCALE: ClassVar[dict[str, int]] = {"min": -1, "max": 1}

    def scale_problem(self, declared: Any) -> str | None:
        if declared not in (None, self.SCALE):
            return 'scale: a pairwise rubric answers first (1), draw (0) or second (-1): omit it or give {"min": -1, "max": 1}'
        return None

    def scale_of(self, declared: Any) -> Mapping[str, int]:
        return self.SCALE

    def unit(self, text: str) -> Pair | None:
        return Pair.parse(text)

    def trajectory_ids(self, text: str) -> tuple[str, ...]:
        pair = Pair.parse(text)
        return pair.trajectory_ids if pair else ()

    def shown_first_drawn(self, text: str) -> str:
        pair = Pair.parse(text)
        if pair is None:
            raise ValueError(f"{text!r} is not a pair of trajectories FIRST|SECOND")
        return pair.shown_first_drawn()

    def answer_problem(self, score: Any, *, low: int, high: int) -> str | None:
        return None if score in ANSWERS else _("choose A, B or draw")

    def stored_score(self, answer: Any, *, unit: str, shown_first: str) -> int:
        pair = Pair.parse(unit)
        if pair is None:
            raise ValueError(f"{unit!r} is not a pair of trajectories FIRST|SECOND")
        return Pair.score(answer, first_is_a=shown_first == pair.first)

    def file_score_problem(self, score: float) -> str | None:
        if score in (-1, 0, 1):
            return None
        shown = str(int(score)) if score == int(score) else str(score)
        return f"a pairwise answer is 1 (first preferred), 0 (draw) or -1 (second), got {shown}"


SCALE, PAIRWISE = ScaleKind(), PairwiseKind()
RUBRIC_KINDS: dict[str, RubricKind] = {kind.name: kind for kind in (SCALE, PAIRWISE)}
