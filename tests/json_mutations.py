"""Hypothesis strategies for the file-reader property suites: valid records mutated the ways
people and tools break them (a key dropped, a type changed, nesting inserted, random unicode,
huge numbers, NaN and Infinity, duplicate ids), written as JSON, JSONL or CSV and then maybe
damaged as bytes (truncated, a byte-order mark, a NUL, a byte that is not UTF-8)."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

# Characters a file reader must survive: NUL, unpaired surrogates, separators that str.splitlines
# (but not JSON) treats as line breaks, a byte-order mark, quotes and backslashes.
AWKWARD = ["\x00", "\ud800", "\udfff", "\u2028", "\u2029", "\x85", "\x1c", "\ufeff", "\r", "\n", '"', "\\", ",", "\t"]
texts = st.text(st.characters(exclude_categories=()) | st.sampled_from(AWKWARD), max_size=20)
# JSON text json.dumps cannot write: spliced in through a placeholder string.
RAW_LITERALS = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1" + "0" * 400, "-" + "9" * 5000, "1e308", "-0"]


@dataclass(frozen=True)
class Raw:
    text: str


def nested(depth: int, kind: str) -> Raw:
    if kind == "list":
        return Raw("[" * depth + "]" * depth)
    return Raw('{"a":' * depth + "1" + "}" * depth)


scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | texts
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(texts, children, max_size=3),
    max_leaves=8,
)
wild_values = st.one_of(
    json_values,
    st.sampled_from(RAW_LITERALS).map(Raw),
    st.builds(nested, st.integers(1, 1500), st.sampled_from(["list", "object"])),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.sampled_from([float("nan"), float("inf"), -float("inf"), 1.7976931348623157e308]),
)


def paths_of(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside ``value`` (dict keys and list indexes)."""
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths_of(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths_of(child, (*prefix, index))
    return found


def _parent(record: Any, path: tuple) -> Any:
    for step in path[:-1]:
        record = record[step]
    return record


@dataclass
class Mutated:
    record: dict
    changes: list[str] = field(default_factory=list)


@st.composite
def mutated_record(draw, base: dict, *, earlier_ids: list[str], mutate: bool) -> Mutated:
    """``base`` copied, then (when ``mutate``) changed one to three times."""
    record = copy.deepcopy(base)
    result = Mutated(record)
    if not mutate:
        return result
    for _ in range(draw(st.integers(1, 3))):
        paths = paths_of(result.record)
        kind = draw(st.sampled_from(["drop", "retype", "nest", "unicode", "number", "duplicate", "extra"]))
        if kind == "duplicate" and earlier_ids:
            result.record["id"] = draw(st.sampled_from(earlier_ids))
        elif kind == "extra" or not paths:
            result.record[draw(texts)] = draw(wild_values)
        else:
            path = draw(st.sampled_from(paths))
            parent = _parent(result.record, path)
            if kind == "drop":
                del parent[path[-1]]
            elif kind == "retype":
                parent[path[-1]] = draw(json_values)
            elif kind == "nest":
                value = parent[path[-1]]
                for _ in range(draw(st.integers(1, 100))):
                    value = [value] if draw(st.booleans()) else {"n": value}
                parent[path[-1]] = value
            elif kind == "unicode":
                parent[path[-1]] = draw(texts)
            else:
                parent[path[-1]] = draw(wild_values)
        result.changes.append(kind)
    return result


def dumps(value: Any, *, indent: int | None = None, ensure_ascii: bool = True) -> str:
    """json.dumps, with each ``Raw`` written as its text."""
    raws: list[str] = []

    def placeholder(raw: object) -> str:
        if not isinstance(raw, Raw):
            raise TypeError(raw)
        raws.append(raw.text)
        return f"\x01RAW{len(raws) - 1}\x01"

    text = json.dumps(value, indent=indent, ensure_ascii=ensure_ascii, default=placeholder)
    return re.sub(r'"\\u0001RAW(\d+)\\u0001"|"\x01RAW(\d+)\x01"', lambda m: raws[int(m.group(1) or m.group(2))], text)


@st.composite
def damaged(draw, content: bytes) -> tuple[bytes, str | None]:
    """The bytes, maybe damaged; with what was done (None: left as they were)."""
    kind = draw(st.sampled_from([None, None, None, "truncate", "bom", "utf16", "byte"]))
    if kind is None:
        return content, None
    if kind == "truncate":
        return content[: draw(st.integers(0, max(len(content) - 1, 0)))], kind
    if kind == "bom":
        return b"\xef\xbb\xbf" + content, None  # a UTF-8 byte-order mark is allowed: the file stays as good
    if kind == "utf16":
        return content.decode("utf-8", "surrogatepass").encode("utf-16", "surrogatepass"), kind
    at = draw(st.integers(0, len(content)))
    return content[:at] + draw(st.sampled_from([b"\x00", b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xfe\xff"])) + content[
        at:
    ], kind


def encoded(text: str) -> bytes:
    """UTF-8, with any surrogate written as the (invalid) bytes it would be."""
    return text.encode("utf-8", "surrogatepass")


PROBLEM = re.compile(r"(?P<file>[^\n]+?):(?P<line>[1-9][0-9]*): (?P<field>[^\n]+?): (?P<message>[^\n]+)")


def assert_well_formed(problem: object, *, label: str, lines: int) -> None:
    """``FILE:LINE: field: message`` on one line, naming the file and a line it has."""
    text = str(problem)
    match = PROBLEM.fullmatch(text)
    assert match, f"not FILE:LINE: field: message: {text!r}"
    assert text.startswith(f"{label}:"), text
    assert 1 <= problem.line <= lines, f"line {problem.line} of a {lines}-line file: {text!r}"
    assert problem.field.strip() and problem.message.strip(), text


def written(directory: Path, files: list[dict]) -> list[Path]:
    """Each generated file (``name``, ``content`` bytes) written into ``directory``."""
    paths = []
    for file in files:
        path = directory / file["name"]
        path.write_bytes(file["content"])
        paths.append(path)
    return paths


def lines_of(content: bytes) -> int:
    return content.count(b"\n") + 1
