"""What every participant reads when a trial is over: the outcome as the trial decided it (a
judgment's orders, a mediation agreement, or the verdict and sentence) and, beside it, what
the real court decided: the case file's evaluation-only fields, revealed only now, and only
when the trial reached a decision of its own to compare with."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from agents.scripted.context import Ctx
from agents.scripted.counterfactuals import Counterfactual, what_moved
from agents.scripted.record import civil_record, criminal_record
from agents.tools.statutes import CitationCheck, article_number, citations_check
from court.documents import document_sections
from court.engine.machine import JUDGE_SEAT
from court.engine.state import TrialState, TurnRecord
from court.engine.visibility import build_view
from court.legaltext.text import EN_ARTICLE, ENGLISH_LAW_NAMES, article_citations, normalise
from court.procedures.names import sentence_words
from court.procedures.seats import seat_info

OUTCOME_KINDS = ("first_instance_judgment", "mediation_record", "second_instance_judgment", "criminal_judgment")
"""Documents that decide a case; the last one a trial filed is its outcome."""


@dataclass(frozen=True)
class Decided:
    """One document of the trial's that decided the case: its kind, title and orders."""

    kind: str
    title: str
    orders: str


@dataclass(frozen=True)
class Debrief:
    title: str
    """The deciding document's title, or empty when the trial decided nothing (a consultation)."""
    orders: str
    """What it orders (its orders section, or the whole document)."""
    document: str
    real: list[tuple[str, str]] = field(default_factory=list)
    """(heading, text) of what the real court decided."""
    decided: list[Decided] = field(default_factory=list)
    """Every deciding document in the order filed: a second-instance judgment only varies or
    affirms the first-instance orders, so a student reads those first and then the appeal's."""


def debrief_for(state: TrialState) -> Debrief | None:
    """The debrief of a finished trial; None while it runs."""
    if not state.finished:
        return None
    deciding = [artifact for artifact in state.artifacts if artifact.kind in OUTCOME_KINDS]
    if not deciding:
        return Debrief(title="", orders="", document="")
    decided = [Decided(artifact.kind, artifact.title, _orders(artifact.text, artifact.kind)) for artifact in deciding]
    outcome = deciding[-1]
    return Debrief(
        title=outcome.title,
        orders=decided[-1].orders,
        document=outcome.text,
        real=_real_decision(state.case, state.language, second_instance="SIT" in state.stage_history),
        decided=decided,
    )


def _orders(text: str, kind: str) -> str:
    return document_sections(text, kind).get("orders") or text


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


@dataclass(frozen=True)
class OutcomeMoves:
    """What moved the offline court's outcome of one hearing for one side: the points the side
    made that changed it, and those it left on the table, each with the outcome the other way.
    At second instance the outcome answers the appellant's appeal requests."""

    stage: str
    side: str
    outcome: str
    moved: list[Counterfactual]
    missed: list[Counterfactual]


def outcome_moves(state: TrialState, seats: list[str]) -> list[OutcomeMoves]:
    """For the side of ``seats``, what the scripted court's rule says moved each judgment the
    trial's hearings pronounced, first instance first (none when no hearing judged the case:
    a mediation, a consultation, a trial still running, or a seat of the court)."""
    sides = _sides(state, seats) - {"court", "clerk"}
    if not state.finished or len(sides) != 1:
        return []
    side = sides.pop()
    judged = {turn.stage: turn for turn in state.turns if turn.act == "pronounce_judgment"}
    return [_moves(state, turn, side) for turn in judged.values()]


def _moves(state: TrialState, judged: TurnRecord, side: str) -> OutcomeMoves:
    ctx = Ctx(build_view(state, JUDGE_SEAT, stage=judged.stage, phase=judged.phase))
    record = criminal_record(ctx) if state.procedure == "criminal" else civil_record(ctx)
    outcome, found = what_moved(record, side)
    made = [item for item in found if item.made]
    missed = [item for item in found if not item.made]
    return OutcomeMoves(judged.stage, side, outcome, made, missed)


@dataclass(frozen=True)
class ArticleMissed:
    citation: str
    """As the court cited it; in an English case, with the law's English name where known."""
    gist: str
    """The article's first sentence, from the statute corpus (empty when the corpus lacks it).
    The corpus is Chinese only, so the gist is always in Chinese."""
    source: str = ""
    """The corpus' own citation of the article (《中华人民共和国民法典》第1179条), so a reader
    of an English case can find the Chinese original the gist quotes."""


def articles_missed(state: TrialState, seats: list[str]) -> list[ArticleMissed]:
    """The articles the courts cited (the real court's references, and the trial's own
    judgment) that nobody at ``seats`` cited, each with what it says."""
    said = "\n".join(turn.text for turn in state.turns if turn.seat in seats)
    said += "\n".join(artifact.text for artifact in state.artifacts if artifact.side in _sides(state, seats))
    cited = article_citations(said)
    references = list(_real_references(state.case))
    for artifact in state.artifacts:
        if artifact.kind in OUTCOME_KINDS:
            references += [check.citation for check in citations_check(artifact.text)]
    missed, seen = [], set(cited)
    for reference in references:
        keys = article_citations(reference)
        if not keys or keys <= seen:
            continue
        seen |= keys
        check = _article_check(reference)
        missed.append(
            ArticleMissed(
                reference if state.language == "zh" else _in_english(reference),
                _first_sentence(check.text or "") if check else "",
                check.citation if check else "",
            )
        )
    return missed


def _article_check(reference: str) -> CitationCheck | None:
    """The article in the (Chinese) statute corpus; an English citation is looked up under
    the Chinese name of its law."""
    checks = citations_check(reference)
    if not checks and (match := EN_ARTICLE.search(reference)):
        law = ENGLISH_LAW_NAMES.get(normalise(match["law"]).replace(" of the people's republic of china", ""))
        checks = citations_check(f"《{law}》第{match['number']}条") if law else []
    return checks[0] if checks and checks[0].exists else None


CHINESE_LAW_NAMES = {chinese: english for english, chinese in reversed(ENGLISH_LAW_NAMES.items())}
"""The English name of a law of the corpus (British spelling, the first ``ENGLISH_LAW_NAMES`` gives)."""


def _in_english(reference: str) -> str:
    """A Chinese citation of the trial's own judgment (《中华人民共和国民法典》第1179条) as an
    English case cites it (Civil Code of the People's Republic of China, Article 1179), where
    the law has an English name; otherwise as it is."""
    check = next(iter(citations_check(reference)), None)
    english = CHINESE_LAW_NAMES.get(check.law or "") if check else None
    number = re.search(r"第(\S+?)条", reference)
    arabic = article_number(number[1]) if number else None
    if not english or arabic is None:
        return reference
    return f"{english.title()} of the People's Republic of China, Article {arabic}"


def _sides(state: TrialState, seats: list[str]) -> set[str]:
    return {seat_info(state.procedure, seat).side for seat in seats}


def _real_references(case: dict[str, Any]) -> list[str]:
    block = case if case.get("procedure") == "criminal" else case.get("first_instance") or {}
    return list(block.get("legal_references") or [])


def _first_sentence(text: str, limit: int = 140) -> str:
    sentence = text.strip().split("。")[0]
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"
