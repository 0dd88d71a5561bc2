"""MASER's released evaluation cases as case-format records, for ``import_cases --format maser``
(MASER §2.1 and Appendix A, docs/sources.md; docs/case-format.md, "MASER's files").

The file is one JSON list; each record holds ``id``, ``case_r_f`` (the case's facts),
``plaintiff`` and ``defendant`` (their particulars), ``law_level`` (the client's legal sense,
level 1-5), ``personality`` (Big-5 traits in words), ``speak_style`` (``tone``, ``content``,
``interaction``), ``less`` (the detail the client leaves out until asked), ``evidence`` (a list,
the plaintiff's, or an object by side), ``claim``, ``law_reason`` (the cause of action) and
``output`` (the reference complaint). Record ``id`` N becomes case ``maser-N``; the client is
the plaintiff. ``output`` is kept in ``extra.maser`` beside every field the case format has no
place for: no visibility rule reads ``extra``, so it stays evaluation-only.
"""

from __future__ import annotations

import re
from typing import Any

from court.agenda import AGENDA
from legalsim.json_input import Problem, Record
from trials.caselibrary.case_file import BIG5_TRAITS, validate_record

_MAPPED = ("id", "case_r_f", "plaintiff", "defendant", "law_level", "personality", "speak_style", "less")
_MAPPED += ("evidence", "claim", "law_reason")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LABEL = re.compile(r"^\s*(?:原告|被告|plaintiff|defendant)\s*[:：]?\s*", re.IGNORECASE)
_NAME_END = re.compile(r"[，,（(；;:：\n]")
_ORGANISATION = re.compile(r"公司|有限|厂|银行|合作社|中心|委员会|\b(?:company|ltd|inc|llc|bank)\b", re.IGNORECASE)
_LEVEL = re.compile(r"[1-5]")
_TRAIT_WORDS = {
    "extraversion": ("外向", "extraversion"),
    "emotional_stability": ("情绪稳定", "emotional stability"),
    "openness": ("开放", "openness"),
    "agreeableness": ("宜人", "agreeableness"),
    "conscientiousness": ("尽责", "conscientiousness"),
}
_LEVEL_WORDS = {"high": ("高", "high"), "medium": ("中", "medium"), "low": ("低", "low")}
ASKING_WORDS = tuple(word for item in AGENDA if item.key in ("client", "facts", "evidence") for word in item.words)
"""The legal agenda's words for particulars, facts and evidence (court/agenda.py): found in a
withheld detail, they are what a lawyer asking about it says; a detail that holds none is asked
about by its first words."""


def maser_record(record: Record, path: str) -> dict | None:
    """The case-format record of one MASER case, validated as ``import_cases`` validates case
    files; None with every problem (named by the MASER field) otherwise."""
    data = record.data
    if not isinstance(data, dict):
        record.problems.append(Problem(path, record.line, "record", "must be a JSON object (one MASER case)"))
        return None
    problems = _missing(data)
    for field, message in problems:
        record.problems.append(Problem(path, record.line, field, message))
    if problems:
        return None
    mapped = Record(record.line, _case(data), "")
    case = validate_record(mapped, path)
    record.problems.extend(mapped.problems)
    return case


def _missing(data: dict) -> list[tuple[str, str]]:
    problems = [
        (field, "is required and must be a non-empty string")
        for field in ("case_r_f", "plaintiff", "defendant", "law_reason")
        if not _text(data.get(field))
    ]
    if not isinstance(data.get("id"), int | str) or isinstance(data.get("id"), bool) or str(data["id"]).strip() == "":
        problems.append(("id", "is required: a number or a string"))
    if data.get("law_level") is not None and not _LEVEL.search(str(data["law_level"])):
        problems.append(("law_level", "must name a legal-sense level from 1 to 5"))
    if not _claims(data.get("claim")):
        problems.append(("claim", "is required: the plaintiff's claims, a string or a list of strings"))
    return problems


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return "，".join(str(item) for item in value.values() if item)
    return value.strip() if isinstance(value, str) else ""


def _claims(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(item).strip() for item in value if str(item).strip()]
    lines = re.split(r"\n+|(?<=[。；;])\s*(?=\d+[.、．])", _text(value))
    return [re.sub(r"^\d+[.、．]\s*", "", line).strip() for line in lines if line.strip()]


def _party(side: str, value: Any) -> dict:
    details = _text(value)
    name = (value.get("name") or value.get("姓名")) if isinstance(value, dict) else None
    name = str(name or _NAME_END.split(_LABEL.sub("", details), 1)[0]).strip()[:100] or side
    kind = "organization" if _ORGANISATION.search(name) else "person"
    return {"side": side, "name": name, "kind": kind, "details": details}


def _evidence(value: Any) -> list[dict]:
    by_side = value if isinstance(value, dict) else {"plaintiff": value}
    items = []
    for side, listed in by_side.items():
        if side not in ("plaintiff", "defendant"):
            continue
        for name in listed if isinstance(listed, list) else _claims(listed):
            if str(name).strip():
                items.append({"side": side, "name": str(name).strip()[:300], "purpose": ""})
    return items


def _big5(personality: str) -> dict[str, str]:
    """The Big-5 levels the personality text names (``外向性：高``, ``extraversion: low``)."""
    found = {}
    for trait, words in _TRAIT_WORDS.items():
        for word in words:
            match = re.search(re.escape(word) + r"[^，,；;。.\n]{0,6}?(高|中|低|high|medium|low)", personality, re.I)
            if match:
                level = match.group(1).lower()
                found[trait] = next(name for name, names in _LEVEL_WORDS.items() if level in names)
                break
    return {trait: found[trait] for trait in BIG5_TRAITS if trait in found}


def withheld_item(detail: str) -> dict:
    """A MASER distractor as a withheld detail, with the words that count as asking about it."""
    lowered = detail.lower()
    asked_by = [word for word in ASKING_WORDS if word in lowered]
    if not asked_by:
        asked_by = [detail[:4]] if _CJK.search(detail) else detail.split()[:2]
    return {"detail": detail, "mode": "omit", "asked_by": asked_by}


def _persona(data: dict) -> dict:
    persona: dict[str, Any] = {}
    big5 = _big5(_text(data.get("personality")))
    if big5:
        persona["big5"] = big5
    if data.get("law_level") is not None:
        persona["legal_sense"] = int(_LEVEL.search(str(data["law_level"])).group(0))
    style = _text(data.get("speak_style")) or _text(data.get("personality"))
    if style:
        persona["speaking_style"] = style[:2000]
    if _text(data.get("less")):
        persona["withheld"] = [withheld_item(_text(data["less"]))]
    return persona


def _case(data: dict) -> dict:
    facts = _text(data["case_r_f"])
    zh = bool(_CJK.search(facts))
    plaintiff, defendant = _party("plaintiff", data["plaintiff"]), _party("defendant", data["defendant"])
    cause = _text(data["law_reason"])[:200]
    title = (
        f"{plaintiff['name']}诉{defendant['name']}{cause}"
        if zh
        else f"{plaintiff['name']} v. {defendant['name']} ({cause})"
    )
    persona = _persona(data)
    return {
        "id": f"maser-{str(data['id']).strip()}",
        "procedure": "civil",
        "title": title[:300],
        "language": "zh" if zh else "en",
        "cause_of_action": cause,
        "parties": [plaintiff, defendant],
        "first_instance": {
            "claims": _claims(data["claim"]),
            "facts_and_reasons": facts,
            "evidence": _evidence(data.get("evidence") or []),
        },
        **({"personas": {"plaintiff": persona}} if persona else {}),
        "provenance": {"source": "MASER evaluation set", "real_outcome": False},
        "maser": {key: value for key, value in data.items() if key not in _MAPPED},
    }
