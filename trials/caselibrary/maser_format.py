"""MASER's released evaluation cases as case-format records, for ``import_cases --format maser``
(MASER §2.1 and Appendix A, docs/sources.md; docs/case-format.md, "MASER's files").

The released file (``src/evaluation/evaluate_data/evaluate_data.json``) is one JSON list; each
record holds an integer ``id``, ``case_r_f`` (the case's facts), ``plaintiff`` and ``defendant``
(``身份：原告，姓名：…，性别：…`` entries, one per party, ``身份：被告2`` starting the next),
``law_level`` (the client's legal sense as one of Appendix A's five descriptions),
``personality``, ``speak_style`` (an object: ``tone``, ``content``, ``interaction``), ``less``
(the particular the client leaves out until asked), ``evidence`` (an object by side:
``{"原告": [...]}``), ``claim`` (an object: ``非诉讼费用内容``, the claims, and ``诉讼费用内容``,
the costs claim), ``law_reason`` (the cause of action) and ``output`` (the reference complaint,
naming the claims by ``claim``'s keys). Record ``id`` N becomes case ``maser-N``; the client is
the plaintiff. ``output`` and ``claim`` are kept in ``extra.maser`` beside every field the case
format has no place for: no visibility rule reads ``extra``, so they stay evaluation-only.
"""

from __future__ import annotations

import re
from typing import Any

from court.agenda import AGENDA
from legalsim.json_input import Problem, Record
from trials.caselibrary.case_file import BIG5_TRAITS, validate_record

_MAPPED = ("id", "case_r_f", "plaintiff", "defendant", "law_level", "personality", "speak_style", "less")
_MAPPED += ("evidence", "law_reason")
LEGAL_SENSE = (
    "完全缺乏法律知识，不会使用任何法律相关的术语，例如“权利”、“义务”等，回答侧重于事件的直白描述。",
    "了解简单法律常识，知道基本的法律词汇，如“诉讼”、“违约”，但不理解这些术语的具体含义，回答尝试涉及法律，"
    "但会出现使用不当的情况，依然以叙述具体情况为主。",
    "了解基础法律常识，能够正确使用日常中的的法律术语和表达，如“合同条款”、“诉讼”等，回答过程会结合法律术语来描述。",
    "熟悉基本的法律术语，能够准确地使用较为复杂的法律术语和概念，如“诉讼权”、“强制执行”。",
    "精通法律常识，熟悉一些基础法律条款，能够详细地描述法律问题，还能提出自己对案件可能有利的法律策略或辩护点。",
)
"""MASER Appendix A.3's five legal-sense levels, 1 to 5, as the released file words them."""
COSTS_CLAIM, CLAIMS = "诉讼费用内容", "非诉讼费用内容"
"""The keys of a released ``claim`` object: the costs claim and the other claims."""
SIDE_KEYS = {"plaintiff": ("plaintiff", "原告"), "defendant": ("defendant", "被告")}
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LABEL = re.compile(r"^\s*(?:原告|被告|plaintiff|defendant)\s*[:：]?\s*", re.IGNORECASE)
_NAME_END = re.compile(r"[，,（(；;:：\n]")
_ORGANISATION = re.compile(r"公司|有限|厂|银行|合作社|中心|委员会|\b(?:company|ltd|inc|llc|bank)\b", re.IGNORECASE)
_LEVEL = re.compile(r"^\s*(?:level\s*)?([1-5])\b", re.IGNORECASE)
_ENTRY = re.compile(r"身份[：:]")
_PAIR = re.compile(r"([^，,：:]+)[：:]([^，,]*)")
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
    if data.get("law_level") is not None and legal_sense(data["law_level"]) is None:
        levels = " ".join(f"{level}: {text}" for level, text in enumerate(LEGAL_SENSE, 1))
        problems.append(("law_level", f"must be one of MASER Appendix A's five legal-sense levels ({levels})"))
    if not _claims(data.get("claim")):
        problems.append(("claim", f"is required: the plaintiff's claims, an object ({CLAIMS}, {COSTS_CLAIM}) or text"))
    problems += _party_problems(data)
    return problems


def legal_sense(value: Any) -> int | None:
    """The level 1-5 a ``law_level`` names: one of Appendix A's five descriptions (whitespace
    aside), or the level's number; None when it names none."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if 1 <= value <= 5 else None
    if not isinstance(value, str):
        return None
    words = re.sub(r"\s+", "", value)
    for level, text in enumerate(LEGAL_SENSE, 1):
        if words == text:
            return level
    number = _LEVEL.match(value)
    return int(number.group(1)) if number else None


def _text(value: Any) -> str:
    if isinstance(value, dict):
        return "，".join(str(item) for item in value.values() if item)
    return value.strip() if isinstance(value, str) else ""


def _claims(value: Any) -> list[str]:
    """The claims, the costs claim last: a released ``claim`` object's other claims (numbered
    ones split) then its ``诉讼费用内容``; or a list; or text, one claim a line or number."""
    if isinstance(value, dict):
        others = [text for key, text in value.items() if key != COSTS_CLAIM]
        return [claim for text in [*others, value.get(COSTS_CLAIM)] for claim in _claims(text)]
    if isinstance(value, list):
        return [str(item).strip() for item in value if str(item).strip()]
    lines = re.split(r"\n+|(?<=[。；;])\s*(?=\d+[.、．])", _text(value))
    return [re.sub(r"^\d+[.、．]\s*", "", line).strip() for line in lines if line.strip()]


def _entries(value: Any) -> list[dict[str, str]]:
    """The ``身份：…`` entries of a released particulars string, each as its ``key：value``
    pairs (an empty value or ``None`` left out); one entry without keys for plain text."""
    text = _text(value)
    if not _ENTRY.search(text):
        return [{"": text}] if text else []
    entries = []
    for chunk in _ENTRY.split(text)[1:]:
        pairs = {"身份": chunk.split("，", 1)[0].split(",", 1)[0].strip()}
        for key, item in _PAIR.findall(chunk):
            item = item.strip()
            if item and item != "None":
                pairs.setdefault(key.strip(), item)
        entries.append(pairs)
    return entries


def _party_problems(data: dict) -> list[tuple[str, str]]:
    return [
        (side, f"entry {index} (身份：{entry['身份']}) gives no 姓名 or 公司名称")
        for side in ("plaintiff", "defendant")
        for index, entry in enumerate(_entries(data.get(side)), 1)
        if "" not in entry and not (entry.get("姓名") or entry.get("公司名称"))
    ]


def _parties(side: str, value: Any) -> list[dict]:
    return [_party(side, entry) for entry in _entries(value)]


def _party(side: str, entry: dict[str, str]) -> dict:
    if "" in entry:
        details = entry[""]
        name = str(_NAME_END.split(_LABEL.sub("", details), 1)[0]).strip()[:100] or side
    else:
        name = entry.get("姓名") or entry.get("公司名称") or side
        details = "，".join(f"{key}：{item}" for key, item in entry.items() if key not in ("身份", "姓名", "公司名称"))
    organisation = "公司名称" in entry or _ORGANISATION.search(name)
    return {"side": side, "name": name[:100], "kind": "organization" if organisation else "person", "details": details}


def _evidence(value: Any) -> list[dict]:
    by_side = value if isinstance(value, dict) else {"plaintiff": value}
    items = []
    for key, listed in by_side.items():
        side = next((side for side, keys in SIDE_KEYS.items() if key in keys), None)
        if side is None or listed is None:
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
        persona["legal_sense"] = legal_sense(data["law_level"])
    style = data.get("speak_style")
    style = "\n".join(str(text) for text in style.values() if text) if isinstance(style, dict) else _text(style)
    style = style or _text(data.get("personality"))
    if style:
        persona["speaking_style"] = style[:2000]
    if _text(data.get("less")):
        persona["withheld"] = [withheld_item(_text(data["less"]))]
    return persona


def _case(data: dict) -> dict:
    facts = _text(data["case_r_f"])
    zh = bool(_CJK.search(facts))
    plaintiffs, defendants = _parties("plaintiff", data["plaintiff"]), _parties("defendant", data["defendant"])
    plaintiff, defendant = plaintiffs[0], defendants[0]
    cause = _text(data["law_reason"])[:200]
    title = (
        f"{plaintiff['name']}诉{defendant['name']}{'等' if len(defendants) > 1 else ''}{cause}"
        if zh
        else f"{plaintiff['name']} v. {defendant['name']}{' et al.' if len(defendants) > 1 else ''} ({cause})"
    )
    persona = _persona(data)
    return {
        "id": f"maser-{str(data['id']).strip()}",
        "procedure": "civil",
        "title": title[:300],
        "language": "zh" if zh else "en",
        "cause_of_action": cause,
        "parties": [*plaintiffs, *defendants],
        "first_instance": {
            "claims": _claims(data["claim"]),
            "facts_and_reasons": facts,
            "evidence": _evidence(data.get("evidence") or []),
        },
        **({"personas": {"plaintiff": persona}} if persona else {}),
        "provenance": {"source": "MASER evaluation set", "real_outcome": False},
        "maser": {key: value for key, value in data.items() if key not in _MAPPED},
    }
