"""A civil complaint read as MASER's template (Multi-Agent Simulator Drives Language Models for
Legal Intensive Interaction, arXiv 2502.06882, §3 "Goal Evaluation" and Appendix B.2): its
sections by heading, in the case's language, and a party's particulars (name, gender, birth
date, ethnicity, address) read from a line of it or from the case file's ``details``.

The template (docs/complaint-scoring.md): 原告 / 被告 particulars, 诉讼请求, 事实与理由,
证据和证据来源, 此致 (the court), 具状人 and date; in English Plaintiff, Defendant, Claims,
Facts and reasons, Evidence, To (the court), signature and date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from court.legaltext.text import normalise

SECTIONS = ("plaintiff", "defendant", "claims", "facts_and_reasons", "evidence", "court", "signature")
"""The template's sections, in the order a complaint sets them out."""
PARTY_COLON = r"(?:[一二三四五六七八九十\d]*)\s*(?:[（(][^）)]*[）)])?\s*[：:]"
HEADINGS = {
    "zh": {
        "plaintiff": rf"原告{PARTY_COLON}",
        "defendant": rf"被告{PARTY_COLON}",
        "claims": r"诉讼请求",
        "facts_and_reasons": r"事实(?:与|和|及)理由",
        "evidence": r"证据(?:和|与|及)?(?:证据)?来源|证据清单|证据",
        "court": r"此致",
        "signature": r"具状人|起诉人|\d{4}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日$",
    },
    "en": {
        "plaintiff": r"plaintiffs?\s*[:：]",
        "defendant": r"defendants?\s*[:：]",
        "claims": r"claims(?: for relief)?|prayer for relief|relief sought",
        "facts_and_reasons": r"facts and (?:reasons|grounds)",
        "evidence": r"evidence(?: and (?:its )?sources?)?|evidence list",
        "court": r"to(?=[:：]|\s+the\b)|court addressed",
        "signature": r"complainant|signed|signature|date\s*[:：]|\d{1,2} [a-z]+ \d{4}$|[a-z]+ \d{1,2}, \d{4}$",
    },
}
"""A heading starts a line (after a list mark or Markdown emphasis); the rest of the line after
a colon belongs to its section. A party's heading needs its colon (原告：, Plaintiff:), so a
sentence of the facts that starts with 被告 starts no section."""
LINE_START = r"^[\s#*>]*(?:[一二三四五六七八九十]+、|\d+[.、)])?[\s*]*"
SEPARATOR = r"[\s*]*(?:[（(][^）)]*[）)])?[\s*]*(?:[：:]\s*|$)"
"""After a section's own heading: a gloss in brackets, then a colon or the end of the line
(证据显示…, "Claims that…" start no section)."""
OWN_END = ("plaintiff", "defendant", "court", "signature")
"""Headings whose pattern says itself where it ends."""


@dataclass(frozen=True)
class Complaint:
    """A complaint's sections by id: those whose heading it has (a heading over nothing holds
    ""), and the order their headings first appear in."""

    sections: dict[str, str]
    order: list[str]


def complaint_read(text: str, language: str) -> Complaint:
    """The sections of ``text``: a line with a heading starts that section (a second heading of
    the same section continues it, as for a second plaintiff); text before the first heading
    belongs to none."""
    patterns = _patterns(language)
    bodies: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in (text or "").splitlines():
        for section, pattern in patterns:
            if match := pattern.match(line):
                current = bodies.setdefault(section, [])
                line = _rest(line, match, section)
                break
        if current is not None and line.strip():
            current.append(line.strip())
    return Complaint({section: "\n".join(lines) for section, lines in bodies.items()}, list(bodies))


def _patterns(language: str) -> list[tuple[str, re.Pattern[str]]]:
    headings = HEADINGS["zh" if language == "zh" else "en"]
    return [
        (
            section,
            re.compile(
                LINE_START + rf"(?:{headings[section]})" + (r"\s*" if section in OWN_END else SEPARATOR), re.IGNORECASE
            ),
        )
        for section in SECTIONS
    ]


def _rest(line: str, match: re.Match[str], section: str) -> str:
    """What follows a heading on its line; a signature's or a court's line is its own body
    (具状人：陈某某, To the Chaoyang District People's Court)."""
    if section == "signature" or (section == "court" and "此致" not in match.group(0)):
        return line
    return line[match.end() :]


def in_template_order(order: list[str]) -> int:
    """How many of the sections found stand in the template's order: the longest run of them,
    as found, that is increasing in the template (a longest increasing subsequence)."""
    ranks = [SECTIONS.index(section) for section in order]
    best: list[int] = []
    for index, rank in enumerate(ranks):
        best.append(1 + max((best[earlier] for earlier in range(index) if ranks[earlier] < rank), default=0))
    return max(best, default=0)


# --- particulars ------------------------------------------------------------------------------

PARTICULARS = ("name", "gender", "birth_date", "ethnicity", "address")
ZH_GENDER = {"男": "male", "女": "female"}
EN_MONTHS = "january february march april may june july august september october november december".split()


def particulars(name: str, details: str, language: str) -> dict[str, str]:
    """The particulars of a party named ``name`` that ``details`` gives, normalised so that
    the same fact written the same way compares equal (男 and "male" alike, 1979年3月出生 as
    1979-03)."""
    text = normalise(details)
    found = {"name": normalise(name)}
    readers = _ZH_READERS if language == "zh" else _EN_READERS
    for field, reader in readers.items():
        if value := reader(text):
            found[field] = value
    return found


def _zh_gender(text: str) -> str:
    match = re.search(r"(?:^|[，,、;；\s]|性别[：:]?)([男女])(?=[，,、;；。\s]|性|$)", text)
    return ZH_GENDER[match.group(1)] if match else ""


def _zh_birth(text: str) -> str:
    """The birth date: a date where the entry says 出生 or 生于 or ends a date with 生, or a
    whole date standing alone between commas, as MASER's complaints give it (``男，1970年3月17日，汉族``;
    ``1969年XX月XX日`` a year)."""
    alone = re.search(
        r"(?:^|[，,、;；])\s*(\d{4})年(?:(\d{1,2})|xx)月(?:(?:(\d{1,2})|xx)日)?\s*(?=[，,、;；。]|$)", text
    )
    match = re.search(r"(?:出生于|生于)?(\d{4})\s*[年\-/.]\s*(?:(\d{1,2})\s*[月\-/.]\s*(?:(\d{1,2})\s*日?)?)?", text)
    if not re.search(r"出生|生于|生[，,。]|生$", text):
        match = alone
    if not match:
        return ""
    return _date(match.group(1), match.group(2), match.group(3))


def _zh_ethnicity(text: str) -> str:
    match = re.search(r"(?:^|[，,、;；\s]|民族[：:]?)([\u4e00-\u9fff]{1,4}族)(?=[，,、;；。\s]|$)", text)
    return match.group(1) if match else ""


def _zh_address(text: str) -> str:
    match = re.search(r"(?:住所地|住址|住所|地址|住)[：:]?\s*([^，,;；。\n]+)", text)
    return match.group(1).strip() if match else ""


def _en_gender(text: str) -> str:
    match = re.search(r"\b(male|female|man|woman)\b", text)
    return {"man": "male", "woman": "female"}.get(match.group(1), match.group(1)) if match else ""


def _en_birth(text: str) -> str:
    match = re.search(r"\bborn(?: on| in)?\s+([^,;\n]+)", text)
    if not match:
        return ""
    when = match.group(1)
    year = re.search(r"\b(\d{4})\b", when)
    if not year:
        return ""
    numeric = re.search(r"(\d{4})-(\d{1,2})(?:-(\d{1,2}))?", when)
    if numeric:
        return _date(*numeric.groups())
    month = next((str(index + 1) for index, name in enumerate(EN_MONTHS) if name in when), None)
    day = re.search(r"\b(\d{1,2})\b", when) if month else None
    return _date(year.group(1), month, day.group(1) if day else None)


def _en_ethnicity(text: str) -> str:
    match = re.search(r"\b(\w+) (?:ethnicity|ethnic group|nationality)\b|\bethnicity:?\s+(\w+)", text)
    return (match.group(1) or match.group(2)) if match else ""


def _en_address(text: str) -> str:
    match = re.search(r"\b(?:resident in|residing (?:in|at)|domiciled in|address:?|lives in)\s+([^,;\n]+)", text)
    return match.group(1).strip(" .") if match else ""


def _date(year: str, month: str | None, day: str | None) -> str:
    parts = [year] + [f"{int(part):02d}" for part in (month, day) if part]
    return "-".join(parts if month else [year])


_ZH_READERS = {"gender": _zh_gender, "birth_date": _zh_birth, "ethnicity": _zh_ethnicity, "address": _zh_address}
_EN_READERS = {"gender": _en_gender, "birth_date": _en_birth, "ethnicity": _en_ethnicity, "address": _en_address}
