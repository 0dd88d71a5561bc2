"""The documents a stage closes with: their titles and sections, in both languages.

One place for the rule: LLM agents are told the sections in this order (prompts), the
exporter tool assembles them, and a person writing the document in the trial room gets
one field per section and the same assembly.

A section may hold a case field (a complaint's evidence list holds the plaintiff's
evidence): the visibility matrix then decides who reads that section of the filed
document, as it decides who reads the field (``document_without``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Section:
    id: str
    zh: str
    en: str
    aliases: tuple[str, ...] = ()
    """Other headings the section goes by in practice (判决如下 for a judgment's orders)."""
    holds: str | None = None
    """The case field the section's body sets out (``evidence`` for an evidence list): a seat
    that may not read the field yet reads the document without it."""


@dataclass(frozen=True)
class DocumentTemplate:
    zh_title: str
    en_title: str
    sections: tuple[Section, ...]

    def title(self, language: str) -> str:
        return self.zh_title if language == "zh" else self.en_title

    def headings(self, language: str) -> list[tuple[str, str]]:
        """Each section's id and the heading it goes under, in the editor and in the filed
        document: 当事人 / Parties."""
        return [(section.id, section.zh if language == "zh" else section.en) for section in self.sections]

    def listing(self, language: str) -> str:
        """The sections as one phrase, for a prompt: 当事人、诉讼请求… / parties, claims, …"""
        if language == "zh":
            return "、".join(heading for _id, heading in self.headings(language))
        return ", ".join(heading[:1].lower() + heading[1:] for _id, heading in self.headings(language))


def _sections(*triples: tuple) -> tuple[Section, ...]:
    return tuple(Section(*triple) for triple in triples)


ORDERS_ALIASES = ("判决如下", "The court orders", "It is ordered")
EVIDENCE_ALIASES = ("证据清单", "证据", "Evidence", "Evidence list")
SIGNATURE_ALIASES = ("起诉人", "Signed", "Signature")
"""A civil complaint ends as 民事起诉状 does (Civil Procedure Law art. 124: the evidence and
its sources; then 此致 the court, 具状人 and the date): the evidence and what each item
proves, the court addressed, the complainant's name and the date on the lines below."""


DOCUMENTS: dict[str, DocumentTemplate] = {
    "consultation_record": DocumentTemplate(
        "法律咨询记录",
        "Consultation record",
        _sections(
            ("client", "咨询人", "Client"),
            ("questions", "咨询事项", "Questions raised"),
            ("advice", "律师意见", "Advice"),
            ("next_steps", "后续安排", "Next steps"),
        ),
    ),
    "complaint": DocumentTemplate(
        "民事起诉状",
        "Civil complaint",
        _sections(
            ("parties", "当事人", "Parties"),
            ("claims", "诉讼请求", "Claims"),
            ("facts_and_reasons", "事实与理由", "Facts and reasons"),
            ("evidence", "证据和证据来源", "Evidence and sources", EVIDENCE_ALIASES, "evidence"),
            ("court", "此致", "Court addressed", ("To", "此致法院")),
            ("signature", "具状人", "Complainant", SIGNATURE_ALIASES),
        ),
    ),
    "defence": DocumentTemplate(
        "民事答辩状",
        "Statement of defence",
        _sections(
            ("parties", "答辩人", "Parties"),
            ("response_to_claims", "答辩意见", "Response to each claim"),
            ("facts_and_reasons", "事实与理由", "Facts and reasons"),
            ("court", "此致法院", "Court addressed", ("To", "此致")),
        ),
    ),
    "first_instance_judgment": DocumentTemplate(
        "民事判决书（一审）",
        "Civil judgment (first instance)",
        _sections(
            ("parties", "当事人", "Parties"),
            ("claims", "诉讼请求", "Claims"),
            ("facts_found", "本院查明", "Facts found"),
            ("reasoning", "本院认为", "Reasoning"),
            ("legal_basis", "法律依据", "Legal basis"),
            ("orders", "判决主文", "Orders", ORDERS_ALIASES),
        ),
    ),
    "mediation_record": DocumentTemplate(
        "民事调解书",
        "Mediation agreement",
        _sections(
            ("parties", "当事人", "Parties"),
            ("terms", "调解协议内容", "Agreed terms"),
            ("effect", "生效条款", "Effect"),
        ),
    ),
    "appeal": DocumentTemplate(
        "民事上诉状",
        "Notice of appeal",
        _sections(
            ("appellant", "上诉人", "Appellant"),
            ("appellee", "被上诉人", "Appellee"),
            ("appeal_requests", "上诉请求", "Appeal requests"),
            ("grounds", "上诉理由", "Grounds"),
            ("new_evidence", "新证据", "New evidence"),
        ),
    ),
    "appeal_response": DocumentTemplate(
        "二审答辩状",
        "Response to appeal",
        _sections(
            ("respondent", "答辩人", "Respondent"),
            ("response_to_grounds", "针对上诉请求的答辩意见", "Answer to each ground"),
            ("relief_sought", "请求", "Relief sought"),
        ),
    ),
    "second_instance_judgment": DocumentTemplate(
        "民事判决书（二审）",
        "Civil judgment (second instance)",
        _sections(
            ("parties", "当事人", "Parties"),
            ("appeal_requests", "上诉请求", "Appeal requests"),
            ("facts_found", "本院查明", "Facts found"),
            ("reasoning", "本院认为", "Reasoning"),
            ("legal_basis", "法律依据", "Legal basis"),
            (
                "orders",
                "判决主文（维持、改判、撤销发回或变更）",
                "Orders (affirm, vary, set aside and remand)",
                ORDERS_ALIASES,
            ),
        ),
    ),
    "criminal_judgment": DocumentTemplate(
        "刑事判决书",
        "Criminal judgment",
        _sections(
            ("prosecution", "公诉机关", "Prosecution"),
            ("defendant", "被告人", "Defendant"),
            ("facts_found", "经审理查明", "Facts found"),
            ("reasoning", "本院认为", "Reasoning"),
            ("legal_basis", "法律依据", "Legal basis"),
            ("orders", "判决主文（罪名和刑罚）", "Orders (offence and sentence)", ORDERS_ALIASES),
        ),
    ),
    "trial_record": DocumentTemplate(
        "庭审笔录",
        "Trial record",
        _sections(
            ("cause", "案由", "Cause"),
            ("attendance", "到庭人员", "Attendance"),
            ("proceedings", "庭审经过摘要", "Summary of proceedings"),
            ("pronouncement", "宣判情况", "Pronouncement"),
        ),
    ),
}


def document_title(kind: str, language: str) -> str:
    """The title a document of ``kind`` goes by when its author gave none (a model's empty
    first line), in the case's language; a kind with no template keeps its id."""
    template = DOCUMENTS.get(kind)
    return template.title(language) if template else kind


def document_compose(kind: str, language: str, sections: dict[str, str], *, with_title: bool = True) -> str:
    """The document from its sections, in the template's order, each under its heading;
    empty and unknown sections are left out."""
    template = DOCUMENTS[kind]
    blocks = [template.title(language)] if with_title else []
    for section_id, heading in template.headings(language):
        body = str(sections.get(section_id, "")).strip()
        if body:
            blocks.append(f"{heading}\n{body}")
    return "\n\n".join(blocks)


def document_missing(kind: str, sections: dict[str, str]) -> list[str]:
    return [section.id for section in DOCUMENTS[kind].sections if not str(sections.get(section.id, "")).strip()]


def document_sections(text: str, kind: str) -> dict[str, str]:
    """The non-empty sections of a written document of template ``kind``, by section id: a
    line that is a section's heading (zh, en or an alias) starts it, text after a colon on
    that line included; text before the first heading belongs to no section."""
    bodies: dict[str, list[str]] = {}
    for line in _lines(text, kind):
        if line.section is not None and line.body.strip():
            bodies.setdefault(line.section, []).append(line.body.strip())
    return {section_id: "\n".join(lines) for section_id, lines in bodies.items()}


WITHHELD_NOTE = {
    "evidence": ("（证据于庭审举证质证时出示。）", "(Presented at the evidence phase of the hearing.)"),
}
"""What a reader who may not read a held field yet finds under its section's heading."""


def document_without(kind: str, text: str, fields: set[str], language: str) -> str:
    """``text`` with the body of every section that holds one of ``fields`` replaced by a
    note (its heading kept): the filed complaint as the defendant reads it before the
    evidence phase (LegalWorld, Table 5). A kind with no such section is returned as is."""
    template = DOCUMENTS.get(kind)
    sections = template.sections if template else ()
    hidden = {section.id: section.holds for section in sections if section.holds and section.holds in fields}
    if not hidden:
        return text
    kept: list[str] = []
    for line in _lines(text, kind):
        if line.section not in hidden or not line.text.strip():
            kept.append(line.text)
        elif line.heading:
            zh, en = WITHHELD_NOTE.get(hidden[line.section], ("", ""))
            kept += [line.heading.rstrip(" ：:，,"), zh if language == "zh" else en]
    return "\n".join(kept)


@dataclass(frozen=True)
class _Line:
    text: str
    section: str | None
    """The section the line belongs to (None before the first heading)."""
    heading: str
    """The heading it starts its section with, on a heading line ("" on any other)."""
    body: str
    """What of the line is the section's text."""


def _lines(text: str, kind: str) -> list[_Line]:
    patterns = _heading_patterns(kind)
    lines: list[_Line] = []
    current: str | None = None
    for line in (text or "").splitlines():
        heading, body = "", line
        for section_id, pattern in patterns:
            if match := pattern.match(line):
                current, body = section_id, match["rest"] or ""
                heading = line[: match.start("rest")] if match["rest"] is not None else line
                break
        lines.append(_Line(line, current, heading, body))
    return lines


@cache
def _heading_patterns(kind: str) -> list[tuple[str, re.Pattern[str]]]:
    """One pattern per section: its headings without the parenthetical gloss
    (判决主文（维持、改判…） → 判决主文), at the start of a line (a list mark or Markdown
    emphasis allowed), alone or before a colon."""
    patterns = []
    for section in DOCUMENTS[kind].sections:
        headings = (section.zh, section.en, *section.aliases)
        names = "|".join(re.escape(re.split(r"[（(]", heading)[0].strip()) for heading in headings)
        patterns.append(
            (
                section.id,
                re.compile(
                    rf"^[\s#*>]*(?:[一二三四五六七八九十]+、|\d+[.、)])?[\s*]*(?:{names})[\s*]*"
                    rf"(?:[（(][^）)]*[）)])?[\s*]*(?:[：:，,]\s*(?P<rest>.*))?$",
                    re.IGNORECASE,
                ),
            )
        )
    return patterns
