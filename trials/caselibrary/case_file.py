"""Validating case files (docs/case-format.md): every problem of every record is reported
with its file, line and field, so a bad file is fixed in one pass. Reading them (encoding,
syntax, nesting, numbers, lines) is ``legalsim.json_input``'s, shared by every imported file."""

from __future__ import annotations

import json
import re

from court.legaltext.penalties import NON_NUMERIC_PENALTIES, PENALTIES, TERM_PENALTIES
from legalsim.json_input import Problem, Record, shown

CASE_ID = re.compile(r"^[A-Za-z0-9._-]{1,120}$")
LEVELS = ("high", "medium", "low")
PERSONA_DIMENSIONS = ("legal_literacy", "disclosure_willingness", "emotional_stability", "narrative_proficiency")
BIG5_TRAITS = ("extraversion", "emotional_stability", "openness", "agreeableness", "conscientiousness")
LEGAL_SENSE_LEVELS = (1, 2, 3, 4, 5)
MASER_KEYS = ("big5", "legal_sense", "speaking_style", "withheld")
WITHHELD_MODES = ("omit", "vague")
SIDES = {"civil": ("plaintiff", "defendant"), "criminal": ("prosecution", "defendant")}
KNOWN_KEYS = {
    "common": {
        "id", "procedure", "title", "language", "cause_of_action", "parties", "metadata", "personas", "goals",
        "provenance",
    },
    "civil": {"first_instance", "second_instance", "consultation"},
    "criminal": {
        "defendant_info", "indictment", "charges", "evidence", "sentence", "sentencing_recommendation",
        "court_findings", "legal_references",
    },
}  # fmt: skip


class _Checker:
    """Collects problems for one record; ``line_of`` points a field at its line in the file."""

    def __init__(self, record: Record, path: str) -> None:
        self.record, self.path = record, path

    def problem(self, name: str, message: str) -> None:
        self.record.problems.append(Problem(self.path, self._line_of(name), name, message))

    def _line_of(self, name: str) -> int:
        key = name.split(".")[-1].split("[")[0]
        position = self.record.source.find(f'"{key}"')
        return self.record.line + (self.record.source.count("\n", 0, position) if position >= 0 else 0)

    def text(self, data: dict, key: str, name: str, *, required: bool = False, max_length: int | None = None) -> None:
        if key not in data or data[key] is None:
            if required:
                self.problem(name, "is required")
            return
        if not isinstance(data[key], str) or (required and not data[key].strip()):
            self.problem(name, "must be a non-empty string" if required else "must be a string")
        elif max_length is not None and len(data[key]) > max_length:
            self.problem(name, f"must be at most {max_length} characters, got {len(data[key])}")

    def texts(self, data: dict, key: str, name: str) -> None:
        """A list of strings; a single string is accepted and becomes a one-item list."""
        value = data.get(key)
        if value is None:
            return
        if isinstance(value, str):
            data[key] = [value]
        elif not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self.problem(name, "must be a list of strings")

    def choice(self, data: dict, key: str, name: str, choices: tuple[str, ...], *, required: bool = False) -> None:
        if key not in data:
            if required:
                self.problem(name, "is required")
            return
        if data[key] not in choices:
            self.problem(name, f"must be one of {', '.join(choices)}, got {shown(data[key])}")

    def obj(self, data: dict, key: str, name: str) -> dict | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.problem(name, "must be an object")
            return None
        return value

    def items(self, data: dict, key: str, name: str) -> list:
        value = data.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.problem(name, "must be a list")
            return []
        return value


def validate_record(record: Record, path: str) -> dict | None:
    """Return the normalised case (unknown keys moved into ``extra``), or None with problems."""
    check = _Checker(record, path)
    data = record.data
    if not isinstance(data, dict):
        check.problem("record", "must be a JSON object")
        return None
    data = json.loads(json.dumps(data))
    check.text(data, "id", "id", required=True)
    if isinstance(data.get("id"), str) and data["id"] and not CASE_ID.match(data["id"]):
        check.problem("id", "may contain only letters, digits, '.', '_' and '-' (at most 120 characters)")
    check.choice(data, "procedure", "procedure", tuple(SIDES), required=True)
    check.text(data, "title", "title", required=True, max_length=300)
    check.choice(data, "language", "language", ("zh", "en"), required=True)
    check.text(data, "cause_of_action", "cause_of_action", required=True, max_length=200)
    procedure = data["procedure"] if isinstance(data.get("procedure"), str) and data["procedure"] in SIDES else None
    sides = SIDES.get(procedure or "", ("plaintiff", "defendant", "prosecution"))
    _check_parties(check, data, sides, procedure)
    _check_common_blocks(check, data, sides)
    check.obj(data, "extra", "extra")
    if procedure == "civil":
        _check_civil(check, data)
    elif procedure == "criminal":
        _check_criminal(check, data)
    if record.problems:
        return None
    known = KNOWN_KEYS["common"] | KNOWN_KEYS[procedure or "civil"]
    extra = {key: data.pop(key) for key in list(data) if key not in known and key != "extra"}
    data["extra"] = {**(data.get("extra") or {}), **extra}
    return data


def _check_parties(check: _Checker, data: dict, sides: tuple[str, ...], procedure: str | None) -> None:
    if "parties" not in data:
        check.problem("parties", "is required")
        return
    parties = check.items(data, "parties", "parties")
    for index, party in enumerate(parties):
        name = f"parties[{index}]"
        if not isinstance(party, dict):
            check.problem(name, "must be an object")
            continue
        check.choice(party, "side", f"{name}.side", sides, required=True)
        check.text(party, "name", f"{name}.name", required=True)
        check.choice(party, "kind", f"{name}.kind", ("person", "organization"), required=True)
        check.text(party, "details", f"{name}.details")
    present = {party.get("side") for party in parties if isinstance(party, dict) and isinstance(party.get("side"), str)}
    if procedure and isinstance(data.get("parties"), list):
        for side in sides:
            if side not in present:
                check.problem("parties", f"needs at least one {side} party")


def _check_evidence(check: _Checker, data: dict, key: str, name: str, sides: tuple[str, ...]) -> None:
    for index, item in enumerate(check.items(data, key, name)):
        item_name = f"{name}[{index}]"
        if not isinstance(item, dict):
            check.problem(item_name, "must be an object")
            continue
        check.choice(item, "side", f"{item_name}.side", sides, required=True)
        check.text(item, "name", f"{item_name}.name", required=True)
        check.text(item, "purpose", f"{item_name}.purpose")


def _check_common_blocks(check: _Checker, data: dict, sides: tuple[str, ...]) -> None:
    metadata = check.obj(data, "metadata", "metadata") or {}
    for key in metadata:
        check.text(metadata, key, f"metadata.{key}")
    for side, persona in (check.obj(data, "personas", "personas") or {}).items():
        if side not in sides:
            check.problem(f"personas.{side}", f"unknown side; expected one of {', '.join(sides)}")
        elif not isinstance(persona, dict):
            check.problem(f"personas.{side}", "must be an object")
        else:
            _check_persona(check, persona, f"personas.{side}")
    for side, goal in (check.obj(data, "goals", "goals") or {}).items():
        if side not in sides:
            check.problem(f"goals.{side}", f"unknown side; expected one of {', '.join(sides)}")
        elif not isinstance(goal, dict):
            check.problem(f"goals.{side}", "must be an object")
        else:
            check.text(goal, "goal", f"goals.{side}.goal")
            check.text(goal, "bottom_line", f"goals.{side}.bottom_line")
            if not isinstance(goal.get("accepts_mediation", False), bool):
                check.problem(f"goals.{side}.accepts_mediation", "must be true or false")
    provenance = check.obj(data, "provenance", "provenance") or {}
    for key in ("source", "licence"):
        check.text(provenance, key, f"provenance.{key}")
    for key in ("real_outcome", "synthetic_identities", "pii_scrubbed"):
        if key in provenance and not isinstance(provenance[key], bool):
            check.problem(f"provenance.{key}", "must be true or false")
    check.texts(provenance, "llm_reconstructed_fields", "provenance.llm_reconstructed_fields")


def _check_persona(check: _Checker, persona: dict, name: str) -> None:
    """LCPF's four levels (LegalWorld) and MASER's client traits (docs/case-format.md)."""
    for key in persona:
        if key in PERSONA_DIMENSIONS:
            check.choice(persona, key, f"{name}.{key}", LEVELS)
        elif key not in MASER_KEYS:
            check.problem(f"{name}.{key}", f"is neither an LCPF dimension nor one of {', '.join(MASER_KEYS)}")
    big5 = check.obj(persona, "big5", f"{name}.big5") or {}
    for trait in big5:
        if trait not in BIG5_TRAITS:
            check.problem(f"{name}.big5.{trait}", f"is not a Big-5 trait; expected one of {', '.join(BIG5_TRAITS)}")
        else:
            check.choice(big5, trait, f"{name}.big5.{trait}", LEVELS)
    sense = persona.get("legal_sense")
    if sense is not None and (isinstance(sense, bool) or sense not in LEGAL_SENSE_LEVELS):
        check.problem(f"{name}.legal_sense", "must be an integer from 1 to 5")
    check.text(persona, "speaking_style", f"{name}.speaking_style", max_length=2000)
    for index, item in enumerate(check.items(persona, "withheld", f"{name}.withheld")):
        item_name = f"{name}.withheld[{index}]"
        if not isinstance(item, dict):
            check.problem(item_name, "must be an object")
            continue
        check.text(item, "detail", f"{item_name}.detail", required=True)
        check.choice(item, "mode", f"{item_name}.mode", WITHHELD_MODES)
        check.texts(item, "asked_by", f"{item_name}.asked_by")
        if not item.get("asked_by"):
            check.problem(f"{item_name}.asked_by", "needs at least one word that counts as asking about the detail")


def _check_civil(check: _Checker, data: dict) -> None:
    first = check.obj(data, "first_instance", "first_instance")
    if first is not None:
        check.texts(first, "claims", "first_instance.claims")
        check.text(first, "facts_and_reasons", "first_instance.facts_and_reasons")
        _check_evidence(check, first, "evidence", "first_instance.evidence", SIDES["civil"])
        if isinstance(first.get("defenses"), list):
            check.texts(first, "defenses", "first_instance.defenses")
            if all(isinstance(defense, str) for defense in first["defenses"]):
                first["defenses"] = "\n".join(first["defenses"])
        else:
            check.text(first, "defenses", "first_instance.defenses")
        check.text(first, "court_findings", "first_instance.court_findings")
        check.texts(first, "legal_references", "first_instance.legal_references")
        check.text(first, "disposition", "first_instance.disposition")
    second = check.obj(data, "second_instance", "second_instance")
    if second is not None:
        check.choice(second, "appellant_side", "second_instance.appellant_side", SIDES["civil"], required=True)
        check.texts(second, "appeal_requests", "second_instance.appeal_requests")
        for key in ("appeal_reasons", "appellee_defenses", "appellate_findings", "final_disposition"):
            check.text(second, key, f"second_instance.{key}")
        _check_evidence(check, second, "new_evidence", "second_instance.new_evidence", SIDES["civil"])
        check.texts(second, "affected_items", "second_instance.affected_items")
    for index, item in enumerate(check.items(data, "consultation", "consultation")):
        name = f"consultation[{index}]"
        if not isinstance(item, dict):
            check.problem(name, "must be an object")
            continue
        check.text(item, "question", f"{name}.question", required=True)
        check.text(item, "reference_answer", f"{name}.reference_answer")
        check.choice(item, "side", f"{name}.side", SIDES["civil"])


def _check_sentence(check: _Checker, data: dict, key: str) -> None:
    sentence = check.obj(data, key, key)
    if sentence is None:
        return
    if "penalty" in sentence and sentence["penalty"] is None:
        del sentence["penalty"]
    check.choice(sentence, "penalty", f"{key}.penalty", PENALTIES)
    penalty = sentence.get("penalty", "fixed_term")
    _check_term(check, sentence, key, penalty if penalty in PENALTIES else "fixed_term")
    probation = _whole(sentence, "probation", False)
    if not isinstance(probation, bool) and (not isinstance(probation, int) or probation < 0):
        check.problem(f"{key}.probation", "must be true/false or a whole number of months")
    fine = sentence.get("fine", 0)
    if isinstance(fine, bool) or not isinstance(fine, int | float) or fine < 0:
        check.problem(f"{key}.fine", "must be a number >= 0")
    if "statutory_range_months" in sentence and sentence["statutory_range_months"] is not None:
        bounds = sentence["statutory_range_months"]
        if isinstance(bounds, list):
            bounds[:] = [_integral(bound) for bound in bounds]
        if not _is_month_range(bounds):
            check.problem(f"{key}.statutory_range_months", "must be [lower, upper] whole months, 0 <= lower <= upper")


def _check_term(check: _Checker, sentence: dict, key: str, penalty: str) -> None:
    """A term in whole months for 有期徒刑, 拘役 and 管制; none (null) for life and death; none
    or 0 for an exemption or an acquittal."""
    name = f"{key}.imprisonment_months"
    months = _whole(sentence, "imprisonment_months", None if penalty not in TERM_PENALTIES else 0)
    if months is None:
        if penalty in TERM_PENALTIES:
            check.problem(
                name, f"must be a whole number of months >= 0 for {penalty} (null only for a penalty without a term)"
            )
    elif isinstance(months, bool) or not isinstance(months, int) or months < 0:
        check.problem(name, "must be a whole number of months >= 0")
    elif penalty in NON_NUMERIC_PENALTIES:
        check.problem(name, f"must be null for {penalty} (it has no term in months)")
    elif penalty not in TERM_PENALTIES and months:
        check.problem(name, f"must be 0 or null for {penalty}, got {months}")


def _whole(data: dict, key: str, default: object) -> object:
    """``data[key]`` with an integral float (3.0, how exporters write months) stored as an int."""
    if key in data:
        data[key] = _integral(data[key])
    return data.get(key, default)


def _integral(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _is_month_range(bounds: object) -> bool:
    return (
        isinstance(bounds, list)
        and len(bounds) == 2
        and all(isinstance(bound, int) and not isinstance(bound, bool) for bound in bounds)
        and 0 <= bounds[0] <= bounds[1]
    )


def _check_criminal(check: _Checker, data: dict) -> None:
    for key in ("defendant_info", "indictment", "court_findings"):
        check.text(data, key, key)
    check.texts(data, "charges", "charges")
    check.texts(data, "legal_references", "legal_references")
    _check_evidence(check, data, "evidence", "evidence", SIDES["criminal"])
    _check_sentence(check, data, "sentence")
    _check_sentence(check, data, "sentencing_recommendation")
