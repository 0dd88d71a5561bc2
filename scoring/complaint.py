"""MASER's complaint scoring (Multi-Agent Simulator Drives Language Models for Legal Intensive
Interaction, arXiv 2502.06882, §3 "Goal Evaluation" and Appendix B.2; docs/complaint-scoring.md).

A complaint is scored against the case's reference complaint, field by field, each in [0,1]:

- **plaintiff_info, defendant_info** (local, exact): every particular of each party of that
  side the reference gives (name, gender, birth date, ethnicity, address) counts once; the
  score is the share the complaint states identically for the party of that name.
- **facts, reasons, claims, evidence** (local, semantic): the scorer's 0-10 over 10: offline,
  the rule-based scorer's coverage of the reference's specific terms
  (``scoring.scorers``); with a model configured, the LLM judge's rating.
- **standardability** (global): the template's sections present in their order
  (``complaint_text.in_template_order``) over the sections of the template.
- **professionalism** (global): the LLM judge's rating; offline, the share of the reference's
  legal terms the complaint uses, times the share of its sentences free of colloquial words.

The reference is composed from the civil case file, as MASER composes its ground truth from the
judgment: the parties' particulars, the claims, the facts and reasons (a sentence that reasons in
law, ``REASONING``, is a reason, any other a fact) and the plaintiff's evidence. It is evaluation
data: no prompt and no page shows it; the scores say how much of it a complaint holds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from court.engine.state import TrialState
from court.legaltext.text import article_citations, normalise
from scoring.complaint_text import PARTY_COLON, SECTIONS, complaint_read, in_template_order, particulars
from scoring.references import evidence_points, listing, sentences
from scoring.scorers import Criterion, RuleBasedScorer, Scorer

FIELDS = ("plaintiff_info", "defendant_info", "facts", "reasons", "claims", "evidence")
SEMANTIC = {
    "facts": ("facts_and_reasons", "facts: the events the complaint alleges, against the reference's facts"),
    "reasons": (
        "facts_and_reasons",
        "reasons: why the law gives the plaintiff what it claims, against the reference's",
    ),
    "claims": ("claims", "claims: what the complaint asks the court to order, against the reference's claims"),
    "evidence": ("evidence", "evidence: the evidence and its sources the complaint lists, against the reference's"),
}
"""A semantic field: the complaint's section it is read from, and what the judge compares."""
PROFESSIONALISM = (
    "professionalism: correct and professional legal terminology, no overly colloquial or vague expressions, "
    "a clear and logical structure (MASER Appendix B.2)"
)
REASONING = {
    "zh": r"认为|应当|应予|理应|依法|根据|依据|依照|按照|《[^》]*(?:法|条例|解释|规定)》|第[\d一二三四五六七八九十百]+条|综上|据此|为此|(?:^|[，,])故|有权|构成",
    "en": r"\b(?:under|pursuant to|in accordance with|article|code|shall|should|must|entitled|therefore|accordingly)\b",
}
"""A sentence of the facts and reasons that reasons in law."""
LEGAL_TERMS = {
    "zh": (
        "原告 被告 诉讼请求 判令 依法 本案 诉讼费用 负担 承担 事实与理由 根据 依据 规定 合同 违约 借款 利息 本金 "
        "赔偿 责任 权利 义务 侵权 支付 返还 解除 履行 逾期 给付 连带 人民法院 此致 具状人 证据 纠纷 损失"
    ).split(),
    "en": (
        "plaintiff defendant claims order court pursuant article liability liable damages breach contract statute "
        "law costs interest principal compensation obligation evidence tort performance repayment jointly "
        "severally respectfully litigation"
    ).split(),
}
"""The register of a complaint: the words a professional pleading is written in."""
COLLOQUIAL = {
    "zh": r"我觉得|我想|好像|大概|反正|啥|咋|特别坑|坑人|气死|[吧呢啊呀嘛呗哈](?=[，。！？!?,\s]|$)|！！|\?\?|？？",
    "en": r"\b(?:i think|i guess|maybe|kind of|sort of|gonna|wanna|stuff|yeah|okay|ok|lol|totally|you know)\b|!!",
}


@dataclass(frozen=True)
class Party:
    side: str
    particulars: dict[str, str]


@dataclass(frozen=True)
class ReferenceComplaint:
    language: str
    parties: list[Party]
    claims: list[str]
    facts: list[str]
    reasons: list[str]
    evidence: list[str]
    court: str
    plaintiff_names: list[str]


def reference_complaint(case: dict[str, Any]) -> ReferenceComplaint | None:
    """The case's reference complaint, or None when it has none: a criminal case, or a civil
    case without a plaintiff or without claims and facts."""
    first = case.get("first_instance") or {}
    language = case.get("language", "zh")
    parties = [
        Party(party["side"], particulars(party.get("name", ""), party.get("details", ""), language))
        for party in case.get("parties", [])
        if party.get("side") in ("plaintiff", "defendant") and str(party.get("name", "")).strip()
    ]
    claims, told = listing(first.get("claims")), sentences(first.get("facts_and_reasons", ""))
    evidence = evidence_points(first.get("evidence", []), "plaintiff")
    written = _written_reference(case, language)
    if written is not None:
        claims = _lines(written.get("claims")) or claims
        told = sentences(written.get("facts_and_reasons", "")) or told
        evidence = _lines(written.get("evidence")) or evidence
    plaintiffs = [party for party in parties if party.side == "plaintiff"]
    if case.get("procedure") != "civil" or not plaintiffs or not (claims and told):
        return None
    reasoning = re.compile(REASONING["zh" if language == "zh" else "en"], re.IGNORECASE)
    reasons = [sentence for sentence in told if reasoning.search(sentence)]
    facts = [sentence for sentence in told if sentence not in reasons]
    return ReferenceComplaint(
        language,
        parties,
        claims,
        facts or told,
        reasons or told,
        evidence,
        (case.get("metadata") or {}).get("court_name", ""),
        [party["name"] for party in case["parties"] if party.get("side") == "plaintiff"],
    )


def _written_reference(case: dict[str, Any], language: str) -> dict[str, str] | None:
    """The sections of a reference complaint the case carries as text (MASER's ``output``,
    kept evaluation-only in ``extra.maser`` by ``import_cases --format maser``), if any."""
    maser = (case.get("extra") or {}).get("maser") or {}
    written = maser.get("output")
    if not isinstance(written, str) or not written.strip():
        return None
    return complaint_read(maser_output(written, maser.get("claim")), language).sections


def maser_output(output: str, claim: Any) -> str:
    """MASER's released ``output`` with its claims written out: the released complaints name
    each claim by its key in the record's ``claim`` object (a line ``1. 非诉讼费用内容。``), so a
    line that is only such a key becomes that key's text."""
    if not isinstance(claim, dict):
        return output
    texts = {str(key): str(text).strip() for key, text in claim.items() if str(text or "").strip()}

    def written_out(line: str) -> str:
        match = re.fullmatch(r"(\s*(?:\d+[.、．]\s*)?)(.+?)[。.]?\s*", line)
        return f"{match.group(1)}{texts[match.group(2)]}" if match and match.group(2) in texts else line

    return "\n".join(written_out(line) for line in output.splitlines())


def _lines(text: str | None) -> list[str]:
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def reference_text(case: dict[str, Any]) -> str:
    """The reference complaint written out in the template (the case file's own words): what a
    complaint that holds all of it looks like. Empty when the case has none."""
    reference = reference_complaint(case)
    if reference is None:
        return ""
    zh = reference.language == "zh"
    lines = ["民事起诉状" if zh else "Civil complaint"]
    for party in case["parties"]:
        if party.get("side") in ("plaintiff", "defendant"):
            heading = ("原告" if party["side"] == "plaintiff" else "被告") if zh else party["side"].capitalize()
            lines.append(
                f"{heading}{'：' if zh else ': '}{party['name']}{'，' if zh else ', '}{party.get('details', '')}"
            )
    lines += ["诉讼请求：" if zh else "Claims:", *(f"{n}. {claim}" for n, claim in enumerate(reference.claims, 1))]
    told = (case.get("first_instance") or {}).get("facts_and_reasons", "")
    lines += ["事实与理由：" if zh else "Facts and reasons:", told]
    lines += ["证据和证据来源：" if zh else "Evidence:"]
    lines += [f"{n}. {point}" for n, point in enumerate(reference.evidence, 1)]
    court = reference.court or ("人民法院" if zh else "the court")
    lines += ["此致", court] if zh else [f"To the {court}" if not court.lower().startswith("the ") else f"To {court}"]
    signer = "、".join(reference.plaintiff_names) if zh else ", ".join(reference.plaintiff_names)
    lines.append(f"具状人：{signer}" if zh else f"Complainant: {signer}")
    return "\n".join(lines)


def complaint_score(text: str, reference: ReferenceComplaint, scorer: Scorer) -> dict[str, Any]:
    """The complaint's fields, standardability and professionalism, each in [0,1]."""
    language = reference.language
    read = complaint_read(text, language)
    fields = {f"{side}_info": _particulars(read.sections, text, reference, side) for side in ("plaintiff", "defendant")}
    rated = _rated(text, read.sections, reference, scorer)
    fields |= {field: rated[field] for field in SEMANTIC}
    professionalism = rated.get("professionalism")
    if professionalism is None:
        professionalism = _professionalism(text, reference)
    return {
        "fields": fields,
        "standardability": round(in_template_order(read.order) / len(SECTIONS), 4),
        "professionalism": round(professionalism, 4),
    }


def _particulars(sections: dict[str, str], text: str, reference: ReferenceComplaint, side: str) -> float:
    """The share of the side's reference particulars the complaint states identically, read
    from the entry (a line of the side's section, or of the whole complaint without one) that
    names the party, from after its name (``_stated_after``)."""
    wanted = [party.particulars for party in reference.parties if party.side == side]
    lines = [normalise(line) for line in (sections.get(side) or text).splitlines()]
    matched = total = 0
    for index, each in enumerate(wanted):
        total += len(each)
        namesakes = sum(1 for earlier in wanted[:index] if earlier["name"] == each["name"])
        stated = _stated_after(each["name"], lines, namesakes)
        if stated is None:
            continue
        found = particulars(each["name"], stated, reference.language)
        matched += sum(1 for field, value in each.items() if found.get(field) == value)
    return round(matched / total, 4) if total else 0.0


def _stated_after(name: str, lines: list[str], namesakes: int) -> str | None:
    """What the complaint says after the party's name: preferably where the name opens an
    entry (at the line's start, after a party heading such as 被告二：, or after a comma) and
    stands whole (a separator or the line's end after it), so that a representative named
    inside another party's entry, or a company whose name begins another's, is not taken for
    the party; the party after ``namesakes`` earlier ones of the same name (anonymised parties
    share names) takes that many such mentions later; else after its first mention; None when
    no line names it."""
    opening = re.compile(
        r"(?:^\s*|[，,]\s*|(?:原告|被告|plaintiff|defendant)"
        + PARTY_COLON
        + r"\s*)"
        + re.escape(name)
        + r"(?=[，,。.;；:：\s]|$)"
    )
    mentions = [line[match.end() :] for line in lines for match in opening.finditer(line)]
    if mentions:
        return mentions[min(namesakes, len(mentions) - 1)]
    mentioned = next((line for line in lines if name in line), None)
    return None if mentioned is None else mentioned.split(name, 1)[1]


def _rated(text: str, sections: dict[str, str], reference: ReferenceComplaint, scorer: Scorer) -> dict[str, float]:
    """The semantic fields (and, by an LLM judge, professionalism) in one call to the scorer,
    each read from its section (the whole complaint when it has no such heading); an empty
    complaint scores 0 without a call, and a field the reference holds nothing of (a case
    whose plaintiff lists no evidence) 1: there is nothing to miss."""
    if not text.strip():
        return dict.fromkeys([*SEMANTIC, "professionalism"], 0.0)
    wanted = {
        "facts": reference.facts,
        "reasons": reference.reasons,
        "claims": reference.claims,
        "evidence": reference.evidence,
    }
    criteria = [
        Criterion(f"complaint.{field}", instruction, "\n".join(wanted[field]), sections.get(section, text))
        for field, (section, instruction) in SEMANTIC.items()
        if wanted[field]
    ]
    if scorer.label != RuleBasedScorer.label:
        whole = "\n".join(line for field in ("claims", "facts", "reasons", "evidence") for line in wanted[field])
        criteria.append(Criterion("complaint.professionalism", PROFESSIONALISM, whole, text))
    ratings = scorer.rate(criteria, reference.language)
    rated = {criterion.id.split(".", 1)[1]: ratings[criterion.id].score / 10 for criterion in criteria}
    return dict.fromkeys(SEMANTIC, 1.0) | rated


def _professionalism(text: str, reference: ReferenceComplaint) -> float:
    """Offline: the share of the reference's legal terms (``LEGAL_TERMS`` and the articles it
    cites) the complaint uses, times the share of its sentences without a colloquial word."""
    if not text.strip():
        return 0.0
    language = "zh" if reference.language == "zh" else "en"
    said = normalise(text)
    whole = normalise(" ".join([*reference.claims, *reference.facts, *reference.reasons, *reference.evidence]))
    lexicon = [term for term in LEGAL_TERMS[language] if _uses(term, whole, language)] or LEGAL_TERMS[language][:2]
    used = sum(1 for term in lexicon if _uses(term, said, language))
    cited = article_citations(whole)
    share = (used + len(cited & article_citations(said))) / (len(lexicon) + len(cited))
    colloquial = re.compile(COLLOQUIAL[language], re.IGNORECASE)
    written = sentences(text) or [text]
    plain = sum(1 for sentence in written if not colloquial.search(normalise(sentence)))
    return share * plain / len(written)


def _uses(term: str, text: str, language: str) -> bool:
    return term in text if language == "zh" else re.search(rf"\b{term}", text) is not None


def trial_complaint(state: TrialState, scorer: Scorer) -> dict[str, Any] | None:
    """The CD complaint of a civil trial scored for the plaintiff's side: None when the
    scorecard is the defendant's, the case has no reference complaint, or CD has not closed;
    a CD closed without a complaint scores it empty."""
    if state.procedure != "civil" or state.target_side != "plaintiff" or "CD" not in state.stage_history:
        return None
    reference = reference_complaint(state.case)
    drafted = next((each for each in state.artifacts if each.stage == "CD" and each.kind == "complaint"), None)
    closed = state.finished or state.stage_history[-1] != "CD"
    if reference is None or (drafted is None and not closed):
        return None
    return complaint_score(drafted.text if drafted else "", reference, scorer)


def complaint_table(rows: list[tuple[str, dict[str, Any]]]) -> str:
    """A row per scored complaint (its label, then every field, standardability and
    professionalism in [0,1]), and their mean."""
    columns = [*FIELDS, "standardability", "professionalism"]
    heads = ["plaintiff", "defendant", "facts", "reasons", "claims", "evidence", "standard", "profess."]
    lines = [f"{'':<32}" + "".join(f"{head:>11}" for head in heads)]
    values = [[{**score["fields"], **score}[column] for column in columns] for _label, score in rows]
    for (label, _score), cells in zip(rows, values, strict=True):
        lines.append(f"{label[:31]:<32}" + "".join(f"{cell:>11.2f}" for cell in cells))
    if len(rows) > 1:
        means = [sum(column) / len(column) for column in zip(*values, strict=True)]
        lines.append(f"{'mean':<32}" + "".join(f"{cell:>11.2f}" for cell in means))
    return "\n".join(lines)
