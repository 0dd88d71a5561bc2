"""The documents a stage closes with: their titles and sections, in both languages.

One place for the rule: LLM agents are told the sections in this order (prompts), the
exporter tool assembles them, and a person writing the document in the trial room gets
one field per section and the same assembly.
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


@dataclass(frozen=True)
class DocumentTemplate:
    zh_title: str
    en_title: str
    sections: tuple[Section, ...]

    def title(self, language: str) -> str:
        return self.zh_title if language == "zh" else self.en_title

    def headings(self, language: str) -> list[tuple[str, str]]:
        return [(section.id, section.zh if language == "zh" else section.en) for section in self.sections]

    def listing(self, language: str) -> str:
        """The sections as one phrase, for a prompt: 当事人、诉讼请求… / parties, claims, …"""
        names = [heading for _id, heading in self.headings(language)]
        return "、".join(names) if language == "zh" else ", ".join(names)


def _sections(*triples: tuple) -> tuple[Section, ...]:
    return tuple(Section(*triple) for triple in triples)


ORDERS_ALIASES = ("判决如下", "The court orders", "It is ordered")


DOCUMENTS: dict[str, DocumentTemplate] = {
    "consultation_record": DocumentTemplate(
        "法律咨询记录",
        "Consultation record",
        _sections(
            ("client", "咨询人", "client"),
            ("questions", "咨询事项", "questions raised"),
            ("advice", "律师意见", "advice"),
            ("next_steps", "后续安排", "next steps"),
        ),
    ),
    "complaint": DocumentTemplate(
        "民事起诉状",
        "Civil complaint",
        _sections(
            ("parties", "当事人", "parties"),
            ("claims", "诉讼请求", "claims"),
            ("facts_and_reasons", "事实与理由", "facts and reasons"),
            ("court", "此致法院", "court addressed", ("To", "此致")),
        ),
    ),
    "defence": DocumentTemplate(
        "民事答辩状",
        "Statement of defence",
        _sections(
            ("parties", "答辩人", "parties"),
            ("response_to_claims", "答辩意见", "response to each claim"),
            ("facts_and_reasons", "事实与理由", "facts and reasons"),
            ("court", "此致法院", "court addressed", ("To", "此致")),
        ),
    ),
    "first_instance_judgment": DocumentTemplate(
        "民事判决书（一审）",
        "Civil judgment (first instance)",
        _sections(
            ("parties", "当事人", "parties"),
            ("claims", "诉讼请求", "claims"),
            ("facts_found", "本院查明", "facts found"),
            ("reasoning", "本院认为", "reasoning"),
            ("legal_basis", "法律依据", "legal basis"),
            ("orders", "判决主文", "orders", ORDERS_ALIASES),
        ),
    ),
    "mediation_record": DocumentTemplate(
        "民事调解书",
        "Mediation agreement",
        _sections(
            ("parties", "当事人", "parties"),
            ("terms", "调解协议内容", "agreed terms"),
            ("effect", "生效条款", "effect"),
        ),
    ),
    "appeal": DocumentTemplate(
        "民事上诉状",
        "Notice of appeal",
        _sections(
            ("appellant", "上诉人", "appellant"),
            ("appellee", "被上诉人", "appellee"),
            ("appeal_requests", "上诉请求", "appeal requests"),
            ("grounds", "上诉理由", "grounds"),
            ("new_evidence", "新证据", "new evidence"),
        ),
    ),
    "appeal_response": DocumentTemplate(
        "二审答辩状",
        "Response to appeal",
        _sections(
            ("respondent", "答辩人", "respondent"),
            ("response_to_grounds", "针对上诉请求的答辩意见", "answer to each ground"),
            ("relief_sought", "请求", "relief sought"),
        ),
    ),
    "second_instance_judgment": DocumentTemplate(
        "民事判决书（二审）",
        "Civil judgment (second instance)",
        _sections(
            ("parties", "当事人", "parties"),
            ("appeal_requests", "上诉请求", "appeal requests"),
            ("facts_found", "本院查明", "facts found"),
            ("reasoning", "本院认为", "reasoning"),
            ("legal_basis", "法律依据", "legal basis"),
            (
                "orders",
                "判决主文（维持、改判、撤销发回或变更）",
                "orders (affirm, vary, set aside and remand)",
                ORDERS_ALIASES,
            ),
        ),
    ),
    "criminal_judgment": DocumentTemplate(
        "刑事判决书",
        "Criminal judgment",
        _sections(
            ("prosecution", "公诉机关", "prosecution"),
            ("defendant", "被告人", "defendant"),
            ("facts_found", "经审理查明", "facts found"),
            ("reasoning", "本院认为", "reasoning"),
            ("legal_basis", "法律依据", "legal basis"),
            ("orders", "判决主文（罪名和刑罚）", "orders (offence and sentence)", ORDERS_ALIASES),
        ),
    ),
    "trial_record": DocumentTemplate(
        "庭审笔录",
        "Trial record",
        _sections(
            ("cause", "案由", "cause"),
            ("attendance", "到庭人员", "attendance"),
            ("proceedings", "庭审经过摘要", "summary of proceedings"),
            ("pronouncement", "宣判情况", "pronouncement"),
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
    patterns = _heading_patterns(kind)
    bodies: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in (text or "").splitlines():
        for section_id, pattern in patterns:
            if match := pattern.match(line):
                current = bodies.setdefault(section_id, [])
                line = match["rest"] or ""
                break
        if current is not None and line.strip():
            current.append(line.strip())
    return {section_id: "\n".join(lines) for section_id, lines in bodies.items() if lines}


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
