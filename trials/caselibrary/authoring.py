"""Case authoring in the browser: a form that builds a case-file record, the validators of
``import_cases`` (``trials.caselibrary.case_file``) with their messages placed beside the form's fields,
drafts kept as typed, a play-test with scripted agents that stores nothing, and publishing.

The form's list fields take one entry per line, the parts of an entry separated by ``|``
(``plaintiff | person | Liu Fang | retired accountant``); what the form has no field for
goes in "More fields", a JSON object merged into the record (docs/case-format.md), read by
the reader of every imported file (``legalsim.json_input``): nesting, numbers, NUL and
surrogates are refused as ``import_cases`` refuses them.

A draft keeps the form as typed, mistakes and all, except what no case can ever hold: a field
with a NUL or a lone surrogate (``legalsim.text_input``), or "More fields" holding a value the
reader refuses (nested deeper than it reads, a number out of range, those characters written
as ``\\u`` escapes). Such a form is refused whole, with the message beside the field, and
nothing is saved; a draft stored before these checks opens with the same messages.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from court.engine.machine import trial_start
from court.engine.runner import Paused, trial_run
from court.engine.state import TurnRecord
from legalsim.json_input import Problem, Record, read_document_text
from legalsim.text_input import FORBIDDEN, text_problem
from trials.caselibrary.case_file import validate_record
from trials.message_tables import MessageTable
from trials.models import Case, CaseDraft
from trials.services import agent_participants, case_store, default_target_side

TEXT_FIELDS = (
    "id",
    "title",
    "language",
    "procedure",
    "cause_of_action",
    "first_instance.facts_and_reasons",
    "first_instance.defenses",
    "first_instance.court_findings",
    "first_instance.disposition",
    "defendant_info",
    "indictment",
    "court_findings",
)
LINE_FIELDS = {
    "parties": ("side", "kind", "name", "details"),
    "first_instance.evidence": ("side", "name", "purpose"),
    "evidence": ("side", "name", "purpose"),
    "consultation": ("side", "question", "reference_answer"),
}
"""Fields of one entry per line: the parts of an entry, in order (the last ones optional)."""
REQUIRED_PARTS = {"parties": 3, "first_instance.evidence": 2, "evidence": 2, "consultation": 2}
LIST_FIELDS = ("first_instance.claims", "first_instance.legal_references", "charges", "legal_references")
"""Fields of one string per line."""
MORE = "more"
SYNTAX_PROBLEMS = ("invalid JSON", "is empty")
"""The reader's messages for text that is not (yet) JSON: a draft keeps it, to be fixed later.
Its other messages (nesting, numbers, characters) are about values no draft keeps."""
FORM_FIELDS = (*TEXT_FIELDS, *LINE_FIELDS, *LIST_FIELDS, MORE)
CIVIL_ONLY = ("first_instance.", "consultation")
CRIMINAL_ONLY = ("defendant_info", "indictment", "court_findings", "evidence", "charges", "legal_references")


VALIDATOR_MESSAGES = MessageTable(
    (r"is required", _("is required")),
    (r"must be a non-empty string", _("must be a non-empty string")),
    (r"must be a string", _("must be a string")),
    (
        r"must be at most (?P<limit>\d+) characters, got (?P<length>\d+)",
        _("must be at most %(limit)s characters, got %(length)s"),
    ),
    (r"must be a list of strings", _("must be a list of strings")),
    (
        r"must be a whole number of months >= 0 for (?P<penalty>\w+) \(null only for a penalty without a term\)",
        _("must be a whole number of months >= 0 for %(penalty)s (null only for a penalty without a term)"),
    ),
    (
        r"must be null for (?P<penalty>\w+) \(it has no term in months\)",
        _("must be null for %(penalty)s (it has no term in months)"),
    ),
    (
        r"must be 0 or null for (?P<penalty>\w+), got (?P<months>.+)",
        _("must be 0 or null for %(penalty)s, got %(months)s"),
    ),
    (r"must be one of (?P<choices>.+), got (?P<got>.*)", _("must be one of %(choices)s, got %(got)s")),
    (r"must be an object", _("must be an object")),
    (r"must be a list", _("must be a list")),
    (r"must be a JSON object", _("must be a JSON object")),
    (
        r"may contain only letters, digits, '\.', '_' and '-' \(at most 120 characters\)",
        _("may contain only letters, digits, '.', '_' and '-' (at most 120 characters)"),
    ),
    (r"needs at least one (?P<side>\w+) party", _("needs at least one %(side)s party")),
    (r"unknown side; expected one of (?P<sides>.+)", _("unknown side; expected one of %(sides)s")),
    (r"is not an LCPF dimension", _("is not an LCPF dimension")),
    (r"must be true or false", _("must be true or false")),
    (r"must be a whole number of months >= 0", _("must be a whole number of months >= 0")),
    (r"must be true/false or a whole number of months", _("must be true/false or a whole number of months")),
    (r"must be a number >= 0", _("must be a number >= 0")),
    (
        r"must be \[lower, upper\] whole months, 0 <= lower <= upper",
        _("must be [lower, upper] whole months, 0 <= lower <= upper"),
    ),
    (r"invalid JSON: (?P<error>.+)", _("invalid JSON: %(error)s")),
    (r"nested deeper than (?P<depth>\d+) levels", _("nested deeper than %(depth)s levels")),
    (
        r"contains a NUL character \(\\u0000\), which cannot be stored",
        _("contains a NUL character (\\u0000), which cannot be stored"),
    ),
    (
        r"contains an unpaired surrogate \((?P<code>\\u[0-9a-f]{4})\), which is not text",
        _("contains an unpaired surrogate (%(code)s), which is not text"),
    ),
    (
        r"a key contains a NUL character \(\\u0000\), which cannot be stored",
        _("a key contains a NUL character (\\u0000), which cannot be stored"),
    ),
    (
        r"a key contains an unpaired surrogate \((?P<code>\\u[0-9a-f]{4})\), which is not text",
        _("a key contains an unpaired surrogate (%(code)s), which is not text"),
    ),
    (r"(?P<number>.+) is too large for a number", _("%(number)s is too large for a number")),
    (
        r"(?P<literal>\w+) is not allowed: JSON has no NaN or Infinity",
        _("%(literal)s is not allowed: JSON has no NaN or Infinity"),
    ),
    (r"is empty; expected a JSON object or list", _("is empty; expected a JSON object or list")),
)
"""The validators' messages (``trials.caselibrary.case_file``, ``legalsim.json_input``), which
``import_cases`` prints in English (the ``FILE:LINE: field: message`` contract), as a page
shows them: in the interface's language, the values they quote kept as they are."""


def validator_message(message: str) -> str:
    """A validator's message in the interface's language (a message not in the table stays
    as the validator wrote it)."""
    return VALIDATOR_MESSAGES.shown(message)


def problem_shown(problem: Problem) -> str:
    """A problem of an uploaded case file as a page shows it: ``FILE:LINE: field: message``,
    the message in the interface's language."""
    return str(replace(problem, message=validator_message(problem.message)))


@dataclass
class Checked:
    """A form checked as ``import_cases`` checks a record: the case when it is valid, and
    each field's messages otherwise (``field name -> messages``)."""

    case: dict | None
    errors: dict[str, list[str]] = field(default_factory=dict)
    refused: frozenset[str] = frozenset()
    """The fields holding what no draft may keep (their messages are in ``errors``)."""

    @property
    def valid(self) -> bool:
        return self.case is not None and not self.errors


def _applies(name: str, procedure: str) -> bool:
    if procedure == "criminal":
        return not name.startswith(CIVIL_ONLY)
    return name not in CRIMINAL_ONLY


def _put(record: dict, name: str, value: object) -> None:
    """``first_instance.claims`` -> ``record["first_instance"]["claims"]``."""
    *parents, key = name.split(".")
    for parent in parents:
        record = record.setdefault(parent, {})
    record[key] = value


@dataclass
class FormRecord:
    """A form read as a case-file record: the record, the problems of the form's shape (a
    line without its parts, "More fields" that is not a JSON object), and for each field of
    one entry per line the line of the form each entry came from."""

    record: dict = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    lines: dict[str, list[int]] = field(default_factory=dict)
    refused: set[str] = field(default_factory=set)


def _entries(name: str, text: str, read: FormRecord) -> list[dict]:
    parts_of = LINE_FIELDS[name]
    entries, lines = [], read.lines.setdefault(name, [])
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [part.strip() for part in line.split("|")]
        if len(parts) < REQUIRED_PARTS[name] or len(parts) > len(parts_of):
            expected = {"number": number, "parts": " | ".join(parts_of)}
            read.errors.setdefault(name, []).append(gettext("line %(number)s: expected %(parts)s") % expected)
            continue
        entries.append({key: value for key, value in zip(parts_of, parts, strict=False) if value})
        lines.append(number)
    return entries


def record_from_form(form: Mapping[str, str]) -> FormRecord:
    """The case-file record a form describes (``FormRecord``)."""
    read = FormRecord()
    for name in FORM_FIELDS:
        problem = text_problem(form.get(name, ""))
        if problem:
            read.errors[name] = [problem]
            read.refused.add(name)
    procedure = form.get("procedure", "").strip()
    for name in FORM_FIELDS:
        text = form.get(name, "")
        if not text.strip() or not _applies(name, procedure) or name in read.refused:
            continue
        if name in LINE_FIELDS:
            _put(read.record, name, _entries(name, text, read))
        elif name in LIST_FIELDS:
            _put(read.record, name, [line.strip() for line in text.splitlines() if line.strip()])
        elif name == MORE:
            _merge_more(read.record, text, read)
        else:
            _put(read.record, name, text.strip())
    return read


def _merge_more(record: dict, text: str, read: FormRecord) -> None:
    more, problems = read_document_text(text, MORE)
    for problem in problems:
        where = "" if problem.field in ("json", "file") else f"{problem.field}: "
        message = gettext("line %(number)s: %(problem)s") % {
            "number": problem.line,
            "problem": where + validator_message(problem.message),
        }
        read.errors.setdefault(MORE, []).append(message)
        if not problem.message.startswith(SYNTAX_PROBLEMS):
            read.refused.add(MORE)
    if problems:
        return
    if not isinstance(more, dict):
        read.errors.setdefault(MORE, []).append(gettext("must be a JSON object"))
        return
    for key, value in more.items():
        if isinstance(value, dict) and isinstance(record.get(key), dict):
            record[key] = {**value, **record[key]}
        else:
            record.setdefault(key, value)


def form_field_of(problem_field: str, lines: Mapping[str, list[int]]) -> tuple[str, str]:
    """Where a validator's problem shows: (form field, prefix of its message). ``parties[1].side``
    is the line of Parties its second entry was typed on; a field the form lacks is one of
    "More fields"."""
    base, _, rest = problem_field.partition("[")
    if base in LINE_FIELDS:
        if not rest:
            return base, ""
        index, _, part = rest.partition("]")
        where = {"number": lines[base][int(index)], "part": part.lstrip(".") or gettext("entry")}
        return base, gettext("line %(number)s: %(part)s: ") % where
    if problem_field in FORM_FIELDS:
        return problem_field, ""
    return MORE, f"{problem_field}: "


def case_check(form: Mapping[str, str]) -> Checked:
    """Check a form with ``import_cases``' validators; their messages, word for word, go to
    the fields they are about."""
    read = record_from_form(form)
    record, errors = read.record, read.errors
    checked = Record(line=1, data=record, source=json.dumps(record, ensure_ascii=False, indent=2))
    case = validate_record(checked, "the form")
    for problem in checked.problems:
        name, prefix = form_field_of(problem.field, read.lines)
        errors.setdefault(name, []).append(prefix + validator_message(problem.message))
    return Checked(case=None if errors else case, errors=errors, refused=frozenset(read.refused))


def text_shown(text: str) -> str:
    """Text as a page can show it: U+FFFD for each NUL or lone surrogate (a lone surrogate
    cannot even be encoded into the page), as ``TextCheckedForm`` shows a refused value."""
    return FORBIDDEN.sub("\ufffd", text)


def form_from_case(seed: dict) -> dict[str, str]:
    """The form of a stored case (to edit a published case as a new draft)."""
    seed = json.loads(json.dumps(seed))
    form: dict[str, str] = {}
    for name in (*TEXT_FIELDS, *LINE_FIELDS, *LIST_FIELDS):
        *parents, key = name.split(".")
        holder = seed
        for parent in parents:
            holder = holder.get(parent) if isinstance(holder.get(parent), dict) else {}
        if key not in holder:
            continue
        value = holder.pop(key)
        if name in LINE_FIELDS:
            form[name] = "\n".join(" | ".join(entry.get(part, "") for part in LINE_FIELDS[name]) for entry in value)
        elif name in LIST_FIELDS:
            form[name] = "\n".join(value)
        else:
            form[name] = str(value)
    rest = {key: value for key, value in seed.items() if value not in ({}, None, [])}
    rest.pop("extra", None)
    if rest:
        form[MORE] = json.dumps(rest, ensure_ascii=False, indent=2)
    return form


def draft_save(
    *, author: AbstractBaseUser, form: Mapping[str, str], draft: CaseDraft | None = None, case: Case | None = None
) -> CaseDraft:
    """Keep the form as typed, valid or not; a new draft of a library ``case`` replaces it
    when published."""
    fields = {name: form.get(name, "") for name in FORM_FIELDS}
    if draft is None:
        return CaseDraft.objects.create(author=author, fields=fields, case=case)
    draft.fields = fields
    draft.save(update_fields=["fields", "updated_at"])
    return draft


@dataclass(frozen=True)
class PlayTest:
    """A scripted run of a draft, never stored: its turns, and why it stopped if not at the end."""

    turns: list[TurnRecord]
    stopped: str = ""


def play_test(case: dict) -> PlayTest:
    """Play a valid case through its whole procedure with scripted agents, in memory."""
    target_side = default_target_side(case["procedure"])
    state = trial_start(case=case, target_side=target_side)
    outcome = trial_run(state, agent_participants(case["procedure"], "scripted", target_side=target_side))
    stopped = ""
    if isinstance(outcome, Paused):
        stopped = gettext("stopped at %(seat)s: %(reason)s") % {"seat": outcome.step.seat, "reason": outcome.reason}
    return PlayTest(turns=list(state.turns), stopped=stopped)


class PublishRefused(Exception):
    pass


def draft_publish(*, draft: CaseDraft, case: dict) -> Case:
    """Store a valid draft's case in the library (replacing the case it published before);
    an id that another case already has is refused."""
    taken = Case.objects.filter(pk=case["id"]).exclude(pk=draft.case_id or "").exists()
    if taken:
        message = gettext("a case with the id %(id)s is already in the library; choose another id")
        raise PublishRefused(message % {"id": repr(case["id"])})
    with transaction.atomic():
        stored = case_store(case, source_file=f"authored in the browser by {draft.author.get_username()}")
        draft.case, draft.published_at = stored, timezone.now()
        draft.save(update_fields=["case", "published_at"])
    return stored
