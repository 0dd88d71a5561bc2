"""Global case memory (LegalWorld §3.1 and D.2, docs/sources.md): one JSON object per client and
lawyer, carried across stages and written only through bounded ``revise`` and ``expand``
operations."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

MEMORY_KEYS = (
    "facts",
    "evidence",
    "claims",
    "defenses",
    "procedural_progress",
    "client_profile",
    "positions",
    "notes",
)
MAX_ENTRIES_PER_KEY = 40
MAX_ENTRY_CHARS = 2000

CIVIL_MEMORY_ROLES = frozenset({"client", "lawyer"})
CRIMINAL_MEMORY_SEATS = frozenset({"prosecutor", "attorney", "defendant"})


class MemoryOperationError(ValueError):
    """A write the memory refuses; the message is shown to the agent as a failed tool call."""


@dataclass(frozen=True)
class MemoryOp:
    op: Literal["revise", "expand"]
    key: str
    entries: tuple[str, ...]
    """``expand`` appends these entries; ``revise`` replaces the key's entries with them."""


def empty_memory() -> dict[str, list[str]]:
    return {key: [] for key in MEMORY_KEYS}


def has_memory(procedure: str, seat: str, role: str) -> bool:
    """Clients and lawyers keep memory; judges (and the clerk) write none."""
    if procedure == "criminal":
        return seat in CRIMINAL_MEMORY_SEATS
    return role in CIVIL_MEMORY_ROLES


def memory_apply(memory: dict[str, list[str]], op: MemoryOp) -> None:
    """Apply one operation in place, or raise ``MemoryOperationError`` leaving memory as it was."""
    if op.op not in ("revise", "expand"):
        raise MemoryOperationError(f"unknown memory operation {op.op!r}; use revise or expand")
    if op.key not in MEMORY_KEYS:
        raise MemoryOperationError(f"unknown memory key {op.key!r}; keys: {', '.join(MEMORY_KEYS)}")
    entries = [str(entry).strip() for entry in op.entries if str(entry).strip()]
    too_long = [entry for entry in entries if len(entry) > MAX_ENTRY_CHARS]
    if too_long:
        raise MemoryOperationError(f"memory entries are limited to {MAX_ENTRY_CHARS} characters")
    current = memory.setdefault(op.key, [])
    if op.op == "expand":
        merged = current + [entry for entry in entries if entry not in current]
    else:
        merged = entries
    if len(merged) > MAX_ENTRIES_PER_KEY:
        raise MemoryOperationError(
            f"memory key {op.key!r} is limited to {MAX_ENTRIES_PER_KEY} entries; revise it to consolidate"
        )
    memory[op.key] = merged


def memory_after(memory: dict[str, list[str]], ops: Iterable[MemoryOp]) -> dict[str, list[str]]:
    """A copy of ``memory`` with ``ops`` applied in order (operations the memory refused are
    never recorded, so none is here): what a seat has written so far in a memory update."""
    written = {key: list(entries) for key, entries in memory.items()}
    for op in ops:
        memory_apply(written, op)
    return written
