"""A call path traced across threads: which of the project's modules a piece of work enters,
in order, from the call that starts it (its root) through the calls nested in it, on the
event loop's thread and in the worker threads it hands database work to.

Python 3.11 has no ``sys.monitoring``: the profiler is installed with ``sys.setprofile`` on
the calling thread and ``threading.setprofile`` for threads started afterwards, so a trace
must begin before the event loop starts the worker threads the traced work will use.
"""

from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType

PACKAGES = frozenset({"accounts", "agents", "annotation", "api", "classroom", "court", "legalsim", "scoring", "trials"})
"""The project's packages; a call into anything else (Django, Channels, the standard
library) is not a station of the path."""
_TRACED: contextvars.ContextVar[bool] = contextvars.ContextVar("traced", default=False)


def project_module(frame: FrameType) -> str | None:
    name = frame.f_globals.get("__name__", "")
    return name if name.split(".")[0] in PACKAGES else None


@dataclass
class Trace:
    """``is_root(frame)`` names a frame that starts traced work (a consumer's handler for one
    message). A call nested in a root, on its stack or in a worker thread it handed work to,
    is an entry into the called function's module when its caller is in another module: a
    module calling itself, being returned to or a coroutine of it resuming enters nothing."""

    is_root: Callable[[FrameType], bool]
    entries: list[tuple[str, str]] = field(default_factory=list)
    """(module, function) of each entry, in order."""
    roots: list[FrameType] = field(default_factory=list)
    _started: dict[int, FrameType] = field(default_factory=dict)
    """The frames entered, kept so that their ids are not reused while the trace lasts."""
    active: bool = True
    """Cleared when the trace ends: worker threads keep the profiler until they stop."""

    def _is_root(self, frame: FrameType) -> bool:
        return any(frame is root for root in self.roots)

    def _nested(self, frame: FrameType) -> bool:
        """On a root's stack, or in a thread whose context was copied from a running root's
        task (``asgiref`` runs database work in a copy of the awaiting task's context)."""
        caller: FrameType | None = frame
        while caller is not None:
            if self._is_root(caller):
                return True
            caller = caller.f_back
        return _TRACED.get()

    def profile(self, frame: FrameType, event: str, arg: object) -> None:
        """A coroutine's frame is called each time it resumes and returns each time it
        waits: a root marks its task's context as traced only while it runs."""
        module = project_module(frame) if self.active else None
        if module is None:
            return
        if self._is_root(frame):
            _TRACED.set(event == "call")
            return
        if event != "call":
            return
        if self.is_root(frame):
            self.roots.append(frame)
            _TRACED.set(True)
        elif not self.roots or not self._nested(frame):
            return
        if self._started.get(id(frame)) is frame:
            return
        self._started[id(frame)] = frame
        caller = frame.f_back
        if caller is None or project_module(caller) != module:
            self.entries.append((module, frame.f_code.co_name))

    def visits(self, counted: Callable[[str], bool] = lambda module: True) -> list[str]:
        """The ``counted`` modules entered, in order, a module's consecutive entries counted
        as one visit."""
        visits: list[str] = []
        for module, _ in self.entries:
            if counted(module) and (not visits or visits[-1] != module):
                visits.append(module)
        return visits

    def entered_twice(self, counted: Callable[[str], bool] = lambda module: True) -> list[str]:
        visits = self.visits(counted)
        return sorted({module for module in visits if visits.count(module) > 1})


@contextmanager
def traced(is_root: Callable[[FrameType], bool]) -> Iterator[Trace]:
    """Trace the work ``is_root`` names, on this thread and the threads started meanwhile."""
    trace = Trace(is_root)
    threading.setprofile(trace.profile)
    sys.setprofile(trace.profile)
    try:
        yield trace
    finally:
        trace.active = False
        sys.setprofile(None)
        threading.setprofile(None)
