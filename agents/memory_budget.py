"""The memory a turn's prompt shows (docs/llm-servers.md, "Prompt size"): the whole memory up to
``MEMORY_TOKENS``, and past it a bounded part, each key's latest entries first, with a line
saying how much is left out and that ``read_memory`` gives the whole (the turn is then offered
that tool, ``toolbox.turn_tools``).

Only what a prompt shows is bounded; the memory itself is never changed. The stage-end memory
update, which revises the memory, is shown it whole; the strategy and reflection calls see it
as a turn does, with ``read_memory`` offered likewise."""

from __future__ import annotations

from dataclasses import dataclass

from court.engine.tokens import estimate_tokens

MEMORY_TOKENS = 300
"""The memory a turn's prompt shows in full, in tokens of its entries' text (``estimate_tokens``).
About what a seat writes at its first stage end (the case as it learnt it: the scripted agents
write some 250 tokens in English), and under a third of the ``prompts.RECENT_TOKENS`` it shares
with the recent lines, which keep at least 700 tokens. A memory grows at every stage's end while
the case it holds is already in the prompt's materials, so past this the prompt shows its
latest entries and the seat reads the rest with ``read_memory`` when it needs it. Of 200, 300
and 400 tried with ``benchmarks/prompt_tokens.py`` (memory as the scripted agents write it),
300 gave the lowest highest ratio."""
CUT_MARK = "…"


@dataclass(frozen=True)
class ShownMemory:
    """What a prompt shows of a memory: its entries per key (empty keys left out), how many
    entries it leaves out, whether one is cut short (ending in ``CUT_MARK``), and about how
    many tokens that leaves unshown."""

    entries: dict[str, list[str]]
    tokens: int
    """The entries' size (``estimate_tokens`` of their text)."""
    left_out: int = 0
    cut: bool = False
    tokens_left_out: int = 0

    @property
    def bounded(self) -> bool:
        return bool(self.left_out) or self.cut


def memory_shown(memory: dict[str, list[str]], budget: int | None = MEMORY_TOKENS) -> ShownMemory:
    """``memory`` within ``budget`` tokens (None: whole). Past it, the entries are taken round by round, each
    key's latest first, then the one before it...; an entry that does not fit closes its key
    (a key shows its latest entries, never one with a gap), and once every entry has been
    tried, the first one that did not fit is cut to the room left, so the part shown stays
    close to the budget however the memory is spread over its keys."""
    written = {key: list(entries) for key, entries in memory.items() if entries}
    sizes = {key: [estimate_tokens(entry) for entry in entries] for key, entries in written.items()}
    total = sum(sum(of_key) for of_key in sizes.values())
    if budget is None or total <= budget:
        return ShownMemory(written, total)
    kept: dict[str, int] = dict.fromkeys(written, 0)
    closed: list[str] = []
    room = budget
    for key, index in _latest_first(written):
        if key in closed:
            continue
        if sizes[key][index] <= room:
            kept[key] += 1
            room -= sizes[key][index]
        else:
            closed.append(key)
    shown = {key: entries[len(entries) - kept[key] :] for key, entries in written.items()}
    cut = _cut(written, kept, closed[0], room) if closed else None
    if cut is not None:
        shown[closed[0]].insert(0, cut)
    shown = {key: entries for key, entries in shown.items() if entries}
    left_out = sum(len(entries) for entries in written.values()) - sum(kept.values()) - (cut is not None)
    used = budget - room + (estimate_tokens(cut) if cut is not None else 0)
    return ShownMemory(shown, used, left_out=left_out, cut=cut is not None, tokens_left_out=max(0, total - used))


def _latest_first(memory: dict[str, list[str]]) -> list[tuple[str, int]]:
    """(key, index) of every entry: each key's latest, then each key's one before, and so on."""
    longest = max(len(entries) for entries in memory.values())
    return [
        (key, len(entries) - 1 - depth)
        for depth in range(longest)
        for key, entries in memory.items()
        if depth < len(entries)
    ]


def _cut(memory: dict[str, list[str]], kept: dict[str, int], key: str, room: int) -> str | None:
    """The entry of ``key`` just before its kept ones, cut to ``room`` tokens, or None when not a
    word of it fits."""
    entry = memory[key][len(memory[key]) - kept[key] - 1]
    low, high = 0, len(entry)
    while low < high:
        middle = (low + high + 1) // 2
        if estimate_tokens(entry[:middle]) <= room:
            low = middle
        else:
            high = middle - 1
    prefix = entry[:low]
    if prefix.isascii() and low < len(entry) and not entry[low].isspace():
        prefix = prefix.rpartition(" ")[0]
    prefix = prefix.rstrip()
    return prefix + CUT_MARK if prefix else None
