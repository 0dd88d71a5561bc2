"""What every participant reads when a trial is over: the outcome as the trial decided it (a
judgment's orders, a mediation agreement, or the verdict and sentence) and, beside it, what
the real court decided: the case file's evaluation-only fields, revealed only now, and only
when the trial reached a decision of its own to compare with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from trials.documents import document_sections
from trials.engine.state import TrialState
from trials.procedures.names import sentence_words

OUTCOME_KINDS = ("first_instance_judgment", "mediation_record", "second_instance_judgment", "criminal_judgment")
"""Documents that decide a case; the last one a trial filed is its outcome."""


@dataclass(frozen=True)
class Debrief:
    title: str
    """The deciding document's title, or empty when the trial decided nothing (a consultation)."""
    orders: str
    """What it orders (its orders section, or the whole document)."""
    document: str
    real: list[tuple[str, str]] = field(default_factory=list)
    """(heading, text) of what the real court decided."""


def debrief_for(state: TrialState) -> Debrief | None:
    """The debrief of a finished trial; None while it runs."""
    if not state.finished:
        return None
    outcome = next((artifact for artifact in reversed(state.artifacts) if artifact.kind in OUTCOME_KINDS), None)
    if outcome is None:
        return Debrief(title="", orders="", document="")
    orders = document_sections(outcome.text, outcome.kind).get("orders") or outcome.text
    return Debrief(
        title=outcome.title,
        orders=orders,
        document=outcome.text,
        real=_real_decision(state.case, state.language, second_instance="SIT" in state.stage_history),
    )


def _real_decision(case: dict[str, Any], language: str, *, second_instance: bool) -> list[tuple[str, str]]:
    zh = language == "zh"
    if case.get("procedure") == "criminal":
        return _real_sentence(case, zh)
    first = case.get("first_instance") or {}
    second = case.get("second_instance") or {}
    real = []
    if first.get("disposition"):
        real.append(("一审判决" if zh else "First-instance judgment", first["disposition"]))
    if second_instance and second.get("final_disposition"):
        real.append(("二审判决" if zh else "Second-instance judgment", second["final_disposition"]))
    if first.get("legal_references"):
        real.append(("法律依据" if zh else "Legal basis", "; ".join(first["legal_references"])))
    return real


def _real_sentence(case: dict[str, Any], zh: bool) -> list[tuple[str, str]]:
    sentence = case.get("sentence") or {}
    real = []
    if case.get("charges"):
        real.append(("罪名" if zh else "Offence", "、".join(case["charges"]) if zh else ", ".join(case["charges"])))
    if sentence:
        real.append(("判决" if zh else "Sentence", sentence_words(sentence, "zh" if zh else "en")))
    if case.get("legal_references"):
        real.append(("法律依据" if zh else "Legal basis", "; ".join(case["legal_references"])))
    return real
