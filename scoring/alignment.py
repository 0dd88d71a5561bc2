"""Rule-based judgment alignment (LegalWorld Appendix C.4, Table 11; reported as §4.3
Table 2; docs/sources.md): a generated first- or second-instance judgment against the real one
of the case seed, on verdict, reasoning, legal reference, entity, structure and (second
instance) appeal action, each 0-10.

Set-like components (verdict, reasoning, legal reference, entity) are the set-overlap F1 of
C.4 as it is; φ(x) = sqrt(min(1, max(0, x))) is kept for the one partial numeric match,
structure's share of sections. A component whose real counterpart is missing is unavailable
(None) and is left out of ``overall``, never scored as zero.

How the elements are read:

* **Sections** of the generated judgment come from the document template's headings
  (``court.documents``), recognised in either language at the start of a line, alone or
  followed by a colon (本院认为，… as real judgments write it counts too). The title line and
  anything before the first heading belong to no section.
* **Verdict** compares key points of the disposition (the unit of AgentsCourt's Table 14):
  the disposition is split into its numbered orders (一、… / 1. …), sentences on court fees
  are dropped (the costs order is not a ruling on a request, and a generated judgment rarely
  restates it), and each order is classed by what it does: ``remand``, ``set_aside``,
  ``vary``, ``affirm`` (including 驳回上诉 / "the appeal is dismissed"), ``reject`` (驳回…
  请求 / "other claims are dismissed"), ``accrue`` (a running amount: interest, a rate, a
  daily penalty) or ``order`` (pay, deliver, perform). Its key points are ``(class, amount)``
  for every yuan amount it names, or ``(class, None)`` when it names none. So "pay RMB 43,200"
  matches one of the four key points of "pay rent of RMB 67,200 and damages of RMB 24,000,
  less the deposit of RMB 48,000, that is RMB 43,200", and a principal of 120000元 is a
  different key point from interest running on a base of 120000元. Key points are a set: the
  same point twice in one disposition counts once.
* **Reasoning**: the set-overlap F1 of the content terms of the real findings (一审
  ``court_findings``, 二审 ``appellate_findings``) and those of the generated 本院查明 + 本院认为
  sections.
* **Legal reference** (Table 11: law titles, article references, provision families): the
  elements of ``legal_reference_keys`` cited anywhere in the generated judgment against those
  of the real ``legal_references`` plus any cited in the real findings and disposition: each
  law, each article and the chapter it sits in, so the right provision family with another
  article earns part of the score.
* **Entity** (Table 11: party identities, role mapping, amounts): the parties' names (a name
  counts as generated when it appears in the generated judgment), each party's procedural
  role (``party_roles``: 原告/被告 at first instance; at second instance 上诉人/被上诉人 and the
  original side, 上诉人（原审被告）, the real appellant taken from ``appellant_side``) and the
  amounts of the orders, court fees excluded as for the verdict. Unavailable when there is no
  real disposition.
* **Structure**: the share of the template's sections present with a body.
* **Appeal action**: the class of the whole second-instance disposition (see
  ``appeal_action``) from the real ``final_disposition`` (or, when that names none, the real
  ``affected_items``) against the generated orders: 1 when they agree, else 0.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from statistics import fmean
from typing import Literal

from court.documents import DOCUMENTS, document_sections
from court.legaltext.text import amounts, legal_reference_keys, normalise, overlap_f1, party_roles, terms

Instance = Literal["first", "second"]
KeyPoint = tuple[str, float | None]

JUDGMENT_KIND: dict[str, str] = {"first": "first_instance_judgment", "second": "second_instance_judgment"}
TABLE2_COLUMNS = ("FIT", "SIT")
TABLE2_ELEMENTS = ("verdict", "reasoning", "legal_reference", "appeal_action", "entity", "structure")
"""Table 2's element rows, in its order."""

ORDER_MARK = re.compile(
    r"(?:^\s*|(?<=[；;。\n])\s*|(?<=\.)\s+)(?:[一二三四五六七八九十]+、|\d{1,2}[.、)](?!\d)|[（(]\d{1,2}[)）])"
)
"""An order's number at the start of the text, a line or a sentence (after "." only with a
space, so the 5 of "RMB 3.5." is not an order number)."""
SENTENCE_END = re.compile(r"(?<=[。；;])|(?<=[.!?])\s+")
COSTS = re.compile(
    r"受理费|诉讼费|保全费|\b(?:court|appeal|case|litigation|acceptance) fees?\b|\bcosts of the (?:action|appeal|proceedings)\b",
    re.IGNORECASE,
)
ITEM_REFERENCE = re.compile(r"第[一二三四五六七八九十\d、，,和及]+项|\bitems?\s+\d", re.IGNORECASE)
ORDER_CLASSES: dict[str, re.Pattern[str]] = {
    "remand": re.compile(r"发回|重审|remand|re-?trial", re.IGNORECASE),
    "set_aside": re.compile(r"撤销|set aside|revers|quash|revok", re.IGNORECASE),
    "vary": re.compile(r"改判|变更|\bvar(?:y|ied|ies)\b|modif|amend", re.IGNORECASE),
    "affirm": re.compile(
        r"维持|驳回上诉(?!人)|affirm|uph[eo]ld|appeal is dismissed|dismiss(?:es|ed)? the appeal", re.IGNORECASE
    ),
    "reject": re.compile(r"驳回|不予支持|dismiss|reject|not supported", re.IGNORECASE),
    "accrue": re.compile(
        r"利息|利率|按日|万分之|千分之|%|\binterest\b|\blpr\b|per (?:day|annum)|\bdaily\b", re.IGNORECASE
    ),
}
"""Order classes in priority order: the first that matches an order names it."""


@dataclass(frozen=True)
class RealJudgment:
    """The evaluation-only fields of a case seed that the generated judgment is held to."""

    disposition: str
    findings: str
    references: tuple[str, ...]
    affected_items: tuple[str, ...] = ()

    @classmethod
    def from_case(cls, case: dict, instance: Instance) -> RealJudgment:
        if instance == "first":
            stage = case.get("first_instance") or {}
            return cls(
                str(stage.get("disposition") or ""),
                str(stage.get("court_findings") or ""),
                tuple(stage.get("legal_references") or ()),
            )
        stage = case.get("second_instance") or {}
        return cls(
            str(stage.get("final_disposition") or ""),
            str(stage.get("appellate_findings") or ""),
            tuple(stage.get("legal_references") or ()),
            tuple(stage.get("affected_items") or ()),
        )

    def reference_keys(self) -> frozenset[str]:
        texts = (*self.references, self.findings, self.disposition)
        return frozenset().union(*(legal_reference_keys(text) for text in texts))


def judgment_alignment(*, generated: str, case: dict, instance: Instance) -> dict[str, float | None]:
    """The C.4 components on the 0-10 scale, None where unavailable, and their mean as
    ``overall`` (None when no component is available)."""
    real = RealJudgment.from_case(case, instance)
    sections = document_sections(generated, JUDGMENT_KIND[instance])
    orders = sections.get("orders", "")
    components: dict[str, float | None] = {
        "verdict": overlap_f1(key_points(real.disposition), key_points(orders)),
        "reasoning": _reasoning_f1(real.findings, sections, case.get("language", "zh")),
        "legal_reference": overlap_f1(real.reference_keys(), legal_reference_keys(generated)),
        "entity": _entity_f1(real.disposition, orders, generated, case, instance),
        "structure": phi(len(sections) / len(DOCUMENTS[JUDGMENT_KIND[instance]].sections)),
    }
    if instance == "second":
        components["appeal_action"] = _appeal_action_match(real, orders)
    scores = {name: None if value is None else 10 * value for name, value in components.items()}
    available = [score for score in scores.values() if score is not None]
    scores["overall"] = fmean(available) if available else None
    return scores


def phi(x: float) -> float:
    """C.4's transform of a partial numeric match: sqrt(min(1, max(0, x)))."""
    return math.sqrt(min(1.0, max(0.0, x)))


def disposition_items(text: str) -> list[str]:
    """The numbered orders of a disposition, court-fee sentences removed; an unnumbered
    disposition is one order. Text before the first number (判决如下：) is not an order."""
    text = text or ""
    marks = list(ORDER_MARK.finditer(text))
    if marks:
        ends = [mark.start() for mark in marks[1:]] + [len(text)]
        pieces = [text[mark.end() : end] for mark, end in zip(marks, ends, strict=True)]
    else:
        pieces = [text]
    items = (
        " ".join(s.strip() for s in SENTENCE_END.split(piece) if s.strip() and not COSTS.search(s)) for piece in pieces
    )
    return [item for item in items if item]


def order_class(item: str) -> str:
    """What one order does: the first class of ``ORDER_CLASSES`` that matches, else ``order``."""
    return next((name for name, pattern in ORDER_CLASSES.items() if pattern.search(item)), "order")


def key_points(disposition: str) -> frozenset[KeyPoint]:
    """The disposition's key points: ``(class, amount)`` per amount, ``(class, None)`` for
    an order that names none."""
    points: set[KeyPoint] = set()
    for item in disposition_items(disposition):
        action, values = order_class(item), amounts(item) or {None}
        points.update((action, value) for value in values)
    return frozenset(points)


def appeal_action(disposition: str) -> str | None:
    """The second-instance outcome: ``remand``; ``reverse`` when the first-instance judgment
    is set aside as a whole; ``vary`` when items are set aside or varied (撤销一审判决第二项,
    "item 1 is varied"); ``affirm`` (驳回上诉，维持原判); None when the text says none."""
    return _action(" ".join(disposition_items(disposition)))


def action_requested(requests: list[str]) -> str | None:
    """The second-instance outcome a list of appeal requests (or of an appellee's answers)
    asks for, as ``appeal_action`` names it; requests on court fees left out."""
    return _action(" ".join(request for request in requests if not COSTS.search(request)))


def _action(text: str) -> str | None:
    if ORDER_CLASSES["remand"].search(text):
        return "remand"
    if ORDER_CLASSES["set_aside"].search(text):
        return "vary" if ITEM_REFERENCE.search(text) else "reverse"
    if ORDER_CLASSES["vary"].search(text):
        return "vary"
    if ORDER_CLASSES["affirm"].search(text):
        return "affirm"
    return None


def _appeal_action_match(real: RealJudgment, orders: str) -> float | None:
    expected = appeal_action(real.disposition) or appeal_action("；".join(real.affected_items))
    if expected is None:
        return None
    return 1.0 if appeal_action(orders) == expected else 0.0


def _reasoning_f1(findings: str, sections: dict[str, str], language: str) -> float | None:
    generated = "\n".join(sections.get(section_id, "") for section_id in ("facts_found", "reasoning"))
    return overlap_f1(terms(findings, language), terms(generated, language))


def _entity_f1(disposition: str, orders: str, generated: str, case: dict, instance: Instance) -> float | None:
    if not disposition.strip():
        return None
    roles = _real_roles(case, instance)
    mentioned = {name for name in roles if name in normalise(generated)}
    real = {("party", name) for name in roles} | {("role", role, name) for name in roles for role in roles[name]}
    produced = {("party", name) for name in mentioned} | {
        ("role", role, name) for name in roles for role in party_roles(generated, name, instance)
    }
    real |= {("amount", value) for value in _order_amounts(disposition)}
    produced |= {("amount", value) for value in _order_amounts(orders)}
    return overlap_f1(real, produced)


def _real_roles(case: dict, instance: Instance) -> dict[str, frozenset[str]]:
    """Each party's (normalised) name and its roles in the real judgment: its side at first
    instance; at second instance its appellate role as well."""
    appellant = (case.get("second_instance") or {}).get("appellant_side")
    roles = {}
    for party in case.get("parties", []):
        if not party.get("name") or party.get("side") not in ("plaintiff", "defendant"):
            continue
        held = {party["side"]}
        if instance == "second" and appellant:
            held.add("appellant" if party["side"] == appellant else "appellee")
        roles[normalise(party["name"])] = frozenset(held)
    return roles


def _order_amounts(disposition: str) -> frozenset[float]:
    return frozenset().union(*(amounts(item) for item in disposition_items(disposition)))


def table2_cells(alignments: list[dict[str, dict[str, float | None] | None]]) -> dict[str, dict[str, float | None]]:
    """LegalWorld's Table 2 from trials' alignments (``{"FIT": scores or None, "SIT": ...}``):
    each element's mean over the FIT judgments and over the SIT judgments, and its
    ``overall`` cell the mean of those two; the bottom ``overall`` row averages the element
    rows of its column, as the table's does (8.37 for FIT from its five elements), not the
    mean of each judgment's own overall, in which a judgment with two elements available
    weighs those two as much as another judgment weighs all five."""
    rows: dict[str, dict[str, float | None]] = {}
    for element in TABLE2_ELEMENTS:
        cells = {
            stage: _mean_present([(each.get(stage) or {}).get(element) for each in alignments])
            for stage in TABLE2_COLUMNS
        }
        rows[element] = cells | {"overall": _mean_present(list(cells.values()))}
    bottom = {stage: _mean_present([rows[element][stage] for element in TABLE2_ELEMENTS]) for stage in TABLE2_COLUMNS}
    rows["overall"] = bottom | {"overall": _mean_present(list(bottom.values()))}
    return rows


def _mean_present(values: list[float | None]) -> float | None:
    present = [value for value in values if value is not None]
    return fmean(present) if present else None
