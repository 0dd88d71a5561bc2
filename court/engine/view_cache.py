"""What ``build_view`` works out once and reads again at later turns: a view is built for
every turn, and most of what goes into it changes only with the stage, the phase or the
documents filed. Everything kept here is a pure function of its key; the rules themselves
stay in ``court.engine.visibility``."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Protocol

from court.documents import document_without
from court.engine.state import TrialState

Sources = dict[str, dict[str | None, Any]]


class Rule(Protocol):
    """A row of a visibility matrix, as far as a cache reads it: the field it governs
    (``court.engine.visibility.Rule``)."""

    @property
    def field(self) -> str: ...


class Sight:
    """``visible(rule, owner)`` of one seat at one phase of one stage, each answer worked out
    once, when first asked (a view asks it of every rule for every value and document)."""

    def __init__(self, visible: Callable[[Rule, str | None], bool]) -> None:
        self._decide = visible
        self._visible: dict[tuple[int, str | None], bool] = {}
        self._hidden: dict[str | None, frozenset[str]] = {}

    def visible(self, rule: Rule, owner: str | None) -> bool:
        key = (id(rule), owner)  # the rules are the matrices' own, alive as long as this
        seen = self._visible.get(key)
        if seen is None:
            seen = self._visible[key] = self._decide(rule, owner)
        return seen

    def hidden(self, rules: tuple[Rule, ...], owner: str | None) -> frozenset[str]:
        """The fields of ``rules`` this seat may not read in a document of ``owner``."""
        hidden = self._hidden.get(owner)
        if hidden is None:
            hidden = self._hidden[owner] = frozenset(rule.field for rule in rules if not self.visible(rule, owner))
        return hidden


def sources_of(state: TrialState, compute: Callable[[Mapping[str, Any], TrialState], Sources]) -> Sources:
    """``compute(state.case, state)``, worked out again only when what the sources are read
    from changed: the case (by identity: nothing changes a trial's case in place), the target
    side, the appeal (the appellants, whether people play, the judgment) and the documents (the
    engine's lists only grow, so their length tells). Views share the values, read only."""
    return _sources(
        _Same(state.case),
        compute,
        state.target_side,
        state.appellant_side,
        state.cross_appellant_side,
        bool(state.human_seats),
        state.judgment_final,
        len(state.artifacts),
        _Along(state),
    )


@lru_cache(maxsize=512)
def _sources(case: _Same, compute, *key_and_state: Any) -> Sources:
    return compute(case.value, key_and_state[-1].value)


class _Same:
    """A key that is its value's identity (the cache holds the value, so no other takes its id)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.value is self.value


class _Along:
    """The state, carried to the cached function but no part of its key (the rest of the key
    names everything read of it), and held weakly: the cache keeps the key of its first call,
    and must not keep that trial's whole state alive with it."""

    __slots__ = ("_state",)

    def __init__(self, state: TrialState) -> None:
        self._state = weakref.ref(state)

    @property
    def value(self) -> TrialState | None:
        return self._state()

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Along)


@lru_cache(maxsize=2048)
def document_read(kind: str, text: str, hidden: frozenset[str], language: str) -> str:
    """``document_without`` once a document and the fields hidden from a seat: the same
    documents are read at every turn of a stage."""
    return document_without(kind, text, set(hidden), language)
