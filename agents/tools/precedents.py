"""Precedent search: the cases of the library most like the one an agent or a student argues,
as AgentsCourt's judge finds its precedents ("AgentsCourt: Building Judicial Decision-Making
Agents with Court Debate Simulation and Legal Knowledge Augmentation", arXiv 2403.02959, §3.2):
BM25 rough retrieval over the cases' facts and holdings, then a re-ranking of the candidates.
docs/precedents.md gives the method and its figures (``benchmarks/precedents.py``).

- **What is indexed** of a library case: its title, cause of action (or charges), claims (or
  the prosecution's charges), facts (``facts_and_reasons``, the indictment) and holding (the
  court's findings). Chinese is cut by jieba, as the statute index does; English is
  lower-cased, stemmed lightly and, word by word, also filed under the Chinese terms of a
  glossary, so an English query reaches a Chinese case and back; dates, sums and counts are
  left out (2023年9月1日 would match every dated case): ``agents/tools/precedent_words.py``.
- **Rough retrieval**: BM25 (``K1``, ``B``) over that text; the best ``RECALL`` go on.
- **Re-ranking**: BM25's share of the best score (for an English query and a Chinese
  candidate, of the best Chinese candidate's: the query reaches it through the glossary's
  words only, while an English case is filed under those and its English words), plus ``CAUSE_WEIGHT`` times the agreement of
  the candidate's cause of action or charge with the query's (the cause given, a cause the
  query names, or else the causes the best BM25 candidates vote for), plus ``KEY_WEIGHT`` times
  the share of the query's key fact terms (its ``KEY_TERMS`` words of highest tf-idf; for a
  Chinese candidate, the Chinese ones) the candidate holds, plus ``CLAIM_WEIGHT`` times the share of the candidate's claims (charges)
  words the query holds. The weights were set before any measurement and not tuned.
- **What a hit returns**: id, title, cause of action or charges, the key facts (the sentences of
  its facts that hold most of the query's key terms), its holding and its outcome (disposition
  or sentence). A library case's own judgment is what a precedent is for; the case being tried
  is never returned: not by its id, and not under another id (the same case number or the
  same facts), so no evaluation-only field of it (`EVALUATION_ONLY` in court/engine/visibility.py) reaches the search's reader.

``PrecedentIndex`` is plain data (built from case-file records, no database, no request);
``trials.caselibrary.precedent_library`` builds it over the case library and hands its
search to the agents' toolbox.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from agents.tools.precedent_words import CJK, LATIN_WORD, clean, tokens
from court.procedures.names import sentence_words

K1 = 1.2
B = 0.75
"""BM25's usual parameters: case facts run from a paragraph to a page, a spread b = 0.75 is made for."""
RECALL = 30
CAUSE_WEIGHT = 0.6
KEY_WEIGHT = 0.5
CLAIM_WEIGHT = 0.2
KEY_TERMS = 12
VOTERS = 5
"""Without a cause given or named, the causes of the best ``VOTERS`` BM25 candidates, weighted
by score, stand for the query's."""
MAX_QUERY_CHARS = 2000
"""A longer query is cut here (and the reader told): the facts of a case fit in it."""
MAX_TOP_K = 5
SNIPPET_CHARS = 300

CHARGE_LIST = re.compile(r"(?<=罪)\s*[、，,；;]\s*")
"""Where a list of charges given as one cause splits (盗窃罪、诈骗罪; not 走私、贩卖、运输、制造毒品罪)."""
SENTENCE_END = re.compile(r"(?<=[。；;！？!?])|(?<=\.)\s+")


@dataclass(frozen=True)
class Precedent:
    """One library case as the index holds it: its public header, its facts and its judgment."""

    id: str
    title: str
    procedure: str
    language: str
    cause_of_action: str
    charges: tuple[str, ...]
    claims: tuple[str, ...]
    facts: str
    holding: str
    outcome: str
    case_number: str

    @property
    def causes(self) -> frozenset[str]:
        return frozenset(_cause_key(name) for name in (self.cause_of_action, *self.charges) if _cause_key(name))

    @property
    def fingerprint(self) -> str:
        return hashlib.sha256(re.sub(r"\s+", "", self.facts).encode()).hexdigest() if self.facts.strip() else ""

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Precedent:
        """A case-file record (docs/case-format.md) as a precedent."""
        language = str(record.get("language") or "zh")
        first = record.get("first_instance") or {}
        second = record.get("second_instance") or {}
        charges = tuple(str(charge) for charge in record.get("charges") or ())
        if record.get("procedure") == "criminal":
            facts = str(record.get("indictment") or "")
            claims = charges
            sentence = record.get("sentence")
            outcome = _sentence_text(sentence, language)
            holding = str(record.get("court_findings") or "")
        else:
            facts = str(first.get("facts_and_reasons") or "")
            claims = tuple(str(claim) for claim in first.get("claims") or ())
            outcome = str(second.get("final_disposition") or first.get("disposition") or "")
            holding = str(second.get("appellate_findings") or first.get("court_findings") or "")
        return cls(
            id=str(record["id"]),
            title=str(record.get("title") or ""),
            procedure=str(record.get("procedure") or ""),
            language=language,
            cause_of_action=str(record.get("cause_of_action") or ""),
            charges=charges,
            claims=claims,
            facts=facts,
            holding=holding,
            outcome=outcome,
            case_number=str((record.get("metadata") or {}).get("case_number") or ""),
        )

    def text(self) -> str:
        return "\n".join((self.title, self.cause_of_action, *self.charges, *self.claims, self.facts, self.holding))


def _sentence_text(sentence: Any, language: str) -> str:
    """A sentence as a court writes it; empty when there is none or it cannot be read."""
    if not isinstance(sentence, Mapping):
        return ""
    try:
        return sentence_words(dict(sentence), language)
    except (TypeError, ValueError):
        return ""


def _cause_key(name: str) -> str:
    return re.sub(r"\s+", "", clean(name)).lower()


@lru_cache(maxsize=4096)
def _cause_words(name: str) -> frozenset[str]:
    """The distinctive words of a cause's name (买卖 of 房屋买卖合同纠纷; 诈骗 of Fraud)."""
    return frozenset(word for word in tokens(name) if word not in ("合同", "contract", "罪"))


def cause_agreement(wanted: Iterable[str], causes: Iterable[str]) -> float:
    """1 when a cause is one of ``wanted``; else half the best overlap of their distinctive
    words (房屋买卖合同纠纷 and 买卖合同纠纷: 0.5; Fraud and 诈骗罪: 0.5)."""
    wanted, causes = {_cause_key(name) for name in wanted} - {""}, {_cause_key(name) for name in causes} - {""}
    if wanted & causes:
        return 1.0
    best = 0.0
    for one in wanted:
        for other in causes:
            a, b = _cause_words(one), _cause_words(other)
            if a and b:
                best = max(best, len(a & b) / min(len(a), len(b)))
    return 0.5 * best


@dataclass(frozen=True)
class Hit:
    precedent: Precedent
    score: float
    matched: tuple[str, ...]
    key_facts: str

    def as_dict(self) -> dict[str, Any]:
        case = self.precedent
        hit: dict[str, Any] = {
            "id": case.id,
            "title": case.title,
            "procedure": case.procedure,
            "language": case.language,
            "cause_of_action": case.cause_of_action,
        }
        if case.charges:
            hit["charges"] = list(case.charges)
        no_record = "（无判决记录）" if case.language == "zh" else "(no judgment on record)"
        hit |= {
            "key_facts": self.key_facts,
            "holding": _cut(case.holding) or no_record,
            "outcome": _cut(case.outcome) or no_record,
            "shared_terms": list(self.matched),
            "score": round(self.score, 3),
        }
        return hit


@dataclass(frozen=True)
class Search:
    hits: tuple[Hit, ...]
    searched: int
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {"cases": [hit.as_dict() for hit in self.hits], "searched": self.searched}
        if self.message:
            result["message"] = self.message
        return result


class QueryError(ValueError):
    """A query the search cannot use (empty once cleaned); the tool reports it as a failure."""


@dataclass(frozen=True)
class PrecedentIndex:
    cases: tuple[Precedent, ...]
    counts: tuple[Counter[str], ...]
    lengths: tuple[int, ...]
    idf: Mapping[str, float]
    postings: Mapping[str, tuple[tuple[int, int], ...]]
    claim_words: tuple[frozenset[str], ...]

    @classmethod
    def build(cls, records: Iterable[Mapping[str, Any]]) -> PrecedentIndex:
        cases = tuple(Precedent.from_record(record) for record in records)
        counts = tuple(Counter(tokens(case.text())) for case in cases)
        postings: dict[str, list[tuple[int, int]]] = {}
        for position, count in enumerate(counts):
            for word, tf in count.items():
                postings.setdefault(word, []).append((position, tf))
        total = len(cases)
        idf = {word: math.log(1 + (total - len(docs) + 0.5) / (len(docs) + 0.5)) for word, docs in postings.items()}
        return cls(
            cases=cases,
            counts=counts,
            lengths=tuple(sum(count.values()) for count in counts),
            idf=idf,
            postings={word: tuple(docs) for word, docs in postings.items()},
            claim_words=tuple(frozenset(tokens(" ".join((*case.claims, *case.charges)))) for case in cases),
        )

    def bm25(self, query: Counter[str], allowed: set[int]) -> dict[int, float]:
        average = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0
        scores: dict[int, float] = {}
        for word, times in query.items():
            for position, tf in self.postings.get(word, ()):
                if position in allowed:
                    norm = K1 * (1 - B + B * self.lengths[position] / max(average, 1.0))
                    scores[position] = scores.get(position, 0.0) + times * self.idf[word] * tf * (K1 + 1) / (tf + norm)
        return scores

    def search(self, query: str, *, exclude: str = "", cause_of_action: str = "", top_k: int = 3) -> Search:
        """The ``top_k`` cases most like ``query`` (facts, claims, a charge), never the case
        ``exclude`` (the case being tried) nor a copy of it; ``cause_of_action`` is the query's
        cause when known. Raises ``QueryError`` for a query with no words at all."""
        notes = []
        text = clean(str(query)).strip()
        if len(text) > MAX_QUERY_CHARS:
            text = text[:MAX_QUERY_CHARS]
            notes.append(f"the query was cut to its first {MAX_QUERY_CHARS} characters")
        if not text:
            raise QueryError("the query is empty: give the facts, the claims or the charge to compare")
        words = Counter(tokens(text))
        if not words:
            raise QueryError("the query holds no word to search by (only punctuation, numbers or stop words)")
        top_k = max(1, min(int(top_k), MAX_TOP_K))
        allowed = self._allowed(exclude)
        scores = self.bm25(words, allowed)
        if not scores:
            notes.append(self._nothing_shared(len(allowed)))
            return Search((), len(allowed), "; ".join(notes))
        candidates = sorted(scores, key=lambda position: (-scores[position], self.cases[position].id))[:RECALL]
        english = len(LATIN_WORD.findall(text.lower())) > len(CJK.findall(text))
        top = scores[candidates[0]]
        chinese_best = max((scores[at] for at in candidates if self.cases[at].language == "zh"), default=top)
        key_terms = self._key_terms(words)
        chinese_terms = [word for word in key_terms if CJK.search(word)] or key_terms
        wanted = self._wanted_causes(text, cause_of_action, candidates, scores)
        ranked = []
        for position in candidates:
            case = self.cases[position]
            if wanted is None:
                cause = 0.0
            elif isinstance(wanted, dict):
                cause = max((wanted.get(key, 0.0) for key in case.causes), default=0.0)
            else:
                cause = cause_agreement(wanted, case.causes)
            terms = chinese_terms if case.language == "zh" else key_terms
            held = [word for word in terms if word in self.counts[position]]
            key = sum(self.idf[word] for word in held) / (sum(self.idf[word] for word in terms) or 1.0)
            claims = self.claim_words[position]
            claim = len(claims & words.keys()) / len(claims) if claims else 0.0
            relative = scores[position] / (chinese_best if english and case.language == "zh" else top)
            score = relative + CAUSE_WEIGHT * cause + KEY_WEIGHT * key + CLAIM_WEIGHT * claim
            ranked.append((score, case.id, position, tuple(held)))
        ranked.sort(key=lambda row: (-row[0], row[1]))
        hits = tuple(
            Hit(self.cases[position], score, held[:8], _key_facts(self.cases[position].facts, held))
            for score, _, position, held in ranked[:top_k]
        )
        return Search(hits, len(allowed), "; ".join(notes))

    def _allowed(self, exclude: str) -> set[int]:
        """Every case but ``exclude`` and the cases that are it under another id."""
        tried = next((case for case in self.cases if case.id == exclude), None) if exclude else None
        if tried is None:
            return set(range(len(self.cases))) - {
                index for index, case in enumerate(self.cases) if exclude and case.id == exclude
            }
        return {
            index
            for index, case in enumerate(self.cases)
            if case.id != tried.id
            and not (tried.case_number and case.case_number == tried.case_number)
            and not (tried.fingerprint and case.fingerprint == tried.fingerprint)
        }

    def _key_terms(self, words: Counter[str]) -> list[str]:
        known = [word for word in words if word in self.idf]
        return sorted(known, key=lambda word: (-words[word] * self.idf[word], word))[:KEY_TERMS]

    def _wanted_causes(
        self, text: str, cause_of_action: str, candidates: list[int], scores: Mapping[int, float]
    ) -> frozenset[str] | dict[str, float] | None:
        """The causes the query is about: the one given (and each charge of a list), or those the
        query names, or else the
        BM25 leaders' causes by their share of the leaders' score (a dict)."""
        if cause_of_action.strip():
            return frozenset({cause_of_action, *CHARGE_LIST.split(cause_of_action)})
        folded = _cause_key(text)
        named = frozenset(cause for case in self.cases for cause in case.causes if len(cause) >= 2 and cause in folded)
        if named:
            return named
        voters = candidates[:VOTERS]
        total = sum(scores[position] for position in voters)
        if not total:
            return None
        vote: dict[str, float] = {}
        for position in voters:
            for cause in self.cases[position].causes:
                vote[cause] = vote.get(cause, 0.0) + scores[position] / total
        return vote

    def _nothing_shared(self, searched: int) -> str:
        languages = Counter(case.language for case in self.cases)
        held = ", ".join(f"{count} in {language}" for language, count in sorted(languages.items())) or "none"
        return (
            f"no case of the library ({searched} searched; {held}) shares a word with the query; "
            "search by the facts, claims or charge, in the language of the cases"
        )


def _key_facts(facts: str, terms: Iterable[str]) -> str:
    """The sentences of ``facts`` holding most of ``terms``, in their order, cut to
    ``SNIPPET_CHARS``; the opening of the facts when none holds any."""
    sentences = [sentence.strip() for sentence in SENTENCE_END.split(facts) if sentence.strip()]
    if not sentences:
        return ""
    wanted = [term for term in terms if CJK.search(term) or term.isascii()]
    lowered = [sentence.lower() for sentence in sentences]
    held = [sum(1 for term in wanted if term in sentence) for sentence in lowered]
    if not any(held):
        return _cut(facts)
    best = sorted(range(len(sentences)), key=lambda index: (-held[index], index))[:2]
    glue = "" if CJK.search(facts) else " "
    return _cut(glue.join(sentences[index] for index in sorted(best) if held[index]))


def _cut(text: str) -> str:
    text = text.strip()
    return text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…"
