"""One reader for the JSON and JSONL files people hand the site: case, trajectory, ratings
(JSONL) and rubric files, from the command line or an upload.

Whatever the bytes, the reader returns values, never raises: the records it could read and a
``Problem`` (``FILE:LINE: field: message``) for everything it refused. It checks

- **encoding**: UTF-8 (a leading byte-order mark is dropped); a UTF-16 or UTF-32 file, a NUL
  byte or a byte that is not UTF-8 is refused with the line it is on;
- **syntax**: strict JSON, with the line and column of the first error; in a JSONL file every
  line on its own, so every bad line is reported;
- **nesting**: a value nested deeper than ``MAX_DEPTH`` levels is refused with the line where it
  goes too deep, before anything recursive (saving to a JSONField, ``copy.deepcopy``, templates)
  walks it; a value so deep that the parser itself runs out of stack gets the same message;
- **numbers**: ``NaN``, ``Infinity`` and numbers beyond a float's range (``1e400``, an integer of
  400 digits) are refused: they are not JSON, and they break float arithmetic and PostgreSQL;
- **text**: a string or key holding ``\\u0000`` or an unpaired surrogate (``\\ud800``) is refused:
  PostgreSQL cannot store the first, and the second is not text (saving it fails on any
  database).

Line numbers are counted once per file, front to back, so reading takes time linear in the
file's size (counting from the start of the file for every record made 50 MB take 100 s).
A record of a JSON list is on the line where it starts; a JSONL record on its own line.
"""

from __future__ import annotations

import codecs
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_DEPTH = 64
MAX_PROBLEMS_PER_RECORD = 10
_FLOAT_MAX_DIGITS = len(str(int(sys.float_info.max)))
_OTHER_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)
_SPACE = re.compile(r"[ \t\r\n]*")
# The nesting of a value from its brackets alone: strings, and runs of opening or of closing
# brackets (spaces between them included) are one match each, so that a file of a million
# ``[`` is scanned in C, not a character at a time.
_STRUCTURE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[{][\[{ \t\r\n]*|[\]}][\]} \t\r\n]*', re.S)
# Only a \u escape can put NUL or a surrogate into a string decoded from UTF-8 text.
_RISKY_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")
_BAD_CHARACTER = re.compile("[\x00\ud800-\udfff]")
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
_NAME = re.compile(r"[^\W\d][\w-]*|\d+")


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{_one_line(self.path)}:{self.line}: {_one_line(self.field)}: {_one_line(self.message)}"


def _one_line(text: str) -> str:
    """Text as one printable line: control characters, line separators and surrogates (which
    a key in a field name may hold) escaped."""
    return _UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


@dataclass
class Record:
    line: int
    data: Any
    source: str
    problems: list[Problem] = field(default_factory=list)


def shown(value: object, limit: int = 60) -> str:
    """A value as a message quotes it: its repr, cut short (a message never echoes a payload)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


class UnreadableFile(Exception):
    """A file refused as a whole (not text, not UTF-8); ``problem`` says where and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def file_text(path: Path) -> str:
    """The file's text; raises ``UnreadableFile`` for anything that is not UTF-8 text."""
    label = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UnreadableFile(Problem(label, 1, "file", f"cannot be read: {error.strerror or error}")) from None
    for bom, encoding in _OTHER_BOMS:
        if data.startswith(bom):
            raise UnreadableFile(
                Problem(
                    label,
                    1,
                    "file",
                    f"is {encoding} text (it starts with a {encoding} byte-order mark); save it as UTF-8",
                )
            )
    data = data.removeprefix(codecs.BOM_UTF8)
    nul = data.find(b"\0")
    if nul >= 0:
        raise UnreadableFile(
            _byte_problem(
                label, data, nul, "has a NUL byte, so it is not a text file (is it UTF-16?); save it as UTF-8"
            )
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        message = f"is not UTF-8 text: byte 0x{data[error.start]:02x} cannot be decoded; save it as UTF-8"
        raise UnreadableFile(_byte_problem(label, data, error.start, message)) from None


def _byte_problem(label: str, data: bytes, offset: int, message: str) -> Problem:
    line_start = data.rfind(b"\n", 0, offset) + 1
    column = len(data[line_start:offset].decode("utf-8", "replace")) + 1
    return Problem(label, data.count(b"\n", 0, offset) + 1, "file", f"{message} (column {column})")


def read_records(path: Path) -> tuple[list[Record], list[Problem]]:
    """The records of a ``.jsonl`` file (one a line) or a ``.json`` file (one object, or a list
    whose items are the records), and a problem for every one refused."""
    reading = _Reading(str(path))
    try:
        reading.text = file_text(path)
    except UnreadableFile as error:
        return [], [error.problem]
    if path.suffix.lower() == ".jsonl":
        reading.jsonl()
    else:
        reading.json(split_list=True)
    return reading.records, reading.problems


def read_document(path: Path) -> tuple[Any, list[Problem]]:
    """The one JSON value a file holds (a rubric), or ``None`` and the problems."""
    try:
        text = file_text(path)
    except UnreadableFile as error:
        return None, [error.problem]
    return read_document_text(text, str(path))


def read_document_text(text: str, label: str) -> tuple[Any, list[Problem]]:
    """The one JSON value ``text`` holds (a file's text, a form's JSON field), or ``None`` and
    the problems, ``label`` in place of a file's name. The text itself is not checked for
    NUL and surrogates as a file is (``legalsim.text_input`` does that for a form)."""
    reading = _Reading(label)
    reading.text = text
    reading.json(split_list=False)
    if reading.problems or not reading.records:
        return None, reading.problems
    return reading.records[0].data, []


class _Lines:
    """Line numbers of offsets in one text, counted on from the last offset asked about."""

    def __init__(self, text: str) -> None:
        self.text, self.offset, self.line = text, 0, 1

    def at(self, offset: int) -> int:
        if offset >= self.offset:
            self.line += self.text.count("\n", self.offset, offset)
        else:
            self.line -= self.text.count("\n", offset, self.offset)
        self.offset = offset
        return self.line


class _Reading:
    def __init__(self, label: str) -> None:
        self.label = label
        self.text = ""
        self.records: list[Record] = []
        self.problems: list[Problem] = []
        self.refusals = 0  # numbers the decoder refused so far: a record with none needs no number check
        self.decoder = json.JSONDecoder(parse_float=self._float, parse_int=self._int, parse_constant=self._constant)

    def jsonl(self) -> None:
        for number, raw in enumerate(self.text.split("\n"), 1):
            line = raw.removesuffix("\r")
            start = _skip_space(line, 0)
            if start == len(line):
                continue
            try:
                refusals = self.refusals
                data, end = self.decoder.raw_decode(line, start)
            except json.JSONDecodeError as error:
                self._problem(number, "json", f"invalid JSON: {error.msg} (column {error.colno})")
                continue
            except RecursionError:
                self._problem(number, "json", f"nested deeper than {MAX_DEPTH} levels")
                continue
            rest = _skip_space(line, end)
            if rest < len(line):
                self._problem(number, "json", f"invalid JSON: extra data after the record (column {rest + 1})")
                continue
            self._record(number, data, line, numbers=self.refusals != refusals)

    def json(self, *, split_list: bool) -> None:
        """One value, or with ``split_list`` a list of them read one by one, so that every bad
        record is reported and each record's line is where it starts."""
        text, lines = self.text, _Lines(self.text)
        start = _skip_space(text, 0)
        if start == len(text):
            self._problem(1, "file", "is empty; expected a JSON object or list")
            return
        if not (split_list and text.startswith("[", start)):
            end = self._value(lines, start)
            if end is not None and _skip_space(text, end) < len(text):
                self._syntax(lines, _skip_space(text, end), "extra data after the object")
            return
        position = _skip_space(text, start + 1)
        if text.startswith("]", position):
            self._after_list(lines, position)
            return
        while True:
            end = self._value(lines, position)
            if end is None:
                return
            position = _skip_space(text, end)
            if text.startswith("]", position):
                self._after_list(lines, position)
                return
            if not text.startswith(",", position):
                self._syntax(lines, position, "expected ',' or ']' after a record")
                return
            position = _skip_space(text, position + 1)

    def _after_list(self, lines: _Lines, position: int) -> None:
        rest = _skip_space(self.text, position + 1)
        if rest < len(self.text):
            self._syntax(lines, rest, "extra data after the list")

    def _value(self, lines: _Lines, position: int) -> int | None:
        """Decode the record at ``position``; return where it ends, None when reading must stop."""
        refusals = self.refusals
        try:
            data, end = self.decoder.raw_decode(self.text, position)
        except json.JSONDecodeError as error:
            self._problem(error.lineno, "json", f"invalid JSON: {error.msg} (column {error.colno})")
            return None
        except RecursionError:
            deep_at, end = _nesting(self.text, position)
            line = lines.at(position if deep_at is None else deep_at)
            self._problem(line, "json", f"nested deeper than {MAX_DEPTH} levels")
            if end is None:
                self._problem(line, "json", "invalid JSON: the file ends inside this record")
            return end
        self._record(lines.at(position), data, self.text[position:end], numbers=self.refusals != refusals)
        return end

    def _record(self, line: int, data: Any, source: str, *, numbers: bool) -> None:
        found = _value_problems(data, source, numbers=numbers)
        for name, message, offset in found:
            self._problem(line + source.count("\n", 0, offset), name, message)
        if not found:
            self.records.append(Record(line, data, source))

    def _syntax(self, lines: _Lines, position: int, message: str) -> None:
        column = position - self.text.rfind("\n", 0, position)
        self._problem(lines.at(position), "json", f"invalid JSON: {message} (column {column})")

    def _problem(self, line: int, name: str, message: str) -> None:
        self.problems.append(Problem(self.label, line, name, message))

    # The decoder's hooks: a number that cannot be kept becomes a ``_Refused`` in its place.

    def _refused(self, literal: str, message: str) -> _Refused:
        self.refusals += 1
        return _Refused(literal, message)

    def _constant(self, literal: str) -> _Refused:
        return self._refused(literal, f"{literal} is not allowed: JSON has no NaN or Infinity")

    def _float(self, literal: str) -> float | _Refused:
        value = float(literal)
        return (
            value if math.isfinite(value) else self._refused(literal, f"{_shorten(literal)} is too large for a number")
        )

    def _int(self, literal: str) -> int | _Refused:
        if len(literal.lstrip("-")) > _FLOAT_MAX_DIGITS or abs(value := int(literal)) > sys.float_info.max:
            return self._refused(literal[:20], f"{_shorten(literal)} is too large for a number")
        return value


def _skip_space(text: str, position: int) -> int:
    match = _SPACE.match(text, position)
    return match.end() if match else position


class _Refused:
    """A number that parsed but cannot be kept: where the value was, with why."""

    __slots__ = ("literal", "message")

    def __init__(self, literal: str, message: str) -> None:
        self.literal, self.message = literal, message


def _shorten(literal: str) -> str:
    return literal if len(literal) <= 24 else f"{literal[:12]}...({len(literal)} characters)"


def _value_problems(data: Any, source: str, *, numbers: bool) -> list[tuple[str, str, int]]:
    """(field, message, offset in ``source``) for each thing a decoded record may not hold, at
    most ``MAX_PROBLEMS_PER_RECORD``; the walk keeps its own stack (no recursion). Most records
    hold nothing to refuse: no risky escape, no refused number, and no more opening brackets
    than ``MAX_DEPTH`` (so no deeper nesting) or a depth found in one pass over the containers."""
    strings = _RISKY_ESCAPE.search(source) is not None
    if not (strings or numbers):
        if source.count("[") + source.count("{") <= MAX_DEPTH or not _too_deep(data):
            return []
    found: list[tuple[str, str, int]] = []
    root = _scalar_problem(data, strings)
    if root is not None:
        return [("json", root[0], _offset_of(source, None, root[1]))]
    if not isinstance(data, dict | list):
        return []
    stack: list[tuple[Any, int, str, str | None]] = [(data, 1, "", None)]
    too_deep = False
    while stack and len(found) <= MAX_PROBLEMS_PER_RECORD:
        node, depth, where, anchor = stack.pop()
        if depth > MAX_DEPTH:
            too_deep = True
            continue
        is_dict = isinstance(node, dict)
        for key, value in node.items() if is_dict else enumerate(node):
            if len(found) > MAX_PROBLEMS_PER_RECORD:
                break
            if is_dict:
                name, child_anchor = _member(where, key), key
                if strings and _BAD_CHARACTER.search(key):
                    found.append(
                        (where or "json", f"a key {_character_problem(key)}", _offset_of(source, anchor, None))
                    )
                    continue
            else:
                name, child_anchor = f"{where}[{key}]", anchor
            if isinstance(value, dict | list):
                stack.append((value, depth + 1, name, child_anchor))
                continue
            problem = _scalar_problem(value, strings)
            if problem is not None:
                found.append((name, problem[0], _offset_of(source, child_anchor, problem[1])))
    if too_deep:
        deep_at, _ = _nesting(source, 0)
        found.append(("json", f"nested deeper than {MAX_DEPTH} levels", deep_at or 0))
    found.sort(key=lambda item: item[2])
    if len(found) > MAX_PROBLEMS_PER_RECORD:
        found[MAX_PROBLEMS_PER_RECORD:] = [("record", "more problems like these are not listed", 0)]
    return found


def _member(where: str, key: str) -> str:
    """A field's name: ``parent.key``, or ``parent["key"]`` for a key that is not a plain name."""
    if _NAME.fullmatch(key):
        return f"{where}.{key}" if where else key
    return f"{where}[{json.dumps(key, ensure_ascii=False)}]"


def _too_deep(data: Any) -> bool:
    """Whether containers nest deeper than ``MAX_DEPTH``, a level at a time."""
    level, depth = [data], 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            return True
        below: list[Any] = []
        for node in level:
            if node.__class__ is dict:
                below += [value for value in node.values() if value.__class__ is dict or value.__class__ is list]
            elif node.__class__ is list:
                below += [value for value in node if value.__class__ is dict or value.__class__ is list]
        level = below
    return False


def _scalar_problem(value: Any, strings: bool) -> tuple[str, str | None] | None:
    """(message, text to look for in the source) when a scalar may not be kept."""
    if isinstance(value, _Refused):
        return value.message, value.literal
    if strings and isinstance(value, str) and (bad := _BAD_CHARACTER.search(value)):
        return _character_problem(value), f"\\u{ord(bad.group()):04x}"
    return None


def _character_problem(text: str) -> str:
    bad = _BAD_CHARACTER.search(text)
    code = ord(bad.group()) if bad else 0
    if code == 0:
        return "contains a NUL character (\\u0000), which cannot be stored"
    return f"contains an unpaired surrogate (\\u{code:04x}), which is not text"


def _offset_of(source: str, anchor: str | None, needle: str | None) -> int:
    """Where in a record's source a problem is: the first occurrence of ``needle`` after the
    key ``anchor`` (the start of the record when neither is found)."""
    position = 0
    if anchor is not None:
        found = source.find(json.dumps(anchor, ensure_ascii=False))
        position = found if found >= 0 else 0
    if needle:
        for form in (needle, needle.upper().replace("\\U", "\\u")):
            found = source.find(form, position)
            if found >= 0:
                return found
    return position


def nested_too_deep(text: str) -> bool:
    """Whether the JSON value ``text`` holds nests deeper than ``MAX_DEPTH``, judged by its
    brackets in one pass (strings skipped) before any recursive parser sees it: a request body
    of 100,000 ``[`` must be refused, not parsed until Python runs out of stack."""
    return _nesting(text, _skip_space(text, 0))[0] is not None


def _nesting(text: str, start: int) -> tuple[int | None, int | None]:
    """For the value at ``start``, judged by its brackets alone (strings skipped): the offset of
    the bracket that nests it deeper than ``MAX_DEPTH``, and the offset just after the value
    (None when it never closes)."""
    depth, deep_at = 0, None
    for match in _STRUCTURE.finditer(text, start):
        token = match.group()
        if token[0] == '"':
            if depth == 0:
                return deep_at, match.end()
            continue
        if token[0] in "[{":
            opened = token.count("[") + token.count("{")
            if deep_at is None and depth + opened > MAX_DEPTH:
                deep_at = match.start() + _nth_bracket(token, MAX_DEPTH - depth + 1)
            depth += opened
            continue
        closed = token.count("]") + token.count("}")
        if closed >= depth:
            return deep_at, match.start() + _nth_bracket(token, depth) + 1
        depth -= closed
    return deep_at, None


def _nth_bracket(token: str, n: int) -> int:
    """The index of the ``n``-th bracket in a run of brackets and spaces."""
    if " " not in token and "\t" not in token and "\r" not in token and "\n" not in token:
        return n - 1
    for index, character in enumerate(token):
        if character in "[]{}":
            n -= 1
            if n == 0:
                return index
    return len(token) - 1


def loads_untrusted(text: str) -> Any:
    """``json.loads`` for text from outside a file (a model's reply, tool arguments): any
    unreadable text, a value nested too deep for the parser included, is a ``ValueError``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested deeper than the parser can read") from None
