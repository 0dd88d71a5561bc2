"""Who gives the 0-10 semantic scores of LongJud-Bench: the LLM judge, or, offline, a
deterministic rule-based scorer.

Both rate the same ``Criterion`` objects (what is judged, the reference, the candidate
text), so the formulas and the scorecard never ask which scorer ran. The rule-based scorer
measures **coverage**: the share of the reference's specific terms (its content terms less
the vocabulary every case shares, ``grounding.generic_terms``: "the court", "the plaintiff",
"within ten days" cover nothing of a point) the candidate contains, and where the reference
cites statutes, half of the score is the share of those articles the candidate cites. It rewards raising what the reference raises; it cannot judge quality,
which is why the UI labels its scores as rule-based. A criterion may carry what its author
said before (``already_said``, MILE's logicality): repeating it earns nothing, so the
rule-based score is scaled by the share of the candidate's sentences that say something new.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Protocol

from court.legaltext.text import article_citations, terms
from legalsim.json_input import loads_untrusted
from legalsim.llm import LLMCall, LLMClient
from scoring.grounding import reference_terms, specific_coverage
from scoring.references import sentences

RAISED = 0.5
"""A reference point counts as raised when the candidate covers half of its terms."""
REPEATED = 0.8
"""A sentence repeats an earlier one when that one holds four fifths of its content terms."""
STRICT = "Return JSON only: no prose, no Markdown, nothing before or after the JSON object."


@dataclass(frozen=True)
class Criterion:
    id: str
    instruction: str
    reference: str
    candidate: str
    already_said: str = ""
    """What the candidate's author said before; saying it again earns nothing."""


@dataclass(frozen=True)
class Rating:
    score: float
    """0-10."""
    reason: str


class ScoringFailed(RuntimeError):
    """The LLM scorer's reply could not be used, even after one stricter regeneration."""


class Scorer(Protocol):
    label: str

    def rate(self, criteria: list[Criterion], language: str) -> dict[str, Rating]: ...


def points_raised(points: list[str], candidate: str, language: str) -> tuple[list[str], list[str]]:
    """Split reference points (claims, evidence items, sentences) into raised and not raised."""
    raised, missing = [], []
    for point in points:
        share = specific_coverage(point, candidate, language)
        (raised if share is None or share >= RAISED else missing).append(point)
    return raised, missing


class RuleBasedScorer:
    label = "rule-based"

    def rate(self, criteria: list[Criterion], language: str) -> dict[str, Rating]:
        return {criterion.id: self._rate(criterion, language) for criterion in criteria}

    @staticmethod
    def _rate(criterion: Criterion, language: str) -> Rating:
        if not criterion.candidate.strip():
            return Rating(0.0, "nothing was said or written for this item")
        wanted_terms = reference_terms(criterion.reference, language)
        found = len(_worded(wanted_terms & terms(criterion.candidate, language)))
        share = found / len(wanted_terms) if wanted_terms else 0.0
        wanted = article_citations(criterion.reference)
        reason = f"covers {found} of {len(wanted_terms)} reference terms"
        if wanted:
            laws = {key.rpartition("#")[0] for key in wanted}
            default = laws.pop() if len(laws) == 1 else None
            cited = wanted & article_citations(criterion.candidate, default_law=default)
            share = (share + len(cited) / len(wanted)) / 2
            reason += f"; cites {len(cited)} of {len(wanted)} reference articles"
        if criterion.already_said:
            repeated, said = repeated_sentences(criterion.candidate, criterion.already_said, language)
            share *= (1 - repeated / said) if said else 1.0
            reason += f"; {repeated} of {said} sentences repeat what was already said"
        return Rating(round(10 * share, 4), reason)


NUMBER = re.compile(r"[\d.,%％]+")


def _worded(found: frozenset[str]) -> frozenset[str]:
    """The reference terms a candidate covers, its numbers counted only beside a word of the
    reference: a sum typed alone ("200000" thirty times) states no claim, "归还借款200000元" does."""
    if all(NUMBER.fullmatch(term) for term in found):
        return frozenset()
    return found


def repeated_sentences(candidate: str, earlier: str, language: str) -> tuple[int, int]:
    """How many of the candidate's sentences (those with content terms) repeat a sentence of
    ``earlier``, and how many there are."""
    before = [terms(sentence, language) for sentence in sentences(earlier)]
    said = [wanted for sentence in sentences(candidate) if (wanted := terms(sentence, language))]
    repeated = sum(1 for wanted in said if any(len(wanted & old) >= REPEATED * len(wanted) for old in before))
    return repeated, len(said)


class LLMScorer:
    """All criteria of one stage in one call; a reply that does not parse gets one stricter
    regeneration, then ``ScoringFailed`` (no score is stored for that trial)."""

    def __init__(self, *, client: LLMClient, model: str) -> None:
        self.client, self.model = client, model
        self.label = f"llm:{model}"
        self.tokens = 0

    def rate(self, criteria: list[Criterion], language: str) -> dict[str, Rating]:
        if not criteria:
            return {}
        problem = ""
        for strict in (False, True):
            result, _ = self.client.complete(LLMCall(self.model, _messages(criteria, strict), temperature=0.0))
            self.tokens += result.prompt_tokens + result.completion_tokens
            try:
                return _parse(result.text, [criterion.id for criterion in criteria])
            except (ValueError, KeyError, TypeError) as error:
                problem = f"{type(error).__name__}: {error}"
        raise ScoringFailed(f"the scorer's reply does not follow the JSON asked for ({problem})")


SYSTEM = (
    "You score a litigation lawyer's work for LongJud-Bench. For every criterion compare the candidate "
    "with the reference and give an integer from 0 to 10 (9-10: complete, accurate and well supported; "
    "7-8: most points with light gaps; 5-6: useful but limited coverage or links to evidence and law; "
    "3-4: sparse and loosely connected; 0-2: little usable signal) and a one-sentence reason. "
    'A criterion with "already_said" holds what the candidate\'s author said before: repeating it earns nothing. '
    'Answer with {"scores": {"CRITERION_ID": {"score": INTEGER, "reason": "..."}, ...}}.'
)


def _messages(criteria: list[Criterion], strict: bool) -> list[dict[str, str]]:
    items = [
        {
            "id": criterion.id,
            "criterion": criterion.instruction,
            "reference": criterion.reference,
            "candidate": criterion.candidate,
        }
        | ({"already_said": criterion.already_said} if criterion.already_said else {})
        for criterion in criteria
    ]
    suffix = f"\n{STRICT}" if strict else ""
    return [
        {"role": "system", "content": SYSTEM + suffix},
        {"role": "user", "content": json.dumps(items, ensure_ascii=False) + suffix},
    ]


def _parse(text: str, ids: list[str]) -> dict[str, Rating]:
    match = re.search(r"\{.*\}", text, re.DOTALL)
    data = loads_untrusted(match.group(0) if match else text)["scores"]
    ratings = {}
    for criterion_id in ids:
        score = data[criterion_id]["score"]
        if isinstance(score, bool) or not isinstance(score, int | float) or not 0 <= score <= 10:
            raise ValueError(f"{criterion_id}: score {score!r} is not within 0-10")
        ratings[criterion_id] = Rating(float(score), str(data[criterion_id].get("reason", "")))
    return ratings
