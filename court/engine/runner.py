"""The engine loop every trial runs on: simulated, prepared, play-tested or live.

``trial_loop`` is the one loop over ``next_step``. It asks for the steps one at a time
(``Due``) and leaves the taking to its consumer: ``trial_run`` takes them at once in memory
(simulation, preparation, authoring), the live driver (``trials.live.driver``) streams an
agent's words, stores each step under the trial's row lock and waits for people. Either
way the loop decides where a run stops: at the end, at ``stop_before``, when a seat has
nothing to give yet (``Awaiting``: a person typing) or when it failed (``Paused``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass

from court.engine.machine import next_step, step_apply
from court.engine.participants import DeltaSink, MemoryRequest, Participant, ParticipantFailed, TurnRequest
from court.engine.stage_order import same_stage_or_alternative
from court.engine.state import TrialState
from court.engine.steps import End, MemoryUpdate, Reply, Speak, StageStart, Step, UpdateMemory
from court.engine.visibility import build_view

EventSink = Callable[[Step, object], None]
Seats = Callable[[TrialState], Mapping[str, Participant]]
"""Who answers each seat on a state (a live trial's people change as seats are taken)."""
Given = Reply | MemoryUpdate | ParticipantFailed | None
"""What a consumer hands back for a ``Due``: what its seat gave (None: nothing yet), or how it failed."""


@dataclass(frozen=True)
class Awaiting:
    """The run stopped because ``step`` belongs to a seat that has not acted yet."""

    step: Speak | UpdateMemory


@dataclass(frozen=True)
class Paused:
    """The run stopped because the seat of ``step`` failed; running again resumes at ``step``."""

    step: Speak | UpdateMemory
    reason: str


Stop = End | Awaiting | Paused | StageStart


@dataclass(frozen=True)
class Due:
    """A step the loop asks its consumer to take: the one ``next_step`` chose on ``state``,
    and the participant whose it is (None at a stage boundary, which is nobody's)."""

    state: TrialState
    step: Step
    participant: Participant | None

    def ask(self, *, on_delta: DeltaSink | None = None) -> Reply | MemoryUpdate | None:
        """What the participant gives for the step, asked with its own view of ``state``
        (nothing at a stage boundary); raises ``ParticipantFailed``. A participant that
        writes its reply piece by piece tells ``on_delta`` each piece."""
        step, participant = self.step, self.participant
        if isinstance(step, Speak) and participant is not None:
            request = TurnRequest(step, build_view(self.state, step.seat, phase=step.phase))
            return participant.respond(request, on_delta=on_delta)
        if isinstance(step, UpdateMemory) and participant is not None:
            return participant.update_memory(MemoryRequest(step, build_view(self.state, step.seat, phase="memory")))
        return None

    def awaits(self, given: Given) -> bool:
        """Whether ``given`` leaves the step to be taken later: its seat had nothing yet."""
        return self.participant is not None and given is None


def trial_loop(
    read: Callable[[], TrialState], seats: Seats, *, stop_before: str | None = None
) -> Generator[Due, Given, Stop]:
    """The engine loop. Each pass reads the state (``read``: people and other processes may
    have moved a live trial since the last step), asks ``next_step`` what happens next and
    yields it as a ``Due``; the consumer takes the step (records it) and sends back what the
    seat gave. The loop returns where the run stops: ``End``; the start of ``stop_before`` or
    of its alternative (AD for AR: which of the two runs may depend on the judgment, the
    stages before a live trial's first, played by agents); ``Awaiting`` when the seat gave
    nothing; ``Paused`` when it failed."""
    while True:
        state = read()
        step = next_step(state)
        if isinstance(step, End):
            return step
        if isinstance(step, StageStart) and stop_before and same_stage_or_alternative(state, step.stage, stop_before):
            return step
        due = Due(state, step, seats(state)[step.seat] if isinstance(step, Speak | UpdateMemory) else None)
        given = yield due
        if isinstance(given, ParticipantFailed):
            return Paused(due.step, str(given))
        if due.awaits(given):
            return Awaiting(due.step)


def trial_run(
    state: TrialState,
    participants: Mapping[str, Participant],
    *,
    on_event: EventSink | None = None,
    stop_before: str | None = None,
) -> Stop:
    """Run ``trial_loop`` on ``state`` in memory until it stops, each step applied as the
    seat gives it.

    ``on_event(step, outcome)`` is told of every applied step (the turn record for a turn),
    so callers can persist or broadcast without the engine knowing about either.
    """
    emit = on_event or (lambda step, outcome: None)
    loop = trial_loop(lambda: state, lambda _: participants, stop_before=stop_before)
    given: Given = None
    while True:
        try:
            due = loop.send(given)
        except StopIteration as stopped:
            return stopped.value
        try:
            given = due.ask()
        except ParticipantFailed as failure:
            given = failure
            continue
        if not due.awaits(given):
            emit(due.step, step_apply(state, due.step, given))
