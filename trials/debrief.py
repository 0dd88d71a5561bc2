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
from agents.tools.citations import provision_check
from court.agenda import AGENDA, CONSULTATION
from court.documents import document_sections
from court.engine.machine import JUDGE_SEAT
from court.engine.state import TrialState, TurnRecord
from court.engine.visibility import build_view
from court.engine.withheld import Withheld, withheld_of
from court.legaltext.text import ENGLISH_LAW_NAMES, Provision, article_citations, provisions
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
    interviews: list[Interview] = field(default_factory=list)
    """The consultation as each lawyer's seat played it (``interview_of``); the room shows a
    reader the one of their own seat."""


def debrief_for(state: TrialState) -> Debrief | None:
    """The debrief of a finished trial; None while it runs."""
    if not state.finished:
        return None
    deciding = [artifact for artifact in state.artifacts if artifact.kind in OUTCOME_KINDS]
    interviews = [found for seat in LAWYER_SEATS if (found := interview_of(state, seat))]
    if not deciding:
        return Debrief(title="", orders="", document="", interviews=interviews)
    decided = [Decided(artifact.kind, artifact.title, _orders(artifact.text, artifact.kind)) for artifact in deciding]
    outcome = deciding[-1]
    return Debrief(
        title=outcome.title,
        orders=decided[-1].orders,
        document=outcome.text,
        real=_real_decision(state.case, state.language, second_instance="SIT" in state.stage_history),
        decided=decided,
        interviews=interviews,
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


LAWYER_SEATS = ("plaintiff_lawyer", "defendant_lawyer")


@dataclass(frozen=True)
class Interview:
    """The consultation one lawyer's seat took part in, credited to whoever played it: the
    reader's own turns are "yours" only when a person played the seat; a consultation an agent
    played for the seat (before the student joined, or in a simulation) is reported as the
    agent's."""

    seat: str
    by_person: bool
    """A person played the lawyer in the consultation (the agent's turns before they joined are not theirs)."""
    never_asked: list[str]
    """The agenda's items (named in the case's language) none of the player's questions asked about."""
    drawn_out: list[str]
    """Withheld details the client told after one of the player's own questions asked about them."""
    told_unasked: list[str]
    """Withheld details the client told though the player never asked about them (the client
    volunteered it, or it came out after an agent's question or later in the case)."""
    missed: list[str]
    """Withheld details the client never told."""


def interview_of(state: TrialState, seat: str) -> Interview | None:
    """How ``seat`` (a lawyer) conducted the consultation, counting only the turns of whoever
    played it: a person's own turns when a person played any of them, else the agent's. None
    when the seat took no part in a consultation."""
    played = [turn for turn in state.turns if turn.stage == CONSULTATION and turn.seat == seat]
    if state.procedure != "civil" or not played:
        return None
    by_person = any(turn.author == "human" for turn in played)
    own = [turn for turn in played if turn.author == "human"] if by_person else played
    side = seat_info(state.procedure, seat).side
    details = withheld_of((state.case.get("personas") or {}).get(side))
    told_by = _first_told(state, f"{side}_client", details)
    drawn = [
        item.detail
        for item in details
        if item.detail in told_by and any(turn.seq < told_by[item.detail] and item.asked_in(turn.text) for turn in own)
    ]
    return Interview(
        seat=seat,
        by_person=by_person,
        never_asked=[item.name(state.language) for item in AGENDA if not any(item.asked_in(t.text) for t in own)],
        drawn_out=drawn,
        told_unasked=[item.detail for item in details if item.detail in told_by and item.detail not in drawn],
        missed=[item.detail for item in details if item.detail not in told_by],
    )


def _first_told(state: TrialState, client: str, details: list[Withheld]) -> dict[str, int]:
    """Each withheld detail the client has told, with the turn that first told it."""
    told: dict[str, int] = {}
    for turn in state.turns:
        if turn.seat == client:
            for item in details:
                if item.told_in(turn.text):
                    told.setdefault(item.detail, turn.seq)
    return told


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
    """As the court cited it (one article of a list, with its 之N and paragraph); in an English
    case, with the law's English name where known."""
    gist: str
    """The first sentence of the provision cited, from the statute corpus: the 之N article's own
    text, the paragraph's when a paragraph is cited; empty when the corpus lacks it. The corpus
    is Chinese only, so the gist is always in Chinese."""
    source: str = ""
    """The corpus' own citation of what the gist quotes (《中华人民共和国刑法》第六十七条第三款), so
    a reader of an English case can find the Chinese original."""
    in_corpus: bool = True
    """False when the statute corpus lacks the law, the article, its 之N article or the paragraph
    cited: the debrief then says so instead of quoting another provision."""


def articles_missed(state: TrialState, seats: list[str]) -> list[ArticleMissed]:
    """The articles the courts cited (the real court's references, and the trial's own
    judgment) that the reader did not cite in their own turns and documents at ``seats``,
    each with what the provision cited says."""
    cited = article_citations(_own_words(state, seats))
    texts = list(_real_references(state.case))
    texts += [artifact.text for artifact in state.artifacts if artifact.kind in OUTCOME_KINDS]
    missed, seen = [], set()
    for found in (found for text in texts for found in provisions(text)):
        if found.key in cited or (found.key, found.cited.paragraph) in seen:
            continue
        seen.add((found.key, found.cited.paragraph))
        check = provision_check(found)
        missed.append(
            ArticleMissed(
                check.citation if state.language == "zh" else _in_english(check.citation),
                _first_sentence(check.text or "") if check.exists else "",
                check.source,
                check.exists,
            )
        )
    return missed


def _own_words(state: TrialState, seats: list[str]) -> str:
    """What the reader said and filed at ``seats``: the turns a person wrote (an agent's turns
    at the seat, before they joined or in a simulation, are not theirs) and the documents filed
    in the stages they played."""
    turns = [turn for turn in state.turns if turn.seat in seats and turn.author == "human"]
    played = {(turn.stage, turn.seat) for turn in turns}
    filed = [artifact.text for artifact in state.artifacts if (artifact.stage, artifact.author_seat) in played]
    return "\n".join([turn.text for turn in turns] + filed)


CHINESE_LAW_NAMES = {chinese: english for english, chinese in reversed(ENGLISH_LAW_NAMES.items())}
"""The English name of a law of the corpus (British spelling, the first ``ENGLISH_LAW_NAMES`` gives)."""
CJK_CHARACTER = re.compile(r"[\u4e00-\u9fff]")


def _in_english(citation: str) -> str:
    """A Chinese citation (《中华人民共和国民法典》第1179条, 《刑法》第六十七条第三款) as an English
    case cites it (Civil Code of the People's Republic of China, Article 1179; Criminal Law ...,
    Article 67, paragraph 3; a 之一 article as Article 133-1), where the law has an English
    name; otherwise as it is."""
    found = next(iter(provisions(citation)), None)
    if found is None or not CJK_CHARACTER.search(found.cited.written):
        return citation
    english = CHINESE_LAW_NAMES.get(provision_check(found).law or "")
    return f"{english.title()} of the People's Republic of China, {_english_article(found)}" if english else citation


def _english_article(found: Provision) -> str:
    cited = found.cited
    words = f"Article {cited.article}" + (f"-{cited.sub}" if cited.sub else "")
    return words + (f", paragraph {cited.paragraph}" if cited.paragraph else "")


def _sides(state: TrialState, seats: list[str]) -> set[str]:
    return {seat_info(state.procedure, seat).side for seat in seats}


def _real_references(case: dict[str, Any]) -> list[str]:
    block = case if case.get("procedure") == "criminal" else case.get("first_instance") or {}
    return list(block.get("legal_references") or [])


def _first_sentence(text: str, limit: int = 140) -> str:
    sentence = text.strip().split("。")[0]
    return sentence if len(sentence) <= limit else sentence[: limit - 1] + "…"
