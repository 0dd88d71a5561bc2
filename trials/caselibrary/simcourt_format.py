"""SimCourt's released cases (``data/data_LJP/N/data_anonymized.json`` of the SimCourt
repository; SimCourt, "Benchmark Construction", docs/sources.md) as case-format records, for
``import_cases --format simcourt`` (docs/case-format.md, "SimCourt's files").

A file holds one first-instance criminal case of one defendant: ``defendant_information``,
``prosecution_statement`` (the indictment, its sentencing recommendation included),
``evidence`` as [prosecution items, defence items], the real outcome as ``term`` (months, or
无期徒刑 / 死刑缓期二年执行 / 死刑), ``fine``, ``reprieve`` (probation months), ``charge`` (a
list, possibly ``[""]``), ``result`` (the court's reasoning and orders) and ``fact`` (the
defendant's own account). The real outcome becomes the evaluation-only ``sentence``,
``court_findings`` and ``legal_references``; what the case format has no field for stays in
``extra.simcourt``, so nothing is lost.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from pathlib import Path

from court.legaltext.penalties import TERM_PENALTIES
from court.legaltext.sentences import NOTHING_READ, principal_penalty, sentence_extract
from legalsim.json_input import Problem, Record, shown
from trials.caselibrary.case_file import validate_record

SIMCOURT_FILE = "data_anonymized.json"
_MAPPED = ("defendant_information", "prosecution_statement", "evidence", "result")
"""Fields that become case-format fields as they are; every other one is kept in ``extra.simcourt``."""
_NUMBERED = re.compile(r"^\s*\d+\s*[.、．]\s*")
_PURPOSE = re.compile(r"[，,：:]\s*(?=证实|证明)")
_PROCURATORATE = re.compile(r"[^\s，,。；;:：]{2,40}?人民检察院")
_COURT = re.compile(r"此致\s*([^\s，,。]{2,40}?人民法院)")
_DEFENDANT = re.compile(r"被告人\s*([^\s，,。；;（(:：]{1,20})")
_CHARGE = re.compile(r"涉嫌(?:犯)?([^\s，,。；;、]{2,20}?罪)")
_LAW = re.compile(r"《([^》]+)》([^《。；;]*)")
_RECOMMENDATION = re.compile(r"建议(?:本院|法院)?(?:对被告人\S{1,10}?)?(判处[^。]*)")


def simcourt_files(paths: Iterable[Path]) -> tuple[list[Path], list[str]]:
    """The SimCourt files under ``paths`` (a folder is searched for ``data_anonymized.json``
    files at any depth, in natural order: 2 before 10), and the paths that hold none."""
    found: list[Path] = []
    empty: list[str] = []
    for path in paths:
        if path.is_dir():
            files = sorted(path.rglob(SIMCOURT_FILE), key=_natural)
            found.extend(files)
            if not files:
                empty.append(str(path))
        else:
            found.append(path)
    return found, empty


def _natural(path: Path) -> list[tuple[int, str]]:
    return [(int(part), "") if part.isdigit() else (0, part) for part in path.parts]


def simcourt_record(record: Record, path: str) -> dict | None:
    """The case-format record of a SimCourt case, validated as ``import_cases`` validates
    case files; None with every problem (named by the SimCourt field) otherwise."""
    data = record.data
    if not isinstance(data, dict):
        record.problems.append(Problem(path, record.line, "record", "must be a JSON object (one SimCourt case)"))
        return None
    checked = _Fields(record, path)
    defendant_info = checked.text("defendant_information")
    statement = checked.text("prosecution_statement")
    evidence = checked.evidence()
    charges = checked.charges()
    result = checked.text("result", required=False)
    sentence = checked.sentence(result, _defendant_name(defendant_info))
    for key in ("fact", "prosecution_statement_sub"):
        checked.text(key, required=False)
    if record.problems:
        return None
    mapped = Record(record.line, _case(path, data, defendant_info, statement, evidence, charges, result, sentence), "")
    case = validate_record(mapped, path)
    record.problems.extend(mapped.problems)
    return case


class _Fields:
    """Reads SimCourt's fields, each problem on the line of its key in the file."""

    def __init__(self, record: Record, path: str) -> None:
        self.record, self.path, self.data = record, path, record.data

    def problem(self, field: str, message: str) -> None:
        key = field.split("[")[0]
        position = self.record.source.find(f'"{key}"')
        line = self.record.line + (self.record.source.count("\n", 0, position) if position >= 0 else 0)
        self.record.problems.append(Problem(self.path, line, field, message))

    def text(self, key: str, *, required: bool = True) -> str:
        value = self.data.get(key)
        if value is None and not required:
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            wanted = "a non-empty string" if required else "a string"
            self.problem(key, "is required" if value is None else f"must be {wanted}, got {shown(value)}")
            return ""
        return value.strip()

    def evidence(self) -> list[dict]:
        value = self.data.get("evidence")
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(side, list) for side in value)):
            self.problem(
                "evidence", f"must be [prosecution items, defence items] (two lists of strings), got {shown(value)}"
            )
            return []
        items = []
        for index, (side, listed) in enumerate(zip(("prosecution", "defendant"), value, strict=True)):
            for number, item in enumerate(listed):
                if not isinstance(item, str):
                    self.problem(f"evidence[{index}][{number}]", f"must be a string, got {shown(item)}")
                elif item.strip():
                    items.append(_evidence_item(side, item))
        return items

    def charges(self) -> list[str]:
        value = self.data.get("charge", [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(charge, str) for charge in value):
            self.problem("charge", f"must be a list of strings, got {shown(value)}")
            return []
        return [charge.strip() for charge in value if charge.strip()]

    def months(self, key: str) -> float | None:
        """A number of months >= 0 (a number, or a number written as text); 0 when absent."""
        value = self.data.get(key, 0)
        if isinstance(value, str) and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", value):
            value = float(value)
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            return None
        return value

    def sentence(self, result: str, defendant: str) -> dict:
        """``term``, ``reprieve`` and ``fine`` as a case-format ``sentence``; the kind of a
        numeric term (有期徒刑, 拘役, 管制; an exemption or acquittal at 0) from ``result``."""
        fine = self.months("fine")
        if fine is None:
            self.problem("fine", f"must be an amount >= 0, got {shown(self.data.get('fine'))}")
        reprieve = self.months("reprieve")
        if reprieve is None:
            self.problem("reprieve", f"must be months of probation >= 0, got {shown(self.data.get('reprieve'))}")
        term = self.data.get("term")
        if term is None:
            self.problem("term", "is required")
            return {}
        months = self.months("term")
        named = principal_penalty(term) if isinstance(term, str) and months is None else None
        if named is not None and named[0] in TERM_PENALTIES:
            months = named[1]
        if months is None and named is None:
            self.problem(
                "term", f"must be months (a number >= 0) or 无期徒刑, 死刑缓期二年执行 or 死刑, got {shown(term)}"
            )
            return {}
        probation = _whole_months(reprieve or 0)
        sentence: dict = {"probation": probation or False, "fine": fine or 0}
        if named is not None and named[0] not in TERM_PENALTIES:
            return {"penalty": named[0], "imprisonment_months": None, **sentence}
        read = sentence_extract(result, "zh", defendant) if result else NOTHING_READ
        if months:
            penalty = read.penalty if read.penalty in TERM_PENALTIES else "fixed_term"
        else:
            penalty = read.penalty if read.penalty in ("exempt", "acquitted") else "fixed_term"
        return {"penalty": penalty, "imprisonment_months": _whole_months(months or 0), **sentence}


def _whole_months(months: float) -> int:
    """Whole months as the case format stores them (a term of 1.5 months, 拘役一个月十五日,
    becomes 2; the exact value stays in ``extra.simcourt``)."""
    return math.floor(months + 0.5)


def _evidence_item(side: str, item: str) -> dict:
    """``2.书证：户籍证明，证实被告人…`` → name 书证：户籍证明, purpose 证实被告人…"""
    text = _NUMBERED.sub("", item.strip())
    split = _PURPOSE.search(text)
    if split:
        name, purpose = text[: split.start()], text[split.end() :]
    elif "：" in text[:40]:
        name, _, purpose = text.partition("：")
    else:
        name, purpose = text, ""
    return {"side": side, "name": name.strip() or text, "purpose": purpose.strip()}


def _defendant_name(defendant_info: str) -> str:
    match = _DEFENDANT.search(defendant_info)
    return match.group(1) if match else "被告人"


def _case(
    path: str,
    data: dict,
    defendant_info: str,
    statement: str,
    evidence: list[dict],
    charges: list[str],
    result: str,
    sentence: dict,
) -> dict:
    number = _case_number(path)
    defendant = _defendant_name(defendant_info)
    procuratorate_match = _PROCURATORATE.search(statement[:200])
    procuratorate = procuratorate_match.group(0) if procuratorate_match else "公诉机关"
    charged = charges or [match.group(1) for match in _CHARGE.finditer(statement)][:1]
    cause = "、".join(charged) or "刑事案件"
    court = _COURT.search(statement)
    case = {
        "id": f"simcourt-{number}",
        "procedure": "criminal",
        "title": f"{procuratorate}诉{defendant}{'、'.join(charge.removesuffix('罪') for charge in charged) or '刑事'}案"[
            :300
        ],
        "language": "zh",
        "cause_of_action": cause[:200],
        "metadata": {"court_name": court.group(1)} if court else {},
        "parties": [
            {"side": "prosecution", "name": procuratorate, "kind": "organization", "details": "公诉机关"},
            {"side": "defendant", "name": defendant, "kind": "person", "details": defendant_info.split("。")[0]},
        ],
        "defendant_info": defendant_info,
        "indictment": statement,
        "charges": charges,
        "evidence": evidence,
        "sentence": sentence,
        "court_findings": result,
        "legal_references": _legal_references(result),
        "provenance": {
            "source": f"SimCourt benchmark (github.com/Miracle-2001/SimCourt, data/data_LJP), case {number}; "
            "a first-instance judgment of LeCaRDv2",
            "licence": "none stated (the SimCourt repository has no licence file; used for research evaluation only)",
            "real_outcome": True,
            "llm_reconstructed_fields": ["defendant_info", "indictment", "evidence"],
            "synthetic_identities": False,
            "pii_scrubbed": True,
        },
        "extra": {"simcourt": {key: value for key, value in data.items() if key not in _MAPPED}},
    }
    recommendation = _recommendation(statement)
    if recommendation:
        case["sentencing_recommendation"] = recommendation
    return case


def _case_number(path: str) -> str:
    file = Path(path)
    name = file.parent.name if file.name == SIMCOURT_FILE and file.parent.name else file.stem
    return re.sub(r"[^A-Za-z0-9._-]", "-", name)[:100] or "case"


def _legal_references(result: str) -> list[str]:
    """The provisions the judgment applies: 《刑法》第六十七条第三款, one per article cited."""
    references = []
    for law, cited in _LAW.findall(result):
        for piece in re.split(r"[、，,和及]", cited.split("之规定")[0]):
            piece = piece.strip()
            if piece.startswith("第") and "条" in piece:
                references.append(f"《{law}》{piece}")
    return list(dict.fromkeys(references))


def _recommendation(statement: str) -> dict | None:
    """The indictment's 建议判处… read as a sentence (the indictment shows it to everyone)."""
    recommended = [match.group(1) for match in _RECOMMENDATION.finditer(statement)]
    if not recommended:
        return None
    read = sentence_extract(f"判决如下：{recommended[-1]}", "zh")
    if read.penalty is None:
        return None
    months = read.imprisonment_months
    return {
        "penalty": read.penalty,
        "imprisonment_months": None if months is None else _whole_months(months),
        "probation": _whole_months(read.probation_months) if read.probation_months else bool(read.probation),
        "fine": read.fine or 0,
    }
